//! The core's JSON tape (`text/tape.rs`) against `serde_json`.

use gitops_core::text::tape::Tape;
use gitops_core::value::ValueRef;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// A text the tape reads reads as `serde_json` reads it, value for value, and
/// every way of looking into the tape agrees with that value; a text the tape
/// refuses `serde_json` refuses too, or holds a key written twice in one
/// object or nesting deeper than `MAX_DEPTH`, which the core refuses on
/// purpose (`json.rs`).
pub fn tape_reads_as_serde_json(text: &str) -> Result<(), String> {
    let tape = Tape::parse("json", text.into());
    let theirs = strictly_by_serde_json(text);
    match (tape, theirs) {
        (Ok(tape), Ok(value)) => {
            let read = tape.root().to_value();
            if read != value {
                return Err(format!("the tape reads {read} where serde_json reads {value}"));
            }
            looks_alike(ValueRef::from(tape.root()), &value, "")
        }
        (Ok(tape), Err(refusal)) => Err(format!(
            "the tape reads {} where serde_json refuses it: {refusal}",
            tape.root().to_value()
        )),
        (Err(_), Err(_)) => Ok(()),
        (Err(error), Ok(value)) => Err(format!("the tape refuses what serde_json reads as {value}: {}", error.message)),
    }
}

/// Each way of looking into a value finds what its built value holds: an
/// object's count and each field by name, an array's count and items.
fn looks_alike(read: ValueRef, value: &Value, at: &str) -> Result<(), String> {
    let differs = |what: &str| Err(format!("at `{at}` the tape's {what} differs from serde_json's value {value}"));
    match value {
        Value::Object(fields) => {
            if read.count() != Some(fields.len()) {
                return differs("count of fields");
            }
            for (name, field) in fields {
                let Some(found) = read.get(name) else {
                    return differs(&format!("field `{name}` (absent)"));
                };
                looks_alike(found, field, &format!("{at}/{name}"))?;
            }
            Ok(())
        }
        Value::Array(items) => {
            if read.count() != Some(items.len()) || read.items().count() != items.len() {
                return differs("count of items");
            }
            for (index, (found, item)) in read.items().zip(items).enumerate() {
                looks_alike(found, item, &format!("{at}/{index}"))?;
            }
            Ok(())
        }
        Value::String(string) if read.text().as_deref() != Some(string.as_str()) => differs("string"),
        _ if read.to_value() != *value => differs("value"),
        _ => Ok(()),
    }
}

/// Why the oracle refuses a text.
#[derive(Debug)]
enum Refusal {
    Syntax(String),
    /// A key written twice in one object: `serde_json` keeps the last, the
    /// core refuses it, as `kubectl` does since Kubernetes 1.30 (strict
    /// decoding of a field set twice).
    DuplicateKey(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Refusal::Syntax(message) => write!(formatter, "{message}"),
            Refusal::DuplicateKey(key) => write!(formatter, "the key `{key}` is written twice"),
        }
    }
}

/// The text read by `serde_json` into a value, a key written twice in one
/// object refused; nesting is capped by `serde_json`'s own limit, which is
/// the core's `MAX_DEPTH`.
fn strictly_by_serde_json(text: &str) -> Result<Value, Refusal> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = Strict.deserialize(&mut reader).map_err(|error| {
        let message = error.to_string();
        match message.strip_prefix(DUPLICATE) {
            Some(rest) => Refusal::DuplicateKey(rest.split(" at line").next().unwrap_or(rest).to_string()),
            None => Refusal::Syntax(message),
        }
    })?;
    reader.end().map_err(|error| Refusal::Syntax(error.to_string()))?;
    Ok(value)
}

const DUPLICATE: &str = "duplicate key ";

/// `serde_json::Value`'s own reading, but for a key written twice.
#[derive(Clone, Copy)]
struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(value.into())
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
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

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let mut read = Vec::new();
        while let Some(item) = items.next_element_seed(Strict)? {
            read.push(item);
        }
        Ok(Value::Array(read))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut fields: A) -> Result<Value, A::Error> {
        let mut read = Map::new();
        while let Some(key) = fields.next_key::<String>()? {
            if read.contains_key(&key) {
                return Err(serde::de::Error::custom(format!("{DUPLICATE}{key}")));
            }
            let value = fields.next_value_seed(Strict)?;
            read.insert(key, value);
        }
        Ok(Value::Object(read))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gitops_core::text::json::MAX_DEPTH;

    #[test]
    fn the_tape_agrees_with_serde_json_and_refuses_a_key_written_twice() {
        for text in [r#"{"a": [1, 2.5, "x\n"], "b": {"c": null}}"#, "[]", "  3 ", r#""\u00e9""#, "{,}", "", "[1,]"] {
            assert_eq!(tape_reads_as_serde_json(text), Ok(()), "{text}");
        }
        assert!(matches!(strictly_by_serde_json(r#"{"a": 1, "a": 2}"#), Err(Refusal::DuplicateKey(key)) if key == "a"));
        assert_eq!(tape_reads_as_serde_json(r#"{"a": 1, "a": 2}"#), Ok(()));
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(tape_reads_as_serde_json(&deep), Ok(()));
    }
}
