//! A value's compact JSON, written a slice at a time. Its long strings (the
//! panes' texts, megabytes each) are escaped a slice at a time, so that
//! writing a large session never holds the page for one long task; the bytes
//! are those `serde_json::to_vec` writes.

use serde::Serialize;
use serde_json::Value;
use std::collections::VecDeque;

/// Strings longer than this are escaped in slices; shorter ones at once.
const LONG: usize = 64 * 1024;

pub struct SlicedJson {
    /// What is left to write, in order.
    parts: VecDeque<Part>,
    /// Where a slice is escaped, quotes and all, before it joins the output.
    scratch: Vec<u8>,
}

enum Part {
    /// JSON written already: everything between two long strings.
    Written(Vec<u8>),
    /// A long string's contents, escaped from `from` on (its quotes are in
    /// the parts around it).
    Long { text: String, from: usize },
}

impl SlicedJson {
    /// Starts on `value`: all but its long strings is written now.
    pub fn new(value: &impl Serialize) -> Self {
        let value = serde_json::to_value(value).unwrap_or(Value::Null);
        let mut parts = VecDeque::new();
        let mut written = Vec::new();
        split(value, &mut written, &mut parts);
        parts.push_back(Part::Written(written));
        SlicedJson {
            parts,
            scratch: Vec::new(),
        }
    }

    /// Writes about `bytes` more of the JSON onto `out`; whether it is all written.
    pub fn write(&mut self, bytes: usize, out: &mut Vec<u8>) -> bool {
        let mut budget = bytes.max(1);
        while budget > 0 {
            let Some(part) = self.parts.front_mut() else {
                break;
            };
            match part {
                Part::Written(json) => {
                    budget = budget.saturating_sub(json.len());
                    out.append(json);
                    self.parts.pop_front();
                }
                Part::Long { text, from } => {
                    let end = text.ceil_char_boundary(from.saturating_add(budget).min(text.len()));
                    self.scratch.clear();
                    write_at_once(&mut self.scratch, &text[*from..end]);
                    out.extend_from_slice(&self.scratch[1..self.scratch.len() - 1]);
                    budget = budget.saturating_sub(end - *from);
                    *from = end;
                    if end == text.len() {
                        self.parts.pop_front();
                    }
                }
            }
        }
        self.parts.is_empty()
    }
}

/// Writes `value` onto `written`, but for its long strings, which become
/// parts of their own.
fn split(value: Value, written: &mut Vec<u8>, parts: &mut VecDeque<Part>) {
    match value {
        Value::String(text) if text.len() > LONG => {
            written.push(b'"');
            parts.push_back(Part::Written(std::mem::take(written)));
            parts.push_back(Part::Long { text, from: 0 });
            written.push(b'"');
        }
        Value::Array(items) => {
            written.push(b'[');
            for (index, item) in items.into_iter().enumerate() {
                if index > 0 {
                    written.push(b',');
                }
                split(item, written, parts);
            }
            written.push(b']');
        }
        Value::Object(fields) => {
            written.push(b'{');
            for (index, (name, field)) in fields.into_iter().enumerate() {
                if index > 0 {
                    written.push(b',');
                }
                write_at_once(written, &name);
                written.push(b':');
                split(field, written, parts);
            }
            written.push(b'}');
        }
        other => write_at_once(written, &other),
    }
}

fn write_at_once(written: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    // Writing into memory fails only for a map with keys that are not
    // strings, which a `Value` cannot have.
    let _ = serde_json::to_writer(written, value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn in_slices(value: &Value, slice: usize) -> (Vec<u8>, usize) {
        let mut json = SlicedJson::new(value);
        let mut out = Vec::new();
        let mut slices = 1;
        while !json.write(slice, &mut out) {
            slices += 1;
        }
        (out, slices)
    }

    #[test]
    fn writes_what_serde_json_writes_whatever_the_slice() {
        let long = "é\"x\\\n\u{1}€𝄞".repeat(20_000);
        let value = json!({
            "p": "preset.json",
            "i": [{"d": long}, "n", {"r": "abc"}, {"q": [1, 2]}, {"a": long}],
            "n": null, "t": true, "f": 1.5, "e": {}, "l": []
        });
        let expected = serde_json::to_vec(&value).unwrap();
        for slice in [0, 1, 3, 1_000, 65_536, 1 << 30] {
            let (out, slices) = in_slices(&value, slice);
            assert_eq!(out, expected, "in slices of {slice} bytes");
            assert!(
                slice > 2 * long.len() || slices > 2,
                "{slice}: {slices} slices"
            );
        }
    }

    #[test]
    fn a_value_without_long_strings_is_written_in_one_slice() {
        let value = json!({"i": ["short", {"d": "x".repeat(LONG)}]});
        assert_eq!(
            in_slices(&value, 1),
            (serde_json::to_vec(&value).unwrap(), 1)
        );
    }
}
