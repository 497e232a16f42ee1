//! Whether a JSON string, as it is written in its text, holds a value
//! serialized as an apply records it: a live object's last-applied record
//! most often is Git's object, serialized compactly by the last apply,
//! then escaped into the live object's annotation. Comparing the record's
//! bytes, escapes and all, with Git's object as it is written needs no
//! second reading of the record, nor any field looked up by name.
//!
//! Git's object read into a tape is first compared with its own text
//! (`copies_text`), spaces between tokens left out: the record is that text
//! when the apply wrote the object in the order Git's text has it, as the
//! playground's world writes a record (`normalize::with_last_applied`).
//! Otherwise Git's object is walked, and each token it is written with is
//! compared in two orders of fields: the value's own, and sorted by name,
//! as `kubectl apply` writes it (`GetModifiedConfiguration`,
//! k8s.io/kubectl/pkg/util/apply.go, encodes an unstructured object, whose
//! maps Go's `encoding/json` writes with their keys sorted). A record
//! written in any other way (other spaces, Go's `\u003c` for `<`) is not
//! recognized here, and the caller reads it (`reads_as`).

use crate::collect::sort_by_key;
use crate::text::bytes::{bytes_equal_to, word_at};
use crate::value::{Kind, ValueRef};
use serde_json::Number;
use std::io::Write;

/// Whether `written`, a JSON string between its quotes as written (escapes
/// and all), is `value` serialized compactly (in its own order of fields or
/// sorted by name), then written as a JSON string, with or without the
/// newline that `kubectl` ends a record with. When it is, the string reads
/// as JSON that reads as `value` (`reads_as`). Unless the record copies
/// a taped object's text, a value with a string that JSON escapes (a quote,
/// a backslash, a control character) or with a fraction is left to
/// `reads_as`: both are rare in Kubernetes objects (quantities are
/// strings), and not worth the code here.
pub fn written_as(written: &str, value: ValueRef<'_>) -> bool {
    let copied = value.text_from_first_field().is_some_and(|text| copies_text(written.as_bytes(), text.as_bytes()));
    copied
        || [false, true].into_iter().any(|sorted| {
            let mut rest = Rest(written.as_bytes());
            rest.value(value, sorted) && ends_a_record(rest.0)
        })
}

/// What may follow a record's value: nothing, or the newline `kubectl` ends it with.
fn ends_a_record(rest: &[u8]) -> bool {
    matches!(rest, b"" | b"\\n")
}

/// Whether `written`, a JSON string between its quotes as written, holds
/// the text of the object whose fields `object` writes from its start (the
/// text after its `{`), with no space between tokens. Byte for byte once the
/// string's own escapes of a quote, a backslash and a slash are read; any
/// other escape in the string (a newline between tokens, Go's `\u003c`)
/// makes it no copy. The same text, spaces aside, reads as the same value.
fn copies_text(written: &[u8], object: &[u8]) -> bool {
    let Some(mut record) = written.strip_prefix(b"{") else {
        return false;
    };
    let mut git = object;
    let (mut depth, mut in_string, mut after_backslash) = (1_usize, false, false);
    loop {
        if in_string && !after_backslash {
            if let Some((taken, escaped)) = string_up_to_escape(record, git) {
                // What the steps below do for this run and the escape after it.
                (record, git) = (&record[taken + 2..], &git[taken + 1..]);
                in_string = escaped != b'"';
                after_backslash = escaped == b'\\';
                continue;
            }
        }
        // The record's bytes up to its next escape read as they are written, and
        // none of them is a quote: a string's text is compared at once.
        let (run, escape) = record.split_at(record.iter().position(|byte| *byte == b'\\').unwrap_or(record.len()));
        if in_string {
            match git.strip_prefix(run) {
                Some(rest) => git = rest,
                None => return false,
            }
            after_backslash &= run.is_empty();
        } else {
            for (at, byte) in run.iter().enumerate() {
                match git.trim_ascii_start().split_first() {
                    Some((next, rest)) if next == byte => git = rest,
                    _ => return false,
                }
                match byte {
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    return ends_a_record(&record[at + 1..]);
                }
            }
        }
        let (byte, rest) = match escape {
            [b'\\', byte @ (b'"' | b'\\' | b'/'), rest @ ..] => (*byte, rest),
            _ => return false,
        };
        record = rest;
        let next_in_git = if in_string { git.split_first() } else { git.trim_ascii_start().split_first() };
        match next_in_git {
            Some((next, rest)) if *next == byte => git = rest,
            _ => return false,
        }
        let escapes_the_next = in_string && byte == b'\\' && !after_backslash;
        if byte == b'"' && !after_backslash {
            in_string = !in_string;
        }
        after_backslash = escapes_the_next;
    }
}

/// Inside a string, eight bytes at a time: how many bytes the record and Git's
/// text share before Git's next quote or backslash, which the record writes
/// escaped just there, and that byte. None when it is not so simple (a record
/// that escapes a slash, one that parts from Git's text, the last few bytes):
/// the steps of `copies_text` then go a byte at a time.
fn string_up_to_escape(record: &[u8], git: &[u8]) -> Option<(usize, u8)> {
    let mut at = 0;
    loop {
        let (written, in_git) = (word_at(record, at)?, word_at(git, at)?);
        let escaped = bytes_equal_to(in_git, b'"') | bytes_equal_to(in_git, b'\\');
        let parted = written ^ in_git;
        if escaped == 0 && parted == 0 {
            at += 8;
            continue;
        }
        let (first_escaped, first_parted) = (escaped.trailing_zeros() / 8, parted.trailing_zeros() / 8);
        if first_parted < first_escaped {
            return None;
        }
        let taken = at + first_escaped as usize;
        let byte = git[taken];
        return (record.get(taken..taken + 2) == Some(&[b'\\', byte][..])).then_some((taken, byte));
    }
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

    #[test]
    fn a_record_that_copies_a_taped_objects_text_is_recognized_with_any_string() {
        let value = json!({"kind": "ConfigMap", "data": {"quote": "a \"b\" \\ c/d", "lines": "1\n2\t", "ratio": 0.25, "é": "\u{1}"}});
        let tape = Tape::parse("desired", serde_json::to_string_pretty(&value).unwrap().into()).unwrap();
        let record = format!("{}\n", serde_json::to_string(&value).unwrap());
        assert!(written_as(&as_written(&record), ValueRef::from(tape.root())));
        assert!(!written_as(&as_written(&record), ValueRef::from(&value)), "a built value keeps no text to copy");
        let others = [
            record.replace("0.25", "0.250"),
            record.replace(r#"\"b\""#, r#"\"c\""#),
            record.replace(r#":"#, r#": "#),
            record.replace(r#"{"kind""#, r#"{ "kind""#),
            record.replace("}}", "}},"),
            record.replace("}}", "}"),
            record.replace(r#","ratio":0.25"#, ""),
            record.replace('/', "\\u002f"),
        ];
        for other in others {
            assert_ne!(other, record, "each is another text");
            assert!(!written_as(&as_written(&other), ValueRef::from(tape.root())), "{other}");
        }
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

        /// A taped object's own record is recognized whatever its strings and
        /// numbers, and what is recognized beside it reads as it: its own
        /// record, sorted, another value's, one cut short, or one with a byte
        /// replaced.
        #[test]
        fn records_beside_a_taped_object_are_recognized_only_when_they_read_as_it(
            value in any_json(false), other in any_json(false), pretty in any::<bool>(),
            cut in any::<prop::sample::Index>(), replaced in any::<prop::sample::Index>(), by in "[ a-c0-9\"\\,:{}\\[\\]]",
        ) {
            let value = json!({"v": value});
            let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) };
            let tape = Tape::parse("desired", text.unwrap().into()).unwrap();
            let taped = ValueRef::from(tape.root());
            let own = serde_json::to_string(&value).unwrap();
            prop_assert!(written_as(&as_written(&own), taped), "{}", own);
            let cut_short = own[..own.floor_char_boundary(cut.index(own.len() + 1))].to_string();
            let at = own.floor_char_boundary(replaced.index(own.len()));
            let with_a_byte_replaced = format!("{}{by}{}", &own[..at], &own[at..].chars().skip(1).collect::<String>());
            for record in [serde_json::to_string(&sorted(&value)).unwrap(), serde_json::to_string(&json!({"v": other})).unwrap(), cut_short, with_a_byte_replaced] {
                if written_as(&as_written(&record), taped) {
                    prop_assert!(reads_as(&record, taped), "{}", record);
                }
            }
        }
    }
}
