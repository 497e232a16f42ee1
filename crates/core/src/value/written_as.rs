//! Whether a JSON string, as it is written in its text, holds a value
//! serialized as an apply records it: a live object's last-applied record
//! most often is Git's object, serialized compactly by the last apply,
//! then escaped into the live object's annotation. Walking Git's object and
//! comparing each token it is written with against the record's bytes,
//! escapes and all, needs no second reading of the record, nor any field
//! looked up by name.
//!
//! Two orders of fields are tried: the value's own, as the playground's
//! world writes a record (`normalize::with_last_applied`), and sorted by
//! name, as `kubectl apply` does (`GetModifiedConfiguration`,
//! k8s.io/kubectl/pkg/util/apply.go, encodes an unstructured object, whose
//! maps Go's `encoding/json` writes with their keys sorted). A record
//! written in any other way (other spaces, Go's `\u003c` for `<`) is not
//! recognized here, and the caller reads it (`reads_as`).

use crate::collect::sort_by_key;
use crate::value::{Kind, ValueRef};
use serde_json::Number;
use std::io::Write;

/// Whether `written`, a JSON string between its quotes as written (escapes
/// and all), is `value` serialized compactly (in its own order of fields or
/// sorted by name), then written as a JSON string, with or without the
/// newline that `kubectl` ends a record with. When it is, the string reads
/// as JSON that reads as `value` (`reads_as`). A value with a string that
/// JSON escapes (a quote, a backslash, a control character) or with a
/// fraction is left to `reads_as`: both are rare in Kubernetes objects
/// (quantities are strings), and not worth the code here.
pub fn written_as(written: &str, value: ValueRef<'_>) -> bool {
    [false, true].into_iter().any(|sorted| {
        let mut rest = Rest(written.as_bytes());
        rest.value(value, sorted) && matches!(rest.0, b"" | b"\\n")
    })
}

/// What is yet to be compared of the written string.
struct Rest<'t>(&'t [u8]);

impl Rest<'_> {
    fn take(&mut self, bytes: &[u8]) -> bool {
        match self.0.strip_prefix(bytes) {
            Some(rest) => {
                self.0 = rest;
                true
            }
            None => false,
        }
    }

    fn value(&mut self, value: ValueRef<'_>, sorted: bool) -> bool {
        match value.kind() {
            Kind::Null => self.take(b"null"),
            Kind::Bool => self.take(if value.as_bool() == Some(true) { b"true" } else { b"false" }),
            Kind::Number => value.as_number().is_some_and(|number| self.number(number)),
            Kind::String => value.text().is_some_and(|text| self.string(&text)),
            Kind::Array => {
                self.take(b"[")
                    && value.items().enumerate().all(|(index, item)| (index == 0 || self.take(b",")) && self.value(item, sorted))
                    && self.take(b"]")
            }
            Kind::Object if sorted => {
                let mut fields: Vec<_> = value.fields().collect();
                sort_by_key(&mut fields, |(name, _)| *name);
                self.fields(fields.into_iter(), sorted)
            }
            Kind::Object => self.fields(value.fields(), sorted),
        }
    }

    fn fields<'v>(&mut self, fields: impl Iterator<Item = (&'v str, ValueRef<'v>)>, sorted: bool) -> bool {
        self.take(b"{")
            && fields.enumerate().all(|(index, (name, value))| {
                (index == 0 || self.take(b",")) && self.string(name) && self.take(b":") && self.value(value, sorted)
            })
            && self.take(b"}")
    }

    /// A string that JSON writes as it is, between quotes, which the
    /// record's own string escapes.
    fn string(&mut self, text: &str) -> bool {
        let plain = !text.bytes().any(|byte| matches!(byte, b'"' | b'\\' | ..=0x1f));
        plain && self.take(b"\\\"") && self.take(text.as_bytes()) && self.take(b"\\\"")
    }

    /// A whole number, in the digits every JSON writer writes it with (its
    /// `Display`), which `serde_json` reads back as that number. A fraction
    /// is left to `reads_as`: writers differ in how they write one, and
    /// `serde_json` does not read every one back to the last bit.
    fn number(&mut self, number: &Number) -> bool {
        // "-9223372036854775808", the longest, is 20 bytes.
        let mut digits = [0; 20];
        let length = {
            let mut unwritten = &mut digits[..];
            if number.is_f64() || write!(unwritten, "{number}").is_err() {
                return false;
            }
            20 - unwritten.len()
        };
        self.take(&digits[..length])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tape::Tape;
    use crate::value::reads_as::reads_as;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// `value`'s record as an apply writes it: compact JSON and a newline,
    /// then as the JSON string it is in the live object's text, between its quotes.
    fn as_written(record: &str) -> String {
        let quoted = serde_json::to_string(record).unwrap();
        quoted[1..quoted.len() - 1].to_string()
    }

    /// The value with every object's fields sorted by name, as `kubectl`
    /// writes a record (`serde_json` without `preserve_order` would sort).
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(fields) => {
                let by_name: std::collections::BTreeMap<_, _> = fields.iter().map(|(name, value)| (name.clone(), sorted(value))).collect();
                Value::Object(by_name.into_iter().collect())
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }

    fn deployment() -> Value {
        json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "labels": {"app": "web", "note": "a <b> & é"}},
            "spec": {"replicas": 3, "paused": false, "offset": -2, "limit": u64::MAX, "template": {"spec": {"containers": [
                {"name": "web", "image": "nginx:1.27", "args": ["-v", "é", null, 0]}
            ]}}}
        })
    }

    #[test]
    fn a_record_the_world_writes_is_recognized_in_the_values_order() {
        let value = deployment();
        let record = format!("{}\n", serde_json::to_string(&value).unwrap());
        assert!(written_as(&as_written(&record), ValueRef::from(&value)));
        assert!(written_as(&as_written(record.trim_end()), ValueRef::from(&value)), "without the newline");
    }

    #[test]
    fn a_record_kubectl_writes_is_recognized_with_its_fields_sorted() {
        let value = deployment();
        let record = format!("{}\n", serde_json::to_string(&sorted(&value)).unwrap());
        assert!(record.starts_with(r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels""#), "{record}");
        assert!(written_as(&as_written(&record), ValueRef::from(&value)));
    }

    #[test]
    fn a_record_written_otherwise_or_of_another_value_is_not_recognized() {
        let value = deployment();
        let record = serde_json::to_string(&value).unwrap();
        let others = [
            serde_json::to_string_pretty(&value).unwrap(),
            format!("{record}\n\n"),
            format!(" {record}"),
            record.replace("3,", "4,"),
            record.replace("3,", "03,"),
            record.replace("3,", "3.0,"),
            record.replace("3,", "30,"),
            record.replace("-2,", "-02,"),
            record.replace(",0]", ",-0]"),
            record.replace(r#""paused":false,"#, ""),
            record.replace(r#""app":"web""#, r#""app":"web","app":"web""#),
            format!("{record},"),
            // Go writes `<`, `>` and `&` as `\u003c`, `\u003e` and `\u0026`: read, not recognized.
            record.replace('<', "\\u003c"),
        ];
        for other in others {
            assert_ne!(other, record, "each is another text");
            assert!(!written_as(&as_written(&other), ValueRef::from(&value)), "{other}");
        }
        assert!(!written_as(&record, ValueRef::from(&value)), "a record not escaped into its annotation");
        let escaped = json!({"note": "a \"quoted\" word"});
        let record = serde_json::to_string(&escaped).unwrap();
        assert!(!written_as(&as_written(&record), ValueRef::from(&escaped)), "a string JSON escapes is left to reads_as");
        assert!(reads_as(&record, ValueRef::from(&escaped)));
        let fraction = json!({"ratio": 0.5});
        let record = serde_json::to_string(&fraction).unwrap();
        assert!(!written_as(&as_written(&record), ValueRef::from(&fraction)), "a fraction is left to reads_as");
        assert!(reads_as(&record, ValueRef::from(&fraction)));
    }

    #[test]
    fn a_record_is_recognized_beside_a_taped_value() {
        let value = deployment();
        let tape = Tape::parse("desired", serde_json::to_string_pretty(&value).unwrap().into()).unwrap();
        let record = format!("{}\n", serde_json::to_string(&value).unwrap());
        assert!(written_as(&as_written(&record), ValueRef::from(tape.root())));
    }

    /// JSON values; with `plain`, only strings that JSON writes as they are,
    /// and only whole numbers.
    fn any_json(plain: bool) -> impl Strategy<Value = Value> {
        let string = if plain { "[a-c é/<]{0,4}" } else { "[a-c\"\\\\é\n\u{1}/<]{0,4}" };
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(move |number| if plain { Value::from(number as i64) } else { Value::from(number) }),
            string.prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(("[a-d]{1,2}", inner), 0..4).prop_map(|fields| Value::Object(fields.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// A plain value's record, in either order, is recognized.
        #[test]
        fn a_plain_values_record_is_recognized(value in any_json(true), in_order in any::<bool>()) {
            let record = serde_json::to_string(&if in_order { value.clone() } else { sorted(&value) }).unwrap();
            prop_assert!(written_as(&as_written(&record), ValueRef::from(&value)), "{}", record);
        }

        /// What is recognized reads as the value, as `reads_as` says: the
        /// value's own record, or another value's, or one cut short.
        #[test]
        fn a_recognized_record_reads_as_the_value(value in any_json(false), other in any_json(false), cut in any::<prop::sample::Index>()) {
            let own = serde_json::to_string(&value).unwrap();
            let cut_short = own[..own.floor_char_boundary(cut.index(own.len() + 1))].to_string();
            for record in [own, serde_json::to_string(&sorted(&value)).unwrap(), serde_json::to_string(&other).unwrap(), cut_short] {
                if written_as(&as_written(&record), ValueRef::from(&value)) {
                    prop_assert!(reads_as(&record, ValueRef::from(&value)), "{}", record);
                }
            }
        }
    }
}
