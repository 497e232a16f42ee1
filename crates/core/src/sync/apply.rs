use crate::options::Options;
use crate::state::namespace::namespace_of;
use crate::state::{Form, Key, State};
use crate::sync::immutable::{outcome, Outcome, Recreated, Refusal};
use crate::sync::plan::Operation;
use crate::value::ValueRef;
use serde_json::Value;

/// The actual state after carrying out `plan`, in the form `actual` was in.
/// Each operation sets or removes its key, so applying a plan to a state it
/// was not made for still gives a well-defined result. Deleting a Namespace
/// deletes what is in it, as Kubernetes does.
pub fn apply(plan: &[Operation], actual: &State) -> State {
    let mut next = actual.clone();
    for operation in plan {
        apply_one(operation, &mut next);
    }
    next
}

fn apply_one(operation: &Operation, state: &mut State) {
    match operation {
        Operation::Create { key, object, .. } | Operation::Update { key, object, .. } => {
            state.insert(key.clone(), Value::clone(object));
        }
        Operation::Delete { key, .. } => {
            for contained in deleted_with(state, key) {
                state.remove(&contained);
            }
            state.remove(key);
        }
        Operation::Skip { .. } => {}
    }
}

/// A plan carried out as the API server takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct CarriedOut {
    pub actual: State,
    /// The updates the API server refused, in the plan's order.
    pub refused: Vec<Refusal>,
    /// The objects deleted and created again, in the plan's order.
    pub recreated: Vec<Recreated>,
}

/// `actual` after a sync carries out `plan` (made for `desired`) against
/// the API server, wave by wave: an update it refuses is not written, and
/// the sync stops after that wave, whose other operations ran
/// (gitops-engine's `sync_context.go` applies a wave's tasks, then fails
/// the operation when one failed); an update an option recreates deletes
/// the object and creates it (`sync::immutable`). Where nothing is refused
/// or recreated, it is `apply`.
pub fn carry_out(
    plan: &[Operation],
    desired: &State,
    actual: &State,
    options: &Options,
) -> CarriedOut {
    let mut done = CarriedOut {
        actual: actual.clone(),
        refused: Vec::new(),
        recreated: Vec::new(),
    };
    let mut failed_in = None;
    for operation in plan {
        if failed_in.is_some_and(|wave| operation.wave() > wave) {
            break;
        }
        match outcome(operation, desired, &done.actual, options) {
            Outcome::Accepted => apply_one(operation, &mut done.actual),
            Outcome::Refused(refusal) => {
                failed_in = Some(operation.wave());
                done.refused.push(refusal);
            }
            Outcome::Recreated { why, object, .. } => {
                let key = operation.key().to_string();
                done.actual.remove(&key);
                done.actual.insert(key.clone(), object);
                done.recreated.push(Recreated { key, why });
            }
        }
    }
    done
}

/// What Kubernetes deletes along with the object at `key`: for a Namespace,
/// every object in it, whatever protects them from a prune (in key order);
/// nothing for any other object, nor in the lesson's form.
pub fn deleted_with(state: &State, key: &str) -> Vec<Key> {
    let Some(namespace) = namespace_at(state, key) else {
        return Vec::new();
    };
    state
        .objects()
        .iter()
        .filter(|(_, object)| is_in(object, namespace))
        .map(|(key, _)| key.clone())
        .collect()
}

/// The name of the Namespace at `key`; none for any other object, and in
/// the lesson's form.
pub fn namespace_at<'s>(state: &'s State, key: &str) -> Option<&'s str> {
    if *state.form() == Form::Named {
        return None;
    }
    let object = state.object(key)?.view();
    if object.get("kind")?.as_str()? != "Namespace" {
        return None;
    }
    object.at(&["metadata", "name"])?.as_str()
}

/// Whether `object` is in the namespace `name` (where it lands: an object
/// that names no namespace is in the destination namespace).
pub fn is_in<'a>(object: impl Into<ValueRef<'a>>, namespace: &str) -> bool {
    namespace_of(object) == Some(namespace)
}
