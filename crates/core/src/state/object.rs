//! One object of a state: a `serde_json` value (an object the core or the
//! world wrote, or read from YAML), or where it lies in the tape of the JSON
//! text it was read from (`text/tape.rs`), which the core reads without
//! building it. A taped object is built once, the first time something asks
//! for it as a `Value` (`Object::value`): what a plan writes, what the world
//! keeps of it.

use crate::value::ValueRef;
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;
#[cfg(feature = "tapes")]
use {crate::text::tape::Tape, std::sync::OnceLock};

pub enum Object {
    Built(Value),
    #[cfg(feature = "tapes")]
    Taped(Taped),
}

/// An object in a tape, shared with the other objects read from the same text.
#[cfg(feature = "tapes")]
pub struct Taped {
    tape: Arc<Tape>,
    index: usize,
    built: OnceLock<Value>,
}

impl Object {
    /// The object at `index` of `tape` (`Item::index`).
    #[cfg(feature = "tapes")]
    pub(crate) fn taped(tape: Arc<Tape>, index: usize) -> Object {
        Object::Taped(Taped {
            tape,
            index,
            built: OnceLock::new(),
        })
    }

    /// The object read where it lies.
    pub fn view(&self) -> ValueRef<'_> {
        match self {
            Object::Built(value) => ValueRef::Built(value),
            #[cfg(feature = "tapes")]
            Object::Taped(taped) => ValueRef::Taped(taped.item()),
        }
    }

    /// The object as a `serde_json` value: a taped one is built the first
    /// time, and kept.
    pub fn value(&self) -> &Value {
        match self {
            Object::Built(value) => value,
            #[cfg(feature = "tapes")]
            Object::Taped(taped) => taped.built.get_or_init(|| taped.item().to_value()),
        }
    }

    /// The object as a value of its own.
    pub fn to_value(&self) -> Value {
        match self {
            Object::Built(value) => value.clone(),
            #[cfg(feature = "tapes")]
            Object::Taped(taped) => match taped.built.get() {
                Some(value) => value.clone(),
                None => taped.item().to_value(),
            },
        }
    }

    pub fn into_value(self) -> Value {
        match self {
            Object::Built(value) => value,
            #[cfg(feature = "tapes")]
            Object::Taped(mut taped) => match taped.built.take() {
                Some(value) => value,
                None => taped.item().to_value(),
            },
        }
    }

    /// Whether it is kept as built, not in a tape.
    pub fn is_built(&self) -> bool {
        matches!(self, Object::Built(_))
    }
}

#[cfg(feature = "tapes")]
impl Taped {
    fn item(&self) -> crate::text::tape::Item<'_> {
        self.tape
            .item_at(self.index)
            .expect("a taped object's index is a node of its tape")
    }
}

impl From<Value> for Object {
    fn from(value: Value) -> Object {
        Object::Built(value)
    }
}

impl Clone for Object {
    /// A copy of a taped object shares the tape.
    fn clone(&self) -> Object {
        match self {
            Object::Built(value) => Object::Built(value.clone()),
            #[cfg(feature = "tapes")]
            Object::Taped(taped) => Object::taped(Arc::clone(&taped.tape), taped.index),
        }
    }
}

/// Equal as JSON values, however each is kept.
impl PartialEq for Object {
    fn eq(&self, other: &Object) -> bool {
        self.view() == other.view()
    }
}

/// JSON's equality is an equivalence (a JSON number is never NaN), and saying
/// so lets the standard library compare an `Arc<Object>`, and a state's map
/// of them, by address before by value (`Arc`'s `PartialEq` for `T: Eq`): two
/// states that share their objects compare in constant time, as the page's
/// report kept for the world's commit of a typed text needs (`Reported::on`).
impl Eq for Object {}

impl PartialEq<Value> for Object {
    fn eq(&self, other: &Value) -> bool {
        self.view() == ValueRef::Built(other)
    }
}

/// Written as the JSON value it is, however it is kept.
impl Serialize for Object {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.view().serialize(serializer)
    }
}

impl fmt::Debug for Object {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self.value(), formatter)
    }
}

impl<'a> From<&'a Object> for ValueRef<'a> {
    fn from(object: &'a Object) -> ValueRef<'a> {
        object.view()
    }
}

impl<'a> From<&'a Arc<Object>> for ValueRef<'a> {
    fn from(object: &'a Arc<Object>) -> ValueRef<'a> {
        object.view()
    }
}

impl<'a, 'b: 'a> From<&'a &'b Arc<Object>> for ValueRef<'a> {
    fn from(object: &'a &'b Arc<Object>) -> ValueRef<'a> {
        object.view()
    }
}

impl<'a, 'b: 'a> From<&'a &'b Object> for ValueRef<'a> {
    fn from(object: &'a &'b Object) -> ValueRef<'a> {
        object.view()
    }
}

#[cfg(test)]
mod tests {
    use super::Object;
    use crate::state::Key;
    use std::collections::BTreeMap;
    use std::sync::Arc;

    /// `Arc`'s equality looks at the address first only for `T: Eq`: were
    /// objects not `Eq`, two states sharing their 10,000 objects would compare
    /// each by value, in the page's task after a pause in typing.
    #[test]
    fn objects_and_a_states_map_of_them_are_eq_so_shared_ones_compare_by_address() {
        fn compared_by_address_first<T: Eq>() {}
        compared_by_address_first::<Object>();
        compared_by_address_first::<BTreeMap<Key, Arc<Object>>>();
    }
}
