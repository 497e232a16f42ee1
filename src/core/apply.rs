use super::plan::Operation;
use super::state::State;

/// The actual state after carrying out `plan`, in the form `actual` was in.
/// Each operation sets or removes its key, so applying a plan to a state it
/// was not made for still gives a well-defined result.
pub fn apply(plan: &[Operation], actual: &State) -> State {
    let mut next = actual.clone();
    for operation in plan {
        match operation {
            Operation::Create { key, object, .. } | Operation::Update { key, object, .. } => {
                next.insert(key.clone(), object.clone());
            }
            Operation::Delete { key, .. } => {
                next.remove(key);
            }
            Operation::Skip { .. } => {}
        }
    }
    next
}
