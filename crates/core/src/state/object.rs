//! One object of a state: a `serde_json` value (an object the core or the
//! world wrote, or read from YAML), or where it lies in the JSON text it was
//! read from (`value/in_text.rs`), which the core reads without building it.
//! An object kept in its text is built once, the first time something asks
//! for it as a `Value` (`Object::value`): what a plan writes, what the world
//! keeps of it.

use crate::value::in_text::InText;
use crate::value::ValueRef;
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;
use std::sync::Arc;

#[derive(Clone)]
pub enum Object {
    Built(Value),
    InText(InText),
}

impl Object {
    /// The object read where it lies.
    pub fn view(&self) -> ValueRef<'_> {
        match self {
            Object::Built(value) => ValueRef::Built(value),
            Object::InText(object) => object.view(),
        }
    }

    /// The object as a `serde_json` value: one kept in its text is built the
    /// first time, and kept.
    pub fn value(&self) -> &Value {
        match self {
            Object::Built(value) => value,
            Object::InText(object) => object.value(),
        }
    }

    /// The object as a value of its own.
    pub fn to_value(&self) -> Value {
        match self {
            Object::Built(value) => value.clone(),
            Object::InText(object) => object.to_value(),
        }
    }

    pub fn into_value(self) -> Value {
        match self {
            Object::Built(value) => value,
            Object::InText(object) => object.into_value(),
        }
    }

    /// Whether it is kept as built, not in its text.
    pub fn is_built(&self) -> bool {
        matches!(self, Object::Built(_))
    }
}

impl From<Value> for Object {
    fn from(value: Value) -> Object {
        Object::Built(value)
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
