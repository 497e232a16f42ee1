//! Reading JSON text strictly: a field written twice in one object is an
//! error (plain `serde_json` keeps the last one silently), every error has a
//! line and column, and documents are capped in size. Nesting is capped by
//! `serde_json` itself (128 levels), so hostile input cannot overflow the stack.

use super::error::InputError;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};
use std::fmt;

/// The largest document read, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 32 * 1024 * 1024;

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
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = StrictValue::deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value.0))
        .map_err(|error| syntax_error(source, &error))?;
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
        "recursion limit exceeded" => "the document is nested too deeply (more than 128 levels)",
        other => other,
    };
    InputError::syntax(source, error.line(), error.column(), message)
}

struct StrictValue(Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
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

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(StrictValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(name) = map.next_key::<String>()? {
            match fields.entry(name) {
                Entry::Occupied(field) => {
                    return Err(de::Error::custom(format!(
                        "the field `{}` appears twice in one object",
                        field.key()
                    )))
                }
                Entry::Vacant(field) => {
                    let StrictValue(value) = map.next_value()?;
                    field.insert(value);
                }
            }
        }
        Ok(Value::Object(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::ErrorKind;
    use serde_json::json;

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
        assert!(error.message.contains("32.0 MB"), "{error}");
    }

    #[test]
    fn rejects_numbers_out_of_range() {
        let error = parse("desired", "[1e999]").unwrap_err();
        assert!(error.message.contains("out of range"), "{error}");
    }
}
