//! A value fed to a hasher part by part, in its order: its kind, lengths before
//! what they measure (as eight little-endian bytes, the same on every target), a
//! text by its own bytes and a number as JSON writes it. The world's commit ids
//! hash a commit's files so (`repository::commit_id`), and a workspace finds a
//! file it read before by it (`state/file_reads.rs`).

use serde_json::Value;
use std::hash::Hasher;

pub fn feed_len(hash: &mut impl Hasher, length: usize) {
    hash.write(&(length as u64).to_le_bytes());
}

pub fn feed_str(hash: &mut impl Hasher, text: &str) {
    feed_len(hash, text.len());
    hash.write(text.as_bytes());
}

pub fn feed_value(hash: &mut impl Hasher, value: &Value) {
    match value {
        Value::Null => hash.write(b"n"),
        Value::Bool(false) => hash.write(b"f"),
        Value::Bool(true) => hash.write(b"t"),
        Value::Number(number) => {
            hash.write(b"#");
            feed_str(hash, &number.to_string());
        }
        Value::String(text) => {
            hash.write(b"s");
            feed_str(hash, text);
        }
        Value::Array(items) => {
            hash.write(b"[");
            feed_len(hash, items.len());
            for item in items {
                feed_value(hash, item);
            }
        }
        Value::Object(fields) => {
            hash.write(b"{");
            feed_len(hash, fields.len());
            for (name, field) in fields {
                feed_str(hash, name);
                feed_value(hash, field);
            }
        }
    }
}
