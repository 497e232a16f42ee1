use crate::state::namespace::namespace_of;
use crate::state::{Form, Key, State};
use crate::sync::plan::Operation;
use serde_json::Value;

/// The actual state after carrying out `plan`, in the form `actual` was in.
/// Each operation sets or removes its key, so applying a plan to a state it
/// was not made for still gives a well-defined result. Deleting a Namespace
/// deletes what is in it, as Kubernetes does.
pub fn apply(plan: &[Operation], actual: &State) -> State {
    let mut next = actual.clone();
    for operation in plan {
        match operation {
            Operation::Create { key, object, .. } | Operation::Update { key, object, .. } => {
                next.insert(key.clone(), object.clone());
            }
            Operation::Delete { key, .. } => {
                for contained in deleted_with(&next, key) {
                    next.remove(&contained);
                }
                next.remove(key);
            }
            Operation::Skip { .. } => {}
        }
    }
    next
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
    let object = state.get(key)?;
    if object.get("kind")?.as_str()? != "Namespace" {
        return None;
    }
    object.pointer("/metadata/name")?.as_str()
}

/// Whether `object` is in the namespace `name` (where it lands: an object
/// that names no namespace is in the destination namespace).
pub fn is_in(object: &Value, namespace: &str) -> bool {
    namespace_of(object) == Some(namespace)
}
