//! The core's YAML reader (`text/yaml.rs`) against saphyr's own loader, on
//! the same events of saphyr-parser.

use gitops_core::text::json::MAX_DEPTH;
use gitops_core::text::yaml;
use gitops_core::InputError;
use saphyr::{Scalar, ScalarStyle, Tag, Yaml, YamlLoader};
use saphyr_parser::{Event, Parser};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// Nodes an alias may expand to in saphyr's loader: the core's own cap
/// (`yaml::MAX_NODES`), so that neither refuses a document the other takes
/// for its size alone but near the cap, where they count alike but for keys.
const ALIAS_NODES: usize = 1_000_000;

/// A text the core's YAML reader reads reads as saphyr's loader reads it,
/// document for document, once saphyr's nodes are JSON values by the rules
/// the core follows (`to_json`); a text saphyr refuses the core refuses too;
/// and a text the core refuses that saphyr reads holds what the core refuses
/// on purpose (`refused_on_purpose`).
pub fn yaml_reads_as_saphyr(text: &str) -> Result<(), String> {
    let ours = yaml::parse_documents("yaml", text);
    let theirs = by_saphyr(text);
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => match to_json_documents(&theirs) {
            Ok(expected) if same_documents(&ours, &expected) => Ok(()),
            Ok(expected) => Err(format!(
                "the core reads {} where saphyr reads {}",
                Value::Array(ours),
                Value::Array(expected)
            )),
            Err(refusal) => Err(format!("the core reads {} where, by its rules, saphyr's nodes are refused: {refusal}", Value::Array(ours))),
        },
        (Ok(ours), Err(error)) => Err(format!("the core reads {} where saphyr refuses it: {error}", Value::Array(ours))),
        (Err(_), Err(_)) => Ok(()),
        (Err(error), Ok(theirs)) => match to_json_documents(&theirs) {
            Err(_) => Ok(()),
            Ok(_) if refused_on_purpose(&error) => Ok(()),
            Ok(expected) => Err(format!(
                "the core refuses what saphyr reads as {}: {}",
                Value::Array(expected),
                error.message
            )),
        },
    }
}

/// The refusals of the core's YAML reader that saphyr's loader does not
/// make, each a rule of the core: nesting capped at `MAX_DEPTH` and alias
/// expansion at a million nodes (hostile input), a number beyond a 64-bit
/// float (JSON has no infinity; quoted, it is kept as text), and a merge key
/// (`<<`) that merges no mapping or is written twice, which saphyr does not
/// read as a merge at all.
fn refused_on_purpose(error: &InputError) -> bool {
    const ON_PURPOSE: [&str; 5] = [
        "nested too deeply",
        "aliases expand to a document too large",
        "out of range of a 64-bit float",
        "a merge key (`<<`) takes a mapping",
        "the merge key `<<` appears twice",
    ];
    ON_PURPOSE.iter().any(|reason| error.message.contains(reason))
}

fn by_saphyr(text: &str) -> Result<Vec<Yaml<'_>>, String> {
    let scan = scan(text);
    if scan.recursive_alias {
        return Err("an alias inside the node its anchor names".into());
    }
    if scan.depth > MAX_DEPTH {
        return Err(format!("nested {} deep once aliases stand for their nodes", scan.depth));
    }
    let mut loader: YamlLoader<Yaml> = YamlLoader::default();
    loader.early_parse(false);
    loader.alias_limit(ALIAS_NODES);
    Parser::new_from_str(text).load(&mut loader, true).map_err(|error| error.to_string())?;
    if let Some(error) = loader.error() {
        return Err(error.to_string());
    }
    Ok(loader.into_documents())
}

/// What the events say before saphyr's loader builds anything.
#[derive(Default)]
struct Scan {
    /// An alias names an anchor whose mapping or list is still open
    /// (`&a {b: *a}`): saphyr's loader resolves it to a bad value, which it
    /// then takes for a mapping's missing key and loses; the core refuses it,
    /// as the alias names no node read before it.
    recursive_alias: bool,
    /// The deepest nesting of mappings and lists once aliases stand for
    /// their nodes: beyond `MAX_DEPTH` the core refuses the document, and
    /// the nodes saphyr would build are not walked (nor dropped) here, whose
    /// walks recurse.
    depth: usize,
}

fn scan(text: &str) -> Scan {
    // Each open mapping or list: its anchor and the depth of its deepest child.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut anchored: HashMap<usize, usize> = HashMap::new();
    let mut found = Scan::default();
    for event in Parser::new_from_str(text) {
        let (anchor, depth) = match event {
            Ok((Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _), _)) => {
                open.push((anchor, 0));
                continue;
            }
            Ok((Event::MappingEnd | Event::SequenceEnd, _)) => match open.pop() {
                Some((anchor, deepest_child)) => (anchor, deepest_child + 1),
                None => continue,
            },
            Ok((Event::Scalar(_, _, anchor, _), _)) => (anchor, 0),
            Ok((Event::Alias(anchor), _)) => {
                found.recursive_alias |= open.iter().any(|(open, _)| *open == anchor);
                (0, anchored.get(&anchor).copied().unwrap_or(0))
            }
            Ok(_) => continue,
            Err(_) => break,
        };
        if anchor > 0 {
            anchored.insert(anchor, depth);
        }
        match open.last_mut() {
            Some((_, deepest_child)) => *deepest_child = (*deepest_child).max(depth),
            None => found.depth = found.depth.max(depth),
        }
        if open.len() + depth > MAX_DEPTH {
            found.depth = found.depth.max(open.len() + depth);
            break;
        }
    }
    found
}

/// Why saphyr's nodes are no JSON by the core's rules.
#[derive(Debug)]
enum Unread {
    /// `*name` with no `&name` before it: saphyr leaves a bad value.
    UnknownAlias,
    /// A key that is a mapping, a list or an alias of one: JSON's keys are text.
    KeyNotText,
    /// Two keys of one mapping with the same text: saphyr tells them apart
    /// by their style and tag too (`'a'` and `!!str a` from `a`), JSON and
    /// `kubectl` by their text alone.
    KeyTwice(String),
    /// A plain number beyond a 64-bit float.
    NumberOutOfRange(String),
}

impl fmt::Display for Unread {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Unread::UnknownAlias => write!(formatter, "an alias names no anchor"),
            Unread::KeyNotText => write!(formatter, "a key is no text"),
            Unread::KeyTwice(key) => write!(formatter, "the key `{key}` is written twice"),
            Unread::NumberOutOfRange(text) => write!(formatter, "{text} is beyond a 64-bit float"),
        }
    }
}

/// The documents as JSON values; a document that is empty or null is no
/// document, as a manifest stream's empty documents are skipped by `kubectl`.
fn to_json_documents(documents: &[Yaml]) -> Result<Vec<Value>, Unread> {
    let mut read = Vec::new();
    for document in documents {
        match document {
            Yaml::BadValue => {}
            document => match to_json(document)? {
                Value::Null => {}
                value => read.push(value),
            },
        }
    }
    Ok(read)
}

fn to_json(node: &Yaml) -> Result<Value, Unread> {
    Ok(match node {
        Yaml::Representation(text, style, tag) => scalar(text, *style, tag.as_deref())?,
        Yaml::Value(value) => scalar_value(value, "")?,
        Yaml::Sequence(items) => Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?),
        Yaml::Mapping(fields) => {
            let mut own = Map::new();
            let mut merged = None;
            for (key, value) in fields {
                match key {
                    Yaml::Representation(key, ScalarStyle::Plain, None) if key == "<<" => {
                        merged = Some(merge(value)?);
                    }
                    Yaml::Representation(key, ..) if own.contains_key(key.as_ref()) => {
                        return Err(Unread::KeyTwice(key.to_string()));
                    }
                    Yaml::Representation(key, ..) => {
                        own.insert(key.to_string(), to_json(value)?);
                    }
                    _ => return Err(Unread::KeyNotText),
                }
            }
            for (key, value) in merged.unwrap_or_default() {
                own.entry(key).or_insert(value);
            }
            Value::Object(own)
        }
        Yaml::Tagged(_, node) => to_json(node)?,
        Yaml::Alias(_) | Yaml::BadValue => return Err(Unread::UnknownAlias),
    })
}

/// What a merge key brings in: the fields of the mapping it names, or of
/// each mapping of a list, the first named winning (YAML 1.1's merge key,
/// which `kubectl` reads).
fn merge(value: &Yaml) -> Result<Map<String, Value>, Unread> {
    let mappings = match to_json(value)? {
        Value::Array(items) => items,
        mapping => vec![mapping],
    };
    let mut merged = Map::new();
    for mapping in mappings {
        if let Value::Object(fields) = mapping {
            for (key, value) in fields {
                merged.entry(key).or_insert(value);
            }
        }
    }
    Ok(merged)
}

/// A scalar by the core's rules: quoted, or tagged `!!str`, it is text;
/// plain, it is what saphyr's core schema makes of it (`plain_scalar`).
/// Any other tag does not change what a scalar reads as.
fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Value, Unread> {
    let tagged_text = tag.is_some_and(|tag| tag.is_yaml_core_schema() && tag.suffix == "str");
    match style {
        ScalarStyle::Plain if !tagged_text => plain_scalar(text),
        _ => Ok(Value::String(text.to_string())),
    }
}

/// A plain scalar: saphyr's YAML 1.2 core schema (`Scalar::parse_from_cow`),
/// but for Kubernetes' YAML 1.1 booleans (`yes`, `no`, `on`, `off` in their
/// three cases, as `kubectl` reads them), infinities and NaN kept as text
/// (JSON has none), and a whole number beyond `i64` read as JSON reads it
/// (`whole_beyond_i64`).
fn plain_scalar(text: &str) -> Result<Value, Unread> {
    match text {
        "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Ok(Value::Bool(true)),
        "no" | "No" | "NO" | "off" | "Off" | "OFF" => Ok(Value::Bool(false)),
        "" => Ok(Value::Null),
        _ => scalar_value(&Scalar::parse_from_cow(Cow::Borrowed(text)), text),
    }
}

fn scalar_value(value: &Scalar, text: &str) -> Result<Value, Unread> {
    Ok(match value {
        Scalar::Null => Value::Null,
        Scalar::Boolean(value) => Value::Bool(*value),
        Scalar::Integer(value) => (*value).into(),
        Scalar::FloatingPoint(value) => match Number::from_f64(value.into_inner()) {
            Some(number) => Value::Number(number),
            None if text.bytes().any(|byte| byte.is_ascii_digit()) => return Err(Unread::NumberOutOfRange(text.into())),
            None => Value::String(text.into()),
        },
        Scalar::String(text) => whole_beyond_i64(text).map_or_else(|| Value::String(text.to_string()), Value::from),
    })
}

/// A whole number saphyr leaves as text because it is beyond `i64` (decimal,
/// `0x` or `0o`, with no sign of Rust's own after a prefix), which JSON
/// holds as an unsigned 64-bit integer.
fn whole_beyond_i64(text: &str) -> Option<u64> {
    let unsigned = |digits: &str| digits.starts_with(|first: char| first.is_ascii_alphanumeric());
    let radix = |prefix: &str, radix: u32| {
        let digits = text.strip_prefix(prefix).filter(|digits| unsigned(digits))?;
        u64::from_str_radix(digits, radix).ok()
    };
    radix("0x", 16)
        .or_else(|| radix("0o", 8))
        .or_else(|| text.strip_prefix('+').unwrap_or(text).parse().ok().filter(|_| unsigned(text.strip_prefix('+').unwrap_or(text))))
}

/// Equal documents, numbers compared by their value (a whole number may be
/// read as an integer by one reader and a float by the other) and floats
/// within a few units of their last place: the core reads a float as
/// `serde_json` reads JSON's, which takes a rare long one an ulp off to stay
/// small (its `float_roundtrip` feature is not on), where saphyr reads it
/// with Rust's `f64::from_str`, correctly rounded.
fn same_documents(ours: &[Value], theirs: &[Value]) -> bool {
    ours.len() == theirs.len() && ours.iter().zip(theirs).all(|(ours, theirs)| same(ours, theirs))
}

fn same(ours: &Value, theirs: &Value) -> bool {
    match (ours, theirs) {
        (Value::Number(ours), Value::Number(theirs)) => ours == theirs || near(ours.as_f64(), theirs.as_f64()),
        (Value::Array(ours), Value::Array(theirs)) => same_documents(ours, theirs),
        (Value::Object(ours), Value::Object(theirs)) => {
            ours.len() == theirs.len()
                && ours.iter().all(|(key, value)| theirs.get(key).is_some_and(|theirs| same(value, theirs)))
        }
        (ours, theirs) => ours == theirs,
    }
}

fn near(ours: Option<f64>, theirs: Option<f64>) -> bool {
    const ULPS: f64 = 4.0 * f64::EPSILON;
    match (ours, theirs) {
        (Some(ours), Some(theirs)) => ours == theirs || (ours - theirs).abs() <= ULPS * ours.abs().max(theirs.abs()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_yaml_reader_agrees_with_saphyr_by_the_cores_rules() {
        for text in [
            "a: 1\nb: [yes, 'no', ~, 0x1f, 1e3, .inf, !!str 12]\n---\n---\nc: &x {d: 1}\ne: *x\n",
            "base: &b {a: 1, b: 2}\nitem:\n  <<: *b\n  b: 3\n",
            "- 18446744073709551615\n- +5\n- 1_000\n",
            "a: 1\na: 2\n",
            "[a, b",
            "? [a]\n: b\n",
            "x: *missing\n",
            "big: 1e999\n",
        ] {
            assert_eq!(yaml_reads_as_saphyr(text), Ok(()), "{text}");
        }
    }

    /// The oracle reads for itself: what it expects is saphyr's reading, not
    /// the core's.
    #[test]
    fn saphyrs_nodes_read_by_the_cores_rules() {
        let read = |text| to_json_documents(&by_saphyr(text).unwrap());
        let expected = serde_json::json!([
            {"a": 1, "b": [true, "no", null, 31, 1000.0, ".inf", "12"]},
            {"c": {"d": 1}, "e": {"d": 1}}
        ]);
        let documents = read("a: 1\nb: [yes, 'no', ~, 0x1f, 1e3, .inf, !!str 12]\n---\n---\nc: &x {d: 1}\ne: *x\n").unwrap();
        assert!(same_documents(&documents, expected.as_array().unwrap()), "{documents:?}");
        assert!(!same_documents(&documents[..1], &documents[1..]));
        let [one, next] = [4.444444444444445e21, 4.4444444444444443e21].map(|float| serde_json::json!(float));
        assert!(same(&one, &next) && !same(&one, &serde_json::json!(4.44444444444445e21)));
        let merged = read("base: &b {a: 1, b: 2}\nitem:\n  <<: *b\n  b: 3\n").unwrap();
        assert_eq!(merged[0]["item"], serde_json::json!({"b": 3, "a": 1}));
        assert!(matches!(read("? [a]\n: b\n"), Err(Unread::KeyNotText)));
        assert!(matches!(read("big: 1e999\n"), Err(Unread::NumberOutOfRange(_))));
        assert!(by_saphyr("a: 1\na: 2\n").is_err(), "saphyr refuses a key written twice");
        assert!(matches!(read("a: 1\n'a': 2\n"), Err(Unread::KeyTwice(key)) if key == "a"));
        assert!(by_saphyr("x: *missing\n").is_err(), "saphyr-parser refuses an alias of no anchor");
        assert!(by_saphyr("a: &x {b: 1, *x}\n").is_err(), "an alias inside its own anchor's node");
        assert!(by_saphyr("a: &x {b: 1}\nc: *x\n").is_ok());
        let deep = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
        assert!(by_saphyr(&deep(MAX_DEPTH)).is_ok());
        let chained = format!("- &a {}\n- [*a]\n", deep(MAX_DEPTH - 1));
        assert!(by_saphyr(&chained).is_err(), "an alias's node counts where it stands");
    }
}
