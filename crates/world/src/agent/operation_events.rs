//! The events of the agent's operations: what it created, updated, reverted,
//! deleted or kept, and the changes in words.

use crate::event::Event;
use gitops_core::diff::changes::Change;
use gitops_core::state::State;
use gitops_core::sync::apply::deleted_with;
use gitops_core::sync::plan::Operation;

pub(crate) fn operation_event(
    step: u32,
    environment: &str,
    operation: &Operation,
    why: &str,
    following_git: bool,
    actual: &State,
) -> Event {
    let what = match operation {
        Operation::Create { key, .. } => format!("created {key} in {environment}"),
        Operation::Update { key, changes, replace: true, .. } => format!(
            "replaced {key} in {environment} at {}: written whole (Replace=true), what only the cluster set is gone",
            describe_changes(changes)
        ),
        Operation::Update { key, changes, .. } if following_git => format!(
            "updated {key} in {environment} at {}",
            describe_changes(changes)
        ),
        Operation::Update { key, changes, .. } => format!(
            "{key} in {environment} drifted at {}; reverting",
            describe_changes(changes)
        ),
        Operation::Delete { key, .. } => match deleted_with(actual, key).as_slice() {
            [] => format!("deleted {key} from {environment}"),
            contents => format!(
                "deleted {key} from {environment}, and with it everything in it: {}",
                contents.join(", ")
            ),
        },
        Operation::Skip { key, reason, .. } => {
            return Event::new(
                step,
                "agent",
                format!("kept {key} in {environment}, which Git no longer declares"),
            )
            .because(reason.clone())
            .in_cluster(environment)
            .on(key)
        }
    };
    let why = match operation {
        Operation::Delete { .. } => format!("{why}; it is not in Git and prune is on"),
        _ => why.to_string(),
    };
    Event::new(step, "agent", what)
        .because(why)
        .in_cluster(environment)
        .on(operation.key())
}

/// `/spec/replicas (5 → 2), /image (a → b)`: live value to desired value.
pub fn describe_changes(changes: &[Change]) -> String {
    const SHOWN: usize = 3;
    let show = |value: &Option<serde_json::Value>| match value {
        None => "absent".to_string(),
        Some(serde_json::Value::String(text)) => crate::registry::shorten_digests(text),
        Some(other) => other.to_string(),
    };
    crate::event::first_and_more(changes, SHOWN, |change| {
        format!(
            "{} ({} → {})",
            change.path,
            show(&change.from),
            show(&change.to)
        )
    })
}
