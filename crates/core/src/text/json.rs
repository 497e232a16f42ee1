//! Reading JSON text strictly: a field written twice in one object is an
//! error (plain `serde_json` keeps the last one silently), every error has a
//! line and column, and documents are capped in size. Nesting is capped by
//! `serde_json` itself (128 levels), so hostile input cannot overflow the stack.
//!
//! Each object and array is built once its size is known (its fields are
//! gathered first), instead of grown a field at a time: growing them was most
//! of what reading cost. A field written twice is then found as its object
//! ends, and the text is read again field by field to say where.

use crate::error::InputError;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::error::Category;
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};
use std::fmt;

/// The largest document read, in bytes: 10,000 Deployments as a cluster gives
/// them back (defaults, status, the last-applied record) and the page writes
/// them, pretty JSON, are 34 MB.
pub const MAX_DOCUMENT_BYTES: usize = 48 * 1024 * 1024;

/// The deepest nesting read, in JSON (`serde_json`'s own cap) as in YAML and
/// in values given as JavaScript objects.
pub const MAX_DEPTH: usize = 128;

/// What kind of JSON value one is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

/// An error when `text` is larger than the playground reads.
pub fn check_size(source: &str, text: &str) -> Result<(), InputError> {
    if text.len() <= MAX_DOCUMENT_BYTES {
        return Ok(());
    }
    Err(InputError::too_large(
        source,
        format!(
            "the document is {}; the playground reads documents up to {}",
            megabytes(text.len()),
            megabytes(MAX_DOCUMENT_BYTES)
        ),
    ))
}

/// Parses `text` as one JSON value; `source` names the document in errors.
pub fn parse(source: &str, text: &str) -> Result<Value, InputError> {
    check_size(source, text)?;
    if text.trim().is_empty() {
        return Err(InputError::syntax(source, 1, 1, "the document is empty"));
    }
    read_fast(text).map_err(|error| refused(source, text, error))
}

/// The error `parse` gives for `text`, which a quick read refused with
/// `error`: a field written twice is found as its object ends, so the text
/// is read again to say where.
pub(crate) fn refused(source: &str, text: &str, error: serde_json::Error) -> InputError {
    let error = match error.classify() {
        Category::Data => read(text, Twice::Located).err().unwrap_or(error),
        _ => error,
    };
    syntax_error(source, &error)
}

/// Reads `text` as one JSON value, as quickly as it can: each object and
/// array is built at its final size. A field written twice is an error, but
/// not where it is (`parse` reads again to say where).
pub fn read_fast(text: &str) -> Result<Value, serde_json::Error> {
    read(text, Twice::Unlocated)
}

/// Reads `text` as one JSON value as `read_fast` does, a field written twice
/// the last one, as `serde_json::Value` and Go's `encoding/json` read it.
pub fn read_last_wins(text: &str) -> Result<Value, serde_json::Error> {
    read(text, Twice::LastWins)
}

fn read(text: &str, twice: Twice) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let mut scratch = Scratch::default();
    let reader = Reader {
        scratch: &mut scratch,
        twice,
    };
    let value = reader.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
}

fn syntax_error(source: &str, error: &serde_json::Error) -> InputError {
    let full = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    let message = match message {
        "recursion limit exceeded" => {
            format!("the document is nested too deeply (more than {MAX_DEPTH} levels)")
        }
        other => other.to_string(),
    };
    InputError::syntax(source, error.line(), error.column(), message)
}

/// How a field written twice is found.
#[derive(Clone, Copy)]
enum Twice {
    /// When the object is built: quick, but the error is at the object's end.
    Unlocated,
    /// As the second one is read: the error is where it is.
    Located,
    /// No error: the last one is the field, as `serde_json::Value` and Go's
    /// `encoding/json` read it.
    LastWins,
}

/// The fields and items of the objects and arrays being read, inner ones
/// above outer ones: each is built once its size is known.
#[derive(Default)]
struct Scratch {
    fields: Vec<(String, Value)>,
    items: Vec<Value>,
}

struct Reader<'s> {
    scratch: &'s mut Scratch,
    twice: Twice,
}

pub(crate) fn twice_error<E: de::Error>(name: &str) -> E {
    E::custom(format!("the field `{name}` appears twice in one object"))
}

impl<'de> DeserializeSeed<'de> for Reader<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Reader<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_string()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let start = self.scratch.items.len();
        while let Some(item) = seq.next_element_seed(self.inner())? {
            self.scratch.items.push(item);
        }
        Ok(Value::Array(self.scratch.items.drain(start..).collect()))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        if let Twice::Located = self.twice {
            return self.visit_map_located(map);
        }
        let start = self.scratch.fields.len();
        while let Some(name) = map.next_key::<String>()? {
            let value = map.next_value_seed(self.inner())?;
            self.scratch.fields.push((name, value));
        }
        let mut fields = Map::with_capacity(self.scratch.fields.len() - start);
        for (name, value) in self.scratch.fields.drain(start..) {
            match fields.entry(name) {
                Entry::Occupied(mut field) if matches!(self.twice, Twice::LastWins) => {
                    field.insert(value);
                }
                Entry::Occupied(field) => return Err(twice_error(field.key())),
                Entry::Vacant(field) => {
                    field.insert(value);
                }
            };
        }
        Ok(Value::Object(fields))
    }
}

impl Reader<'_> {
    fn inner(&mut self) -> Reader<'_> {
        Reader {
            scratch: self.scratch,
            twice: self.twice,
        }
    }

    fn visit_map_located<'de, A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(name) = map.next_key::<String>()? {
            match fields.entry(name) {
                Entry::Occupied(field) => return Err(twice_error(field.key())),
                Entry::Vacant(field) => {
                    field.insert(map.next_value_seed(self.inner())?);
                }
            }
        }
        Ok(Value::Object(fields))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn read_last_wins_reads_as_serde_json_and_go_read_a_field_written_twice() {
        let text = r#"{"a": 1, "b": {"c": [true, null, "x"], "c": 2.5}, "a": 3}"#;
        assert_eq!(read_last_wins(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        assert_eq!(read_last_wins(text).unwrap(), json!({"a": 3, "b": {"c": 2.5}}));
        assert!(read_fast(text).is_err(), "the panes' reader refuses it");
        assert!(read_last_wins("{\"a\": 1,}").is_err(), "a trailing comma is no JSON");
    }

    #[test]
    fn reads_json() {
        assert_eq!(
            parse("d", r#"{"a": [1, 2.5, "x", null, true]}"#).unwrap(),
            json!({"a": [1, 2.5, "x", null, true]})
        );
    }

    #[test]
    fn reports_line_and_column() {
        let error = parse("desired", "{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!(error.kind, ErrorKind::Syntax);
        assert_eq!((error.line, error.column), (Some(3), Some(7)));
        assert_eq!(error.to_string(), "desired, line 3, column 7: expected `:`");
    }

    #[test]
    fn rejects_a_field_written_twice() {
        let error = parse("actual", "{\"web\": {}, \"web\": {}}").unwrap_err();
        assert!(error.message.contains("`web` appears twice"), "{error}");
        assert_eq!(error.line, Some(1));
    }

    #[test]
    fn says_where_a_field_is_written_twice_deep_inside() {
        let text = "[\n  {\"spec\": {\"a\": 1},\n   \"metadata\": {\"name\": \"x\",\n     \"name\": \"y\"}}\n]";
        let error = parse("desired", text).unwrap_err();
        assert!(error.message.contains("`name` appears twice"), "{error}");
        assert_eq!((error.line, error.column), (Some(4), Some(11)));
    }

    #[test]
    fn a_record_read_quickly_still_rejects_a_field_written_twice() {
        assert!(read_fast(r#"{"a": {"b": 1, "b": 2}}"#).is_err());
        assert!(read_fast(r#"{"a": {"b": 1}, "c": {"b": 2}}"#).is_ok());
    }

    /// JSON values of numbers from `numbers`, strings and field names as
    /// the patterns `texts` and `names` say (small ones make equal values likely).
    pub(crate) fn json_values(
        numbers: impl Strategy<Value = Value> + 'static,
        texts: &'static str,
        names: &'static str,
    ) -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            numbers,
            texts.prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 5, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                proptest::collection::vec((names, inner), 0..5)
                    .prop_map(|fields| Value::Object(fields.into_iter().collect())),
            ]
        })
    }

    fn any_json() -> impl Strategy<Value = Value> {
        let numbers = prop_oneof![
            any::<i64>().prop_map(Value::from),
            (-1e12f64..1e12).prop_map(Value::from),
        ];
        json_values(numbers, "[a-z\"\\\\\u{e9}\n]{0,8}", "[a-z]{0,3}")
    }

    proptest! {
        #[test]
        fn reads_what_serde_json_reads_in_the_same_order(value in any_json()) {
            let text = serde_json::to_string(&value).unwrap();
            let read = parse("d", &text).unwrap();
            let expected: Value = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(serde_json::to_string(&read).unwrap(), serde_json::to_string(&expected).unwrap());
        }
    }

    #[test]
    fn rejects_trailing_text() {
        let error = parse("desired", "{} {}").unwrap_err();
        assert_eq!(error.message, "trailing characters");
    }

    #[test]
    fn explains_an_empty_document() {
        let error = parse("desired", "  ").unwrap_err();
        assert!(error.message.contains("empty"), "{error}");
    }

    #[test]
    fn caps_nesting_without_overflowing() {
        let deep = "[".repeat(100_000);
        let error = parse("desired", &deep).unwrap_err();
        assert!(error.message.contains("nested too deeply"), "{error}");
    }

    #[test]
    fn caps_size() {
        let big = format!("\"{}\"", "x".repeat(MAX_DOCUMENT_BYTES));
        let error = parse("desired", &big).unwrap_err();
        assert_eq!(error.kind, ErrorKind::TooLarge);
        assert!(error.message.contains("48.0 MB"), "{error}");
    }

    #[test]
    fn rejects_numbers_out_of_range() {
        let error = parse("desired", "[1e999]").unwrap_err();
        assert!(error.message.contains("out of range"), "{error}");
    }
}
