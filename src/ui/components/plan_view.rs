use gitops_core::diff::changes::Change;
use crate::ui::ptr_eq::PtrEq;
use gitops_core::{Operation, Report};
use gitops_world::registry::shorten_digests;
use yew::prelude::*;

pub struct PlanViewProps {
    /// Operations applied by Step, oldest first.
    pub done: Vec<Operation>,
    /// The report whose plan (from here on) is shown, compared by allocation.
    pub report: PtrEq<Report>,
}

/// The plan as cards, in the order a sync runs them; applied ones first. A
/// function of its props rather than a component: each card is a component
/// that skips a redraw when its operation did not change.
pub fn plan_view(props: &PlanViewProps) -> Html {
    let cards = props
        .done
        .iter()
        .map(|operation| (operation, true))
        .chain(props.report.plan.iter().map(|operation| (operation, false)));
    html! {
        <section class="plan" aria-labelledby="plan-title">
            <h2 id="plan-title">{ "Plan" }</h2>
            if props.report.plan.is_empty() && props.done.is_empty() {
                <p class="empty">{ "Nothing to do: the cluster already matches Git." }</p>
            } else {
                <ol class="cards" aria-label="Operations">
                    { for cards.map(|(operation, done)| html! { <OperationCard key={card_key(operation)} operation={operation.clone()} {done} /> }) }
                </ol>
                if props.report.plan.iter().all(|operation| !operation.changes_cluster()) {
                    <p class="empty">{ "Nothing left to apply." }</p>
                }
            }
        </section>
    }
}

fn card_key(operation: &Operation) -> String {
    format!("{}:{}", operation.verb(), operation.key())
}

/// The element id of an object's card, for the panes' drift marks to focus.
pub fn card_id(key: &str) -> String {
    format!("card-{key}")
}

#[derive(Properties, PartialEq)]
struct OperationCardProps {
    operation: Operation,
    done: bool,
}

#[function_component(OperationCard)]
fn operation_card(props: &OperationCardProps) -> Html {
    let operation = &props.operation;
    let verb = operation.verb();
    let label = if props.done {
        format!("{verb}, done")
    } else {
        verb.to_string()
    };
    html! {
        <li class={classes!("card", verb, props.done.then_some("done"))} id={(!props.done).then(|| card_id(operation.key()))} tabindex="-1">
            <div class="card-head">
                <span class="verb" aria-label={label}>{ verb }</span>
                <code class="key">{ operation.key() }</code>
                <span class="wave" title="Sync wave">{ format!("wave {}", operation.wave()) }</span>
                if props.done {
                    <span class="done-mark" aria-hidden="true">{ "✓" }</span>
                }
            </div>
            {
                match operation {
                    Operation::Update { changes, .. } => change_list(changes),
                    Operation::Skip { reason, .. } => html! { <p class="reason">{ reason }</p> },
                    _ => html! {},
                }
            }
        </li>
    }
}

/// Field-level changes: path, live value, desired value.
pub fn change_list(changes: &[Change]) -> Html {
    let show = |value: &Option<serde_json::Value>| match value {
        None => "absent".to_string(),
        Some(serde_json::Value::String(text)) => shorten_digests(text),
        Some(other) => other.to_string(),
    };
    html! {
        <ul class="changes">
            { for changes.iter().map(|change| html! {
                <li>
                    <code class="path">{ &change.path }</code>
                    <span class="from">{ show(&change.from) }</span>
                    <span class="arrow" aria-label="becomes">{ " → " }</span>
                    <span class="to">{ show(&change.to) }</span>
                </li>
            }) }
        </ul>
    }
}
