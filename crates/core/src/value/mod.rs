//! A JSON value read where it lies: built as a `serde_json` value (an object
//! the core or the world wrote) or as nodes of a tape (a text as it was read,
//! `text/tape.rs`), behind one way of reading both. The parts of the core
//! that take a `ValueRef` read a tape without building a tree of values.
//!
//! Tapes are the `tapes` feature: the API reads the states it is given into
//! tapes; the page's wasm holds no code that reads one until its panes do too.

mod cow;
pub mod digest;
mod equal;
pub mod in_text;
mod indexed;
mod iter;
pub(crate) mod reads_as;
#[cfg(feature = "tapes")]
pub(crate) mod written_as;

#[cfg(feature = "tapes")]
use crate::text::tape::Item;
use serde::{Serialize, Serializer};
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::sync::Arc;

pub use crate::text::json::Kind;
pub use cow::ValueCow;
pub use indexed::Indexed;
pub use iter::{Fields, Items};

/// A JSON value, built or in a tape.
#[derive(Clone, Copy, Debug)]
pub enum ValueRef<'a> {
    Built(&'a Value),
    #[cfg(feature = "tapes")]
    Taped(Item<'a>),
}

impl<'a> From<&'a Value> for ValueRef<'a> {
    fn from(value: &'a Value) -> ValueRef<'a> {
        ValueRef::Built(value)
    }
}

impl<'a> From<&'a Arc<Value>> for ValueRef<'a> {
    fn from(value: &'a Arc<Value>) -> ValueRef<'a> {
        ValueRef::Built(value)
    }
}

impl<'a, 'b: 'a> From<&'a &'b Value> for ValueRef<'a> {
    fn from(value: &'a &'b Value) -> ValueRef<'a> {
        ValueRef::Built(value)
    }
}

impl<'a, 'b: 'a> From<&'a &'b Arc<Value>> for ValueRef<'a> {
    fn from(value: &'a &'b Arc<Value>) -> ValueRef<'a> {
        ValueRef::Built(value)
    }
}

impl<'a, 'b: 'a> From<&'a Cow<'b, Value>> for ValueRef<'a> {
    fn from(value: &'a Cow<'b, Value>) -> ValueRef<'a> {
        ValueRef::Built(value)
    }
}

#[cfg(feature = "tapes")]
impl<'a> From<Item<'a>> for ValueRef<'a> {
    fn from(item: Item<'a>) -> ValueRef<'a> {
        ValueRef::Taped(item)
    }
}

impl<'a> ValueRef<'a> {
    pub fn kind(self) -> Kind {
        match self {
            ValueRef::Built(Value::Null) => Kind::Null,
            ValueRef::Built(Value::Bool(_)) => Kind::Bool,
            ValueRef::Built(Value::Number(_)) => Kind::Number,
            ValueRef::Built(Value::String(_)) => Kind::String,
            ValueRef::Built(Value::Array(_)) => Kind::Array,
            ValueRef::Built(Value::Object(_)) => Kind::Object,
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.kind(),
        }
    }

    pub fn is_null(self) -> bool {
        self.kind() == Kind::Null
    }

    pub fn is_object(self) -> bool {
        self.kind() == Kind::Object
    }

    pub fn as_bool(self) -> Option<bool> {
        match self {
            ValueRef::Built(value) => value.as_bool(),
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.as_bool(),
        }
    }

    pub fn as_str(self) -> Option<&'a str> {
        match self {
            ValueRef::Built(value) => value.as_str(),
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.as_str(),
        }
    }

    /// The string, as `as_str` reads it; a taped one written with escapes is
    /// read afresh and not kept (`Item::text`): for a string read once.
    pub fn text(self) -> Option<Cow<'a, str>> {
        match self {
            ValueRef::Built(value) => value.as_str().map(Cow::Borrowed),
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.text(),
        }
    }

    /// A taped object's text from its first field on (`Item::text_from_first_field`);
    /// none for a built value, which keeps no text.
    #[cfg(feature = "tapes")]
    pub fn text_from_first_field(self) -> Option<&'a str> {
        match self {
            ValueRef::Built(_) => None,
            ValueRef::Taped(item) => item.text_from_first_field(),
        }
    }

    /// A taped string between its quotes as its text writes it, escapes and
    /// all; none for a built value, which keeps no text.
    #[cfg(feature = "tapes")]
    pub fn as_written(self) -> Option<&'a str> {
        match self {
            ValueRef::Built(_) => None,
            ValueRef::Taped(item) => item.as_written(),
        }
    }

    pub fn as_number(self) -> Option<&'a Number> {
        match self {
            ValueRef::Built(Value::Number(number)) => Some(number),
            ValueRef::Built(_) => None,
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.as_number(),
        }
    }

    pub fn as_i64(self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    pub fn as_f64(self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    pub fn is_array(self) -> bool {
        self.kind() == Kind::Array
    }

    /// How many items an array holds or fields an object holds; none for
    /// any other value.
    pub fn count(self) -> Option<usize> {
        match self {
            ValueRef::Built(Value::Array(items)) => Some(items.len()),
            ValueRef::Built(Value::Object(fields)) => Some(fields.len()),
            ValueRef::Built(_) => None,
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.count(),
        }
    }

    /// An object's field of this name. A small built object is searched by
    /// comparing names: cheaper than hashing the name, and most objects are
    /// that small.
    pub fn get(self, name: &str) -> Option<ValueRef<'a>> {
        match self {
            ValueRef::Built(value) => {
                let fields = value.as_object()?;
                let field = if fields.len() <= FIELDS_SEARCHED {
                    fields.iter().find_map(|(key, value)| (key == name).then_some(value))
                } else {
                    fields.get(name)
                };
                field.map(ValueRef::Built)
            }
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.get(name).map(ValueRef::Taped),
        }
    }

    /// Whether the two are the one value in one place (not only equal).
    pub fn is_at(self, other: ValueRef) -> bool {
        match (self, other) {
            (ValueRef::Built(one), ValueRef::Built(other)) => std::ptr::eq(one, other),
            #[cfg(feature = "tapes")]
            (ValueRef::Taped(one), ValueRef::Taped(other)) => one.is_at(other),
            #[cfg(feature = "tapes")]
            _ => false,
        }
    }

    /// Whether the two are known equal without walking them: both read
    /// from texts where they are written alike (`Item::written_alike`).
    /// False where that cannot be told at once, as of built values, which
    /// are compared by walking them.
    pub fn known_equal(self, other: ValueRef) -> bool {
        match (self, other) {
            #[cfg(feature = "tapes")]
            (ValueRef::Taped(one), ValueRef::Taped(other)) => one.written_alike(other),
            _ => false,
        }
    }

    /// Whether this string is known to hold JSON that reads as `declared`
    /// without reading it: a string of a text, compared as it is written
    /// with `declared` as an apply writes it (`written_as`). False where
    /// that cannot be told so; `reads_as` then reads the string.
    pub fn known_to_read_as(self, declared: ValueRef) -> bool {
        #[cfg(feature = "tapes")]
        if let Some(written) = self.as_written() {
            return written_as::written_as(written, declared);
        }
        let _ = declared;
        false
    }

    /// Whether the value is an array or holds one.
    pub fn holds_array(self) -> bool {
        match self {
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.holds_array(),
            ValueRef::Built(_) => self.is_array() || self.fields().any(|(_, value)| value.holds_array()),
        }
    }

    /// The value at a path of fields; none if a step is absent or not an object.
    pub fn at(self, path: &[&str]) -> Option<ValueRef<'a>> {
        path.iter().try_fold(self, |value, field| value.get(field))
    }

    /// An array's items, in order; none for any other value.
    pub fn items(self) -> Items<'a> {
        match self {
            ValueRef::Built(value) => {
                value.as_array().map_or_else(Items::none, |items| Items::Built(items.iter()))
            }
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => Items::Taped(item.items()),
        }
    }

    /// An object's fields, in their order; none for any other value.
    pub fn fields(self) -> Fields<'a> {
        match self {
            ValueRef::Built(value) => {
                value.as_object().map_or_else(Fields::none, |fields| Fields::Built(fields.iter()))
            }
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => Fields::Taped(item.fields()),
        }
    }

    /// The value as an owned `serde_json` value.
    pub fn to_value(self) -> Value {
        match self {
            ValueRef::Built(value) => value.clone(),
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => item.to_value(),
        }
    }
}

/// Written as the JSON value it is, however it is kept.
impl Serialize for ValueRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ValueRef::Built(value) => value.serialize(serializer),
            #[cfg(feature = "tapes")]
            ValueRef::Taped(_) => match self.kind() {
                Kind::Null => serializer.serialize_unit(),
                Kind::Bool => serializer.serialize_bool(self.as_bool() == Some(true)),
                Kind::Number => self.as_number().serialize(serializer),
                Kind::String => serializer.serialize_str(&self.text().unwrap_or_default()),
                Kind::Array => serializer.collect_seq(self.items()),
                Kind::Object => serializer.collect_map(self.fields()),
            },
        }
    }
}

/// Objects with at most this many fields are searched by comparing names.
const FIELDS_SEARCHED: usize = 8;

#[cfg(all(test, feature = "tapes"))]
mod tests {
    use super::*;
    use crate::text::tape::Tape;
    use serde_json::json;

    /// Each way of reading gives the same answer of a value built and of the
    /// same value in a tape.
    #[test]
    fn a_built_value_and_a_taped_one_read_alike() {
        let value = json!({"a": {"b": [1, "x", null, true, 2.5, {"c": -3}]}, "d": "e\"f"});
        let tape = Tape::parse("value", serde_json::to_string(&value).unwrap().into()).unwrap();
        let both = [ValueRef::from(&value), ValueRef::from(tape.root())];
        for path in [&["a"][..], &["a", "b"], &["d"], &["x"], &["d", "e"], &[]] {
            let [built, taped] = both.map(|value| value.at(path));
            assert_eq!(built.map(ValueRef::to_value), taped.map(ValueRef::to_value), "{path:?}");
            let [built, taped] = [built, taped].map(|value| {
                value.map(|value| (value.kind(), value.as_str(), value.items().len(), value.is_object()))
            });
            assert_eq!(built, taped, "{path:?}");
        }
        let [built, taped] = both.map(|value| {
            value
                .at(&["a", "b"])
                .into_iter()
                .flat_map(ValueRef::items)
                .map(|item| (item.kind(), item.as_bool(), item.as_i64(), item.as_f64(), item.as_str()))
                .collect::<Vec<_>>()
        });
        assert_eq!(built, taped);
        assert_eq!(built.len(), 6);
    }
}
