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
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

const MAX_NODES: usize = 1_000_000;

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
    let mut anchors: HashMap<usize, Anchored> = HashMap::new();
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
                let value = if style != ScalarStyle::Plain || is_string_tag || wants_key {
                    Value::String(text.into_owned())
                } else {
                    match plain_scalar(&text) {
                        Ok(value) => value,
                        Err(message) => return fail(message),
                    }
                };
                (value, anchor, 1)
            }
            Event::Alias(id) => {
                let Some((value, size, depth)) = anchors.get(&id) else {
                    return fail("an alias (*name) refers to no anchor (&name) before it".into());
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
            anchors.insert(anchor, (value.clone(), size, depth(&value)));
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

/// The line each item of the first document's top-level list starts on,
/// for messages about an item; fewer (or none) where the text stops reading
/// as YAML. JSON reads as YAML here, so this serves JSON text too.
pub fn item_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut depth = 0usize;
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else {
            break;
        };
        let starts_item = depth == 1;
        match event {
            Event::SequenceStart(..) if depth == 0 => depth = 1,
            Event::MappingStart(..) if depth == 0 => break,
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if starts_item {
                    lines.push(span.start.line());
                }
                depth += 1;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Event::Scalar(..) | Event::Alias(_) if starts_item => lines.push(span.start.line()),
            _ => {}
        }
    }
    lines
}

/// Values are at most `MAX_DEPTH` deep, so this recursion is bounded.
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(fields) => 1 + fields.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// An unquoted scalar: null, a boolean, a number, or text; a number too
/// large for a 64-bit float is an error, as in JSON.
fn plain_scalar(text: &str) -> Result<Value, String> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
            return Ok(Value::Bool(true))
        }
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            return Ok(Value::Bool(false))
        }
        _ => {}
    }
    // Rust's integer parsers take a sign of their own, which YAML does not
    // allow after a prefix or a sign (`0x+1`, `++1`).
    let unsigned = |digits: &str| digits.starts_with(|first: char| first.is_ascii_alphanumeric());
    let radix = |prefix: &str, radix: u32| {
        text.strip_prefix(prefix)
            .filter(|digits| unsigned(digits))
            .and_then(|digits| u64::from_str_radix(digits, radix).ok())
    };
    if let Some(number) = radix("0x", 16).or_else(|| radix("0o", 8)) {
        return Ok(number.into());
    }
    if let Ok(number) = text.parse::<i64>() {
        return Ok(number.into());
    }
    let after_sign = text.strip_prefix('+').unwrap_or(text);
    if let Some(number) = Some(after_sign).filter(|digits| unsigned(digits)).and_then(|digits| digits.parse::<u64>().ok()) {
        return Ok(number.into());
    }
    let looks_numeric = text.bytes().any(|b| b.is_ascii_digit())
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
    if !looks_numeric {
        return Ok(Value::String(text.to_owned()));
    }
    // Read as the JSON panes read numbers, so that a value means the same in either.
    match serde_json::from_str::<f64>(&as_json_number(text)) {
        Ok(number) => Ok(Number::from_f64(number).map_or(Value::Null, Value::Number)),
        Err(error) if error.to_string().starts_with("number out of range") => Err(format!(
            "the number {text} is out of range of a 64-bit float; quote it to keep it as text"
        )),
        Err(_) => Ok(Value::String(text.to_owned())),
    }
}

/// A YAML float (`+1.5`, `.5`, `1.`, `007.5`, `1e3`) written as JSON writes it
/// (`1.5`, `0.5`, `1.0`, `7.5`, `1.0e3`); what is no float stays no JSON number.
fn as_json_number(text: &str) -> String {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.strip_prefix('+').unwrap_or(text)),
    };
    let (mantissa, exponent) = rest.split_at(rest.find(['e', 'E']).unwrap_or(rest.len()));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if !digits(whole) || !digits(fraction) {
        return text.to_owned();
    }
    let whole = match whole.trim_start_matches('0') {
        "" if whole.is_empty() && fraction.is_empty() => "",
        "" => "0",
        whole => whole,
    };
    let fraction = if fraction.is_empty() { "0" } else { fraction };
    format!("{sign}{whole}.{fraction}{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Result<Vec<Value>, InputError> {
        parse_documents("desired.yaml", text)
    }

    /// Found by the `readers` fuzz target: leading zeros were taken off
    /// before the sign was looked for, so `0-0` read as -0.0 and `007-5` as
    /// -5; and Rust's parsers took a second sign, so `++1` read as 1.
    #[test]
    fn a_sign_inside_a_number_keeps_it_text() {
        for text in ["0-0", "007-5", "1-2", "0+1", "1.2-3", "0.0-1", "++1", "+-1", "0x+1", "0o+7", "+0x1"] {
            assert_eq!(read(&format!("v: {text}\n")).unwrap(), [json!({"v": text})], "{text}");
        }
    }

    #[test]
    fn yaml_floats_read_as_the_json_panes_read_them() {
        for (text, expected) in [
            ("+1.5", 1.5),
            (".5", 0.5),
            ("-.5", -0.5),
            ("1.", 1.0),
            ("007.5", 7.5),
            ("1e3", 1000.0),
            ("2.5E-1", 0.25),
            ("0.1", 0.1),
        ] {
            assert_eq!(plain_scalar(text), Ok(json!(expected)), "{text}");
        }
        for text in ["1.2.3", "1e", "-e5", "1e5e", "1-2"] {
            assert_eq!(plain_scalar(text), Ok(json!(text)), "{text} is text");
        }
        assert!(plain_scalar("1e400").unwrap_err().contains("out of range"));
    }

    #[test]
    fn reads_a_multi_document_stream_and_skips_empty_documents() {
        let text = "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\n# only a comment\n---\nkind: ConfigMap\ndata:\n  a: '1'\n---\n";
        assert_eq!(
            read(text).unwrap(),
            [
                json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}}),
                json!({"kind": "ConfigMap", "data": {"a": "1"}})
            ]
        );
    }

    #[test]
    fn scalars_read_as_kubernetes_reads_them() {
        let text = "a: 3\nb: 1.5\nc: yes\nd: 'yes'\ne: ~\nf: 0x1F\ng: \"007\"\nh: 1.20\ni: web:1.4\nj: 18446744073709551615\nk: -2\n";
        assert_eq!(
            read(text).unwrap()[0],
            json!({"a": 3, "b": 1.5, "c": true, "d": "yes", "e": null, "f": 31, "g": "007", "h": 1.2, "i": "web:1.4", "j": 18446744073709551615u64, "k": -2})
        );
    }

    #[test]
    fn item_lines_are_where_each_item_of_the_top_list_starts() {
        assert_eq!(
            item_lines("- /status\n- kind: Deployment\n  name: web\n-\n  [/a]\n"),
            [1, 2, 5]
        );
        assert_eq!(item_lines("[\"/a\",\n {\"kind\": \"X\"}]"), [1, 2]);
        assert_eq!(
            item_lines("a: [1, 2]\n"),
            Vec::<usize>::new(),
            "a mapping has no items"
        );
        assert_eq!(
            item_lines("- /a\n- [\n"),
            [1, 2],
            "items before a syntax error still count"
        );
    }

    #[test]
    fn anchors_and_aliases_expand() {
        assert_eq!(
            read("base: &b {x: 1}\ncopy: *b\n").unwrap()[0],
            json!({"base": {"x": 1}, "copy": {"x": 1}})
        );
    }

    #[test]
    fn merge_keys_bring_in_what_the_mapping_does_not_set() {
        let text = "base: &base {LOG_LEVEL: info, REGION: eu}\n\
                    extra: &extra {REGION: us, ZONE: a}\n\
                    web: {<<: *base, LOG_LEVEL: debug}\n\
                    api: {LOG_LEVEL: warn, <<: [*base, *extra]}\n\
                    quoted: {\"<<\": 1}\n";
        let value = &read(text).unwrap()[0];
        assert_eq!(value["web"], json!({"LOG_LEVEL": "debug", "REGION": "eu"}));
        assert_eq!(
            value["api"],
            json!({"LOG_LEVEL": "warn", "REGION": "eu", "ZONE": "a"})
        );
        assert_eq!(value["quoted"], json!({"<<": 1}), "a quoted << is a field");
        let error = read("a: {<<: 1}\n").unwrap_err();
        assert!(
            error
                .message
                .contains("takes a mapping or a list of mappings"),
            "{error}"
        );
        let error = read("b: &b {x: 1}\na: {<<: *b, <<: *b}\n").unwrap_err();
        assert!(error.message.contains("appears twice"), "{error}");
    }

    #[test]
    fn deep_flow_lists_say_how_deep_is_too_deep() {
        let text = format!("web: {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let error = read(&text).unwrap_err();
        assert!(
            error
                .message
                .contains("nested too deeply (more than 128 levels)"),
            "{error}"
        );
    }

    #[test]
    fn a_key_written_twice_is_an_error_at_its_line() {
        let error = read("metadata:\n  name: web\n  labels: {}\n  name: api\n").unwrap_err();
        assert_eq!((error.line, error.column), (Some(4), Some(3)));
        assert!(error.message.contains("`name` appears twice"), "{error}");
    }

    #[test]
    fn syntax_errors_have_a_line_and_column() {
        let error = read("a: [1, 2\nb: 3\n").unwrap_err();
        assert_eq!((error.line, error.column), (Some(2), Some(2)), "{error}");
    }

    #[test]
    fn hostile_input_is_an_error_not_a_crash() {
        assert!(read(&"[".repeat(100_000)).is_err());
        assert!(read(&"- ".repeat(100_000)).is_err());
        let laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
        assert!(read(laughs).unwrap_err().message.contains("too large"));
    }
}
