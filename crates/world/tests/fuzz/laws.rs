//! The law of `tests/properties.rs` the core target checks on any pair of
//! states that meets its premises: one pass converges, whatever the ignore
//! rules.

use gitops_core::diff::normalize::last_applied;
use gitops_core::diff::patch::merge_key;
use gitops_core::sync::apply::{is_in, namespace_at};
use gitops_core::value::ValueRef;
use gitops_core::{apply, has_work, Form, Operation, Options, State};
use serde_json::Value;
use std::collections::BTreeSet;

/// After the plan is applied, a second pass has nothing to do. Checked for
/// pairs like the law's own: one form, every key of a list merged by key
/// written once, and no Namespace the plan deletes holding an object Git
/// still declares (Kubernetes deletes it with its Namespace, and the next
/// pass creates it again).
pub fn one_pass_converges(
    desired: &State,
    actual: &State,
    plan: &[Operation],
    options: &Options,
) -> Result<(), String> {
    let premises = one_form(desired, actual)
        && merge_keys_are_unique(desired)
        && merge_keys_are_unique(actual)
        && no_declared_object_goes_with_its_namespace(desired, actual, plan);
    if premises && has_work(&gitops_core::plan(desired, &apply(plan, actual), options)) {
        return Err("one pass converges whatever the ignore rules".into());
    }
    Ok(())
}

fn no_declared_object_goes_with_its_namespace(
    desired: &State,
    actual: &State,
    plan: &[Operation],
) -> bool {
    plan.iter()
        .filter(|operation| matches!(operation, Operation::Delete { .. }))
        .filter_map(|operation| namespace_at(actual, operation.key()))
        .all(|namespace| {
            !desired
                .objects()
                .values()
                .any(|object| is_in(object, namespace))
        })
}

/// Both in the lesson's form, or both Kubernetes objects.
fn one_form(desired: &State, actual: &State) -> bool {
    (*desired.form() == Form::Named) == (*actual.form() == Form::Named)
}

/// Whether no list that Kubernetes merges by key (containers and env by
/// `name`, ports by `port`, ...) has a key twice, in any object or in what
/// a live object last applied. With a key twice, every pass finds the same
/// difference again, in Argo CD too (argoproj/argo-cd#20979).
fn merge_keys_are_unique(state: &State) -> bool {
    state.objects().values().all(|object| {
        keys_are_unique(object.value())
            && last_applied(object).is_none_or(|applied| keys_are_unique(&applied))
    })
}

fn keys_are_unique(value: &Value) -> bool {
    let mut pending = vec![value];
    while let Some(node) = pending.pop() {
        match node {
            Value::Object(fields) => {
                for (field, child) in fields {
                    if let Value::Array(items) = child {
                        if !unique_in_list(field, items) {
                            return false;
                        }
                    }
                    pending.push(child);
                }
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    true
}

fn unique_in_list(field: &str, items: &[Value]) -> bool {
    let all: Vec<ValueRef> = items.iter().map(ValueRef::from).collect();
    let Some(key) = merge_key(field, &all) else {
        return true;
    };
    let mut seen = BTreeSet::new();
    items
        .iter()
        .all(|item| seen.insert(item.get(key).map(Value::to_string)))
}
