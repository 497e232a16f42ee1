use super::code_spans::code_spans;
use gitops_core::warnings::MUTABLE_IMAGE_TAG;
use gitops_core::{Report, Warning};
use gitops_world::event::Event;
use yew::prelude::*;

/// The lesson's checklist: what breaks a rule, and what to do. The actions
/// that did nothing come first (a script's mistake, or a refusal the lesson
/// shows: `gitops-sim run --strict` names the same), then the lesson's own
/// rules; the images named by a tag that can move, which nearly every
/// scenario has, are one entry that unfolds, open only when it is all the
/// checklist says.
pub fn warnings_view(report: &Report, did_nothing: &[&Event]) -> Html {
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
    let nothing = |event: &&Event| {
        html! {
            <li class="warning">
                <span class="rule">{ "did-nothing" }</span>
                <code class="key">{ format!("minute {}", event.step) }</code>
                <p>{ format!("{}: {}: {}", event.actor, event.what, event.why) }</p>
            </li>
        }
    };
    html! {
        <section class="warnings" aria-labelledby="warnings-title">
            <h2 id="warnings-title">{ "Checklist" }</h2>
            if report.warnings.is_empty() && did_nothing.is_empty() {
                <p class="empty">{ "No warnings: the desired state follows the lesson's checklist." }</p>
            } else {
                <ul>
                    { for did_nothing.iter().map(nothing) }
                    { for others.iter().map(|warning| item(warning)) }
                    { grouped }
                </ul>
            }
        </section>
    }
}
