//! Whether a JSON text reads as a given value, found without building the
//! value: strings without escapes are compared where they lie in the text,
//! and the first difference ends the reading. A live object's last-applied
//! record is most often the very object Git declares; comparing is several
//! times cheaper than reading it.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use crate::value::{Kind, ValueRef};
use serde_json::Number;
use std::borrow::Cow;
use std::fmt;

/// Whether `text` is JSON that reads (as `json::read_fast` reads it) as a
/// value equal to `expected`. A field written twice reads as nothing: never
/// equal.
pub fn reads_as<'v>(text: &str, expected: impl Into<ValueRef<'v>>) -> bool {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    Expected(expected.into()).deserialize(&mut deserializer).is_ok() && deserializer.end().is_ok()
}

/// Reads a value, failing at the first place where it is not this one.
struct Expected<'v>(ValueRef<'v>);

fn differs<E: de::Error>() -> E {
    E::custom("differs")
}

impl Expected<'_> {
    fn same<E: de::Error>(&self, found: bool) -> Result<(), E> {
        found.then_some(()).ok_or_else(differs)
    }

    fn number<E: de::Error>(&self, number: Number) -> Result<(), E> {
        self.same(self.0.as_number() == Some(&number))
    }
}

impl<'de> DeserializeSeed<'de> for Expected<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Expected<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        self.same(self.0.as_bool() == Some(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        self.number(value.into())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        self.number(value.into())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        self.number(Number::from_f64(value).ok_or_else(differs)?)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        self.same(self.0.text().as_deref() == Some(value))
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.same(self.0.is_null())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.same(self.0.kind() == Kind::Array)?;
        let mut items = self.0.items();
        let mut count = 0;
        while seq.next_element_seed(Item(items.next()))?.is_some() {
            count += 1;
        }
        self.same(Some(count) == self.0.count())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.same(self.0.is_object())?;
        let mut seen = Seen::new(self.0).ok_or_else(differs)?;
        while let Some(Name(name)) = map.next_key()? {
            let (at, value) = seen.field(&name).ok_or_else(differs)?;
            self.same(seen.first_time(at))?;
            map.next_value_seed(Expected(value))?;
        }
        self.same(Some(seen.count) == self.0.count())
    }
}

/// The item expected at a place in a list; none past its end.
struct Item<'v>(Option<ValueRef<'v>>);

impl<'de> DeserializeSeed<'de> for Item<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        Expected(self.0.ok_or_else(differs)?).deserialize(deserializer)
    }
}

/// Objects with more fields than this are read instead: finding a name
/// among their fields would take an index of them.
const MOST_FIELDS: usize = 32;

/// Which fields of an object were read, to find a field written twice.
struct Seen<'v> {
    fields: ValueRef<'v>,
    read: [bool; MOST_FIELDS],
    count: usize,
}

impl<'v> Seen<'v> {
    fn new(fields: ValueRef<'v>) -> Option<Self> {
        (fields.count()? <= MOST_FIELDS).then_some(Seen {
            fields,
            read: [false; MOST_FIELDS],
            count: 0,
        })
    }

    /// The place of the field `name` among the fields, and its value.
    fn field(&self, name: &str) -> Option<(usize, ValueRef<'v>)> {
        (self.fields.fields().enumerate())
            .find_map(|(at, (field, value))| (field == name).then_some((at, value)))
    }

    fn first_time(&mut self, at: usize) -> bool {
        let first = !std::mem::replace(&mut self.read[at], true);
        self.count += usize::from(first);
        first
    }
}

/// A field name, borrowed from the text when it has no escapes.
struct Name<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NameVisitor;
        impl<'de> Visitor<'de> for NameVisitor {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_borrowed_str<E>(self, name: &'de str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Borrowed(name)))
            }
            fn visit_str<E>(self, name: &str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(name.to_string())))
            }
        }
        deserializer.deserialize_str(NameVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::json::read_fast;
    use crate::text::json::tests::json_values;
    use proptest::prelude::*;
    use serde_json::{json, Map, Value};

    #[test]
    fn a_text_reads_as_an_equal_value_whatever_its_order_and_spacing() {
        let value = json!({"a": [1, -2, 2.5, "x", null, true], "b": {"c\"d": "é\n"}});
        assert!(reads_as(
            r#"{ "b": {"c\"d": "\u00e9\n"}, "a": [1, -2, 2.5, "x", null, true] }"#,
            &value
        ));
        assert!(reads_as(
            "{\"a\": [1, -2, 2.5, \"x\", null, true], \"b\": {\"c\\\"d\": \"é\\n\"}}\n",
            &value
        ));
    }

    #[test]
    fn any_difference_is_found() {
        let value = json!({"a": [1, 2], "b": {"c": "x"}});
        for text in [
            r#"{"a": [1, 2], "b": {"c": "y"}}"#,
            r#"{"a": [1], "b": {"c": "x"}}"#,
            r#"{"a": [1, 2, 3], "b": {"c": "x"}}"#,
            r#"{"a": [1, 2]}"#,
            r#"{"a": [1, 2], "b": {"c": "x"}, "d": 1}"#,
            r#"{"a": [1, 2], "b": {"c": "x", "c": "x"}}"#,
            r#"{"a": [1, 2], "a": [1, 2]}"#,
            r#"{"a": [1.0, 2], "b": {"c": "x"}}"#,
            r#"{"a": [1, 2], "b": {"c": "x"}} x"#,
            r#"{"a": [1, 2], "b": {"c": "x"}"#,
            r#"[1, 2]"#,
        ] {
            assert!(!reads_as(text, &value), "{text}");
        }
    }

    #[test]
    fn a_name_written_twice_in_place_of_another_is_found() {
        let fields: Map<String, Value> = (0..MOST_FIELDS)
            .map(|at| (format!("f{at}"), json!(1)))
            .collect();
        let value = Value::Object(fields);
        let text = serde_json::to_string(&value).unwrap();
        assert!(reads_as(&text, &value));
        assert!(
            !reads_as(&text.replace("\"f7\"", "\"f8\""), &value),
            "f8 twice, no f7"
        );
    }

    #[test]
    fn an_object_of_many_fields_is_left_to_reading() {
        let fields: Map<String, Value> = (0..=MOST_FIELDS)
            .map(|at| (format!("f{at}"), json!(1)))
            .collect();
        let value = Value::Object(fields);
        assert!(!reads_as(&serde_json::to_string(&value).unwrap(), &value));
    }

    fn any_json() -> impl Strategy<Value = Value> {
        let numbers = prop_oneof![
            (-3i64..3).prop_map(Value::from),
            prop_oneof![Just(0.5f64), Just(1.0)].prop_map(Value::from),
        ];
        json_values(numbers, "[ab\"é]{0,2}", "[ab]{0,1}")
    }

    proptest! {
        #[test]
        fn reads_as_exactly_when_reading_gives_an_equal_value(text_value in any_json(), expected in any_json()) {
            let text = serde_json::to_string(&text_value).unwrap();
            let read = read_fast(&text).unwrap();
            prop_assert!(reads_as(&text, &read));
            prop_assert_eq!(reads_as(&text, &expected), read == expected);
            let expected_text = serde_json::to_string(&expected).unwrap();
            let taped = crate::text::tape::Tape::parse("expected", expected_text.into()).unwrap();
            let expected = read_fast(taped.text()).unwrap();
            prop_assert_eq!(reads_as(&text, taped.root()), read == expected, "taped");
        }
    }
}
