//! Reading YAML, as people keep manifests in Git: one or more documents
//! separated by `---`, each read into a JSON value. Built on the events of
//! `saphyr-parser` (pure Rust, no recursion), so hostile input cannot
//! overflow the stack: nesting is capped at 128 levels and alias expansion
//! at a million nodes. A key written twice in one mapping is an error, and
//! every error has a line and column.
//!
//! A merge key (`<<: *defaults`, or a list of aliases) brings in the fields
//! of the mappings it names that the mapping does not set itself, as
//! `kubectl` reads it (the first mapping named wins over later ones).
//!
//! Plain scalars follow the YAML 1.2 core schema for numbers and null, and
//! Kubernetes' YAML 1.1 for booleans: `yes`, `no`, `on` and `off` are
//! booleans, as `kubectl` reads them. Quote them to keep a string.

use crate::error::InputError;
use crate::text::json::MAX_DEPTH;
use saphyr_parser::{Event, Parser, ScalarStyle};
use scalar::plain_scalar;
use serde_json::{Map, Value};
use std::collections::HashMap;

pub use item_lines::item_lines;

pub(crate) const MAX_NODES: usize = 1_000_000;

enum Open {
    Sequence(Vec<Value>),
    /// A mapping, the key waiting for its value, and what merge keys bring in.
    Mapping(Map<String, Value>, Option<Key>, Option<Map<String, Value>>),
}

/// A mapping's key waiting for its value.
enum Key {
    Field(String),
    /// `<<`, a plain (unquoted) merge key.
    Merge,
}

/// A plain scalar `<<` where a key is wanted.
const MERGE_KEY: &str = "<<";

struct Frame {
    open: Open,
    anchor: usize,
    first_node: usize,
}

/// A value made from an alias or anchor: the value, its node count, its depth.
type Anchored = (Value, usize, usize);

/// Every non-empty document of a YAML stream, in order.
pub fn parse_documents(source: &str, text: &str) -> Result<Vec<Value>, InputError> {
    let mut documents = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Result<Anchored, String>> = HashMap::new();
    let mut nodes = 0usize;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|error| {
            let message = match error.info() {
                // The scanner's own cap on flow nesting ([[[...), met before ours.
                "recursion limit exceeded" => {
                    format!("the document is nested too deeply (more than {MAX_DEPTH} levels)")
                }
                other => other.to_string(),
            };
            InputError::syntax(
                source,
                error.marker().line(),
                error.marker().col() + 1,
                message,
            )
        })?;
        let fail = |message: String| {
            Err(InputError::syntax(
                source,
                span.start.line(),
                span.start.col() + 1,
                message,
            ))
        };
        let wants_key = matches!(
            stack.last(),
            Some(Frame {
                open: Open::Mapping(_, None, _),
                ..
            })
        );
        let (value, anchor, size) = match event {
            Event::DocumentStart(_) => {
                anchors.clear();
                continue;
            }
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                if wants_key {
                    return fail("a mapping key must be text, not a mapping or a list".into());
                }
                if stack.len() >= MAX_DEPTH {
                    return fail(format!(
                        "the document is nested too deeply (more than {MAX_DEPTH} levels)"
                    ));
                }
                let open = match event {
                    Event::MappingStart(..) => Open::Mapping(Map::new(), None, None),
                    _ => Open::Sequence(Vec::new()),
                };
                stack.push(Frame {
                    open,
                    anchor,
                    first_node: nodes,
                });
                nodes += 1;
                continue;
            }
            Event::MappingEnd | Event::SequenceEnd => {
                let Some(frame) = stack.pop() else {
                    return fail("the document ends a mapping or list it never started".into());
                };
                let value = match frame.open {
                    Open::Sequence(items) => Value::Array(items),
                    Open::Mapping(mut fields, _, merged) => {
                        for (key, value) in merged.unwrap_or_default() {
                            fields.entry(key).or_insert(value);
                        }
                        Value::Object(fields)
                    }
                };
                (value, frame.anchor, nodes - frame.first_node)
            }
            Event::Scalar(text, ScalarStyle::Plain, _, None) if wants_key && text == MERGE_KEY => {
                nodes += 1;
                if let Some(Frame {
                    open: Open::Mapping(_, pending, merged),
                    ..
                }) = stack.last_mut()
                {
                    if merged.is_some() {
                        return fail(format!("the merge key `{MERGE_KEY}` appears twice in one mapping; list what it merges instead: `<<: [*a, *b]`"));
                    }
                    *pending = Some(Key::Merge);
                }
                continue;
            }
            Event::Scalar(text, style, anchor, tag) => {
                nodes += 1;
                let is_string_tag = tag
                    .as_ref()
                    .is_some_and(|tag| tag.is_yaml_core_schema() && tag.suffix == "str");
                let plain = style == ScalarStyle::Plain && !is_string_tag;
                if wants_key && plain && anchor > 0 {
                    // An alias of a key stands for the node, which a value reads as a
                    // value reads it: `&a 1: *a` is `{"1": 1}`.
                    anchors.insert(anchor, plain_scalar(&text).map(|value| (value, 1, 0)));
                }
                let value = if !plain || wants_key {
                    Value::String(text.into_owned())
                } else {
                    match plain_scalar(&text) {
                        Ok(value) => value,
                        Err(message) => return fail(message),
                    }
                };
                (value, if wants_key && plain { 0 } else { anchor }, 1)
            }
            Event::Alias(id) => {
                let (value, size, depth) = match anchors.get(&id) {
                    Some(Ok(anchored)) => anchored,
                    Some(Err(message)) => return fail(message.clone()),
                    None => return fail("an alias (*name) refers to no anchor (&name) before it".into()),
                };
                if nodes + size > MAX_NODES || stack.len() + depth > MAX_DEPTH {
                    return fail("aliases expand to a document too large to read".into());
                }
                nodes += size;
                (value.clone(), 0, *size)
            }
            _ => continue,
        };
        if anchor > 0 {
            anchors.insert(anchor, Ok((value.clone(), size, depth(&value))));
        }
        match stack.last_mut() {
            None if value.is_null() => {}
            None => documents.push(value),
            Some(Frame {
                open: Open::Sequence(items),
                ..
            }) => items.push(value),
            Some(Frame {
                open: Open::Mapping(fields, pending, merged),
                ..
            }) => match (pending.take(), value) {
                (Some(Key::Field(key)), value) => {
                    fields.insert(key, value);
                }
                (Some(Key::Merge), value) => match merged_fields(value) {
                    Ok(fields) => *merged = Some(fields),
                    Err(message) => return fail(message),
                },
                (None, Value::String(key)) if fields.contains_key(&key) => {
                    return fail(format!("the field `{key}` appears twice in one mapping"));
                }
                (None, Value::String(key)) => *pending = Some(Key::Field(key)),
                (None, _) => return fail("a mapping key must be text".into()),
            },
        }
    }
    Ok(documents)
}

/// The fields a merge key brings in: those of one mapping, or of each
/// mapping of a list, the first one's winning.
fn merged_fields(value: Value) -> Result<Map<String, Value>, String> {
    let mappings = match value {
        Value::Object(fields) => vec![fields],
        Value::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Value::Object(fields) => Ok(fields),
                _ => Err(()),
            })
            .collect::<Result<_, _>>()
            .map_err(|()| {
                format!("a merge key (`{MERGE_KEY}`) takes a mapping or a list of mappings")
            })?,
        _ => {
            return Err(format!(
                "a merge key (`{MERGE_KEY}`) takes a mapping or a list of mappings"
            ))
        }
    };
    let mut merged = Map::new();
    for fields in mappings {
        for (key, value) in fields {
            merged.entry(key).or_insert(value);
        }
    }
    Ok(merged)
}

/// Values are at most `MAX_DEPTH` deep, so this recursion is bounded.
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(fields) => 1 + fields.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

mod item_lines;
mod scalar;

#[cfg(test)]
mod tests;
