use super::code_spans::code_spans;
use crate::ui::ptr_eq::PtrEq;
use gitops_core::Report;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct WarningsViewProps {
    /// The report whose warnings are listed, compared by allocation.
    pub report: PtrEq<Report>,
}

/// The lesson's checklist: what breaks a rule, and what to do.
#[function_component(WarningsView)]
pub fn warnings_view(props: &WarningsViewProps) -> Html {
    html! {
        <section class="warnings" aria-labelledby="warnings-title">
            <h2 id="warnings-title">{ "Checklist" }</h2>
            if props.report.warnings.is_empty() {
                <p class="empty">{ "No warnings: the desired state follows the lesson's checklist." }</p>
            } else {
                <ul>
                    { for props.report.warnings.iter().map(|warning| html! {
                        <li class="warning">
                            <span class="rule">{ warning.rule }</span>
                            <code class="key">{ &warning.key }</code>
                            <p>{ code_spans(&warning.message) }</p>
                        </li>
                    }) }
                </ul>
            }
        </section>
    }
}
