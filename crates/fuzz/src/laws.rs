//! The laws the core target checks: a state reads alike through each of the
//! core's readers (`crates/core/tests/reading_tapes.rs`), and, on any pair of
//! states that meets its premises, one pass converges whatever the ignore
//! rules (`crates/core/tests/properties.rs`).

use gitops_core::diff::normalize::last_applied;
use gitops_core::diff::patch::merge_key;
use gitops_core::sync::apply::{is_in, namespace_at};
use gitops_core::value::ValueRef;
use gitops_core::text::document::{looks_like_json, parse_documents};
use gitops_core::{apply, has_work, report, Form, Operation, Options, State, Workspace};
use serde_json::Value;
use std::collections::BTreeSet;

/// A text reads as the same state, or fails with the same error, read
/// afresh, read twice by a workspace (which remembers reads), and, for a JSON
/// text of one document, read into `serde_json`'s values and then checked
/// (`State::from_value`) where the core reads it into a tape.
pub fn reads_alike_as_values(source: &str, text: &str) -> Result<(), String> {
    let afresh = State::read(source, text);
    let mut workspace = Workspace::new();
    let remembered = [workspace.read(source, text), workspace.read(source, text)];
    if remembered.iter().any(|read| *read != afresh) {
        return Err(format!("the {source} text reads alike remembered and afresh"));
    }
    if !looks_like_json(text) {
        return Ok(());
    }
    let as_values = match parse_documents(source, text) {
        Ok(documents) if documents.len() > 1 => return Ok(()),
        Ok(mut documents) => documents
            .pop()
            .map_or(Ok(State::empty(Form::Named)), |document| State::from_value(source, document)),
        Err(error) => Err(error),
    };
    match afresh == as_values {
        true => Ok(()),
        false => Err(format!(
            "the {source} text reads alike in a tape and as values: {:?} against {:?}",
            afresh.map(|state| state.to_value()),
            as_values.map(|state| state.to_value())
        )),
    }
}

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

/// A workspace's report is the pure `report`, the first time and again when it
/// remembers what it found for every object; and so it is on a copy of the
/// desired state with a few objects edited (`edited`), which the workspace
/// reports on by patching its last report where it can, and on the state again.
pub fn a_workspace_reports_as_the_pure_report(desired: &State, actual: &State, options: &Options) -> Result<(), String> {
    let pure = report(desired, actual, options);
    let mut workspace = Workspace::new();
    for time in ["first", "second"] {
        if workspace.report(desired, actual, options) != pure {
            return Err(format!("a workspace's {time} report differs from the pure report"));
        }
    }
    let edited = edited(desired, actual);
    if workspace.report(&edited, actual, options) != report(&edited, actual, options) {
        return Err("a workspace's report on an edited copy differs from the pure report".into());
    }
    if workspace.report(desired, actual, options) != pure {
        return Err("a workspace's report on the state again differs from the pure report".into());
    }
    Ok(())
}

/// `desired` with its first object removed, its last one replaced by the live
/// object of its key (or by the cluster's first object when it holds none of
/// that key), and the cluster's first object that Git does not declare added:
/// every other object the very one it was.
fn edited(desired: &State, actual: &State) -> State {
    let mut edited = desired.clone();
    if let Some(first) = desired.objects().keys().next() {
        edited.remove(first);
    }
    if let Some(last) = desired.objects().keys().next_back() {
        let replacement = actual
            .object(last)
            .or_else(|| actual.objects().values().next());
        if let Some(object) = replacement {
            edited.insert_shared(last.clone(), object.clone());
        }
    }
    let undeclared = actual
        .objects()
        .iter()
        .find(|(key, _)| desired.object(key).is_none());
    if let Some((key, object)) = undeclared {
        edited.insert_shared(key.clone(), object.clone());
    }
    edited
}
