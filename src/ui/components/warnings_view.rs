use super::code_spans::code_spans;
use gitops_core::warnings::MUTABLE_IMAGE_TAG;
use gitops_core::{Report, Warning};
use yew::prelude::*;

/// The lesson's checklist: what breaks a rule, and what to do. The lesson's
/// own rules come first; the images named by a tag that can move, which
/// nearly every scenario has, are one entry that unfolds, open only when it
/// is all the checklist says.
pub fn warnings_view(report: &Report) -> Html {
    let (tags, others): (Vec<&Warning>, Vec<&Warning>) = report
        .warnings
        .iter()
        .partition(|warning| warning.rule == MUTABLE_IMAGE_TAG);
    let item = |warning: &Warning| {
        html! {
            <li class="warning">
                <span class="rule">{ warning.rule }</span>
                <code class="key">{ &warning.key }</code>
                <p>{ code_spans(&warning.message) }</p>
            </li>
        }
    };
    let grouped = match tags.len() {
        0 => html! {},
        1 => item(tags[0]),
        count => html! {
            <li class="warning grouped">
                <details open={others.is_empty()}>
                    <summary>
                        <span class="rule">{ MUTABLE_IMAGE_TAG }</span>
                        { format!("{count} images are named by a tag that can move") }
                    </summary>
                    <ul>{ for tags.iter().map(|warning| item(warning)) }</ul>
                </details>
            </li>
        },
    };
    html! {
        <section class="warnings" aria-labelledby="warnings-title">
            <h2 id="warnings-title">{ "Checklist" }</h2>
            if report.warnings.is_empty() {
                <p class="empty">{ "No warnings: the desired state follows the lesson's checklist." }</p>
            } else {
                <ul>
                    { for others.iter().map(|warning| item(warning)) }
                    { grouped }
                </ul>
            }
        </section>
    }
}
