//! Reading ignore rules from values and texts, each wrong rule named by its
//! number (and line, in a text) with what is wrong.

use super::jq::{jq_of, jq_path};
use super::{Dialect, IgnoreRule};
use crate::pointer::Pattern;
use crate::state::describe;
use crate::text::document::parse_one;
use crate::text::yaml::item_lines;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::fmt;

/// The fields an Argo CD rule may have, as written.
const FIELDS: [&str; 6] = [
    "group",
    "kind",
    "name",
    "namespace",
    "jsonPointers",
    "jqPathExpressions",
];

/// The fields of a Flux rule's `target` the playground reads.
const TARGET_FIELDS: [&str; 4] = ["group", "kind", "name", "namespace"];

const WHAT_A_RULE_IS: &str =
    "a rule is a JSON pointer such as `/status`, an Argo CD `ignoreDifferences` entry (`group`, `kind`, `name`, `namespace`, and `jsonPointers` or `jqPathExpressions`), or a Flux `spec.ignore` entry (`paths`, and a `target`)";

/// A wrong rule in a list of them: which one (from 0), when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError {
    pub rule: Option<usize>,
    pub message: String,
}

/// Ignore rules from a JSON value: a list of rules.
pub fn rules_from_value(value: &Value) -> Result<Vec<IgnoreRule>, RulesError> {
    let Value::Array(items) = value else {
        return Err(RulesError {
            rule: None,
            message: not_a_list(describe(value)),
        });
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            IgnoreRule::from_value(item).map_err(|message| RulesError {
                rule: Some(index),
                message,
            })
        })
        .collect()
}

/// Ignore rules written as YAML or JSON text, as in the Options panel; a
/// wrong rule is named by its number and line.
pub fn rules_from_text(text: &str) -> Result<Vec<IgnoreRule>, String> {
    const SOURCE: &str = "ignore rules";
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let value = parse_one(SOURCE, text).map_err(|error| error.to_string())?;
    rules_from_value(&value).map_err(|error| match error.rule {
        None => error.message,
        Some(index) => {
            let line = item_lines(text)
                .get(index)
                .map(|line| format!(" (line {line})"))
                .unwrap_or_default();
            format!("{SOURCE}, rule {}{line}: {}", index + 1, error.message)
        }
    })
}

fn not_a_list(found: &str) -> String {
    format!(
        "ignore rules are a list of rules (JSON pointers, or objects with `jsonPointers`); found {found}"
    )
}

impl IgnoreRule {
    /// A rule that ignores `pointer` in every object: the playground's
    /// shorthand, where a `*` segment matches any one segment.
    pub fn everywhere(pointer: &str) -> Result<Self, String> {
        Ok(IgnoreRule {
            dialect: Dialect::Shorthand,
            group: None,
            kind: None,
            name: None,
            namespace: None,
            json_pointers: vec![pointer.to_string()],
            jq_path_expressions: Vec::new(),
            patterns: vec![Pattern::parse(pointer)?],
        })
    }

    /// One rule from a JSON value, as a scenario's `options.ignore` holds it.
    pub fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(pointer) => IgnoreRule::everywhere(pointer),
            Value::Object(fields) if fields.contains_key("paths") => IgnoreRule::from_flux(fields),
            Value::Object(fields) => IgnoreRule::from_fields(fields),
            other => Err(format!("{WHAT_A_RULE_IS}; found {}", describe(other))),
        }
    }

    /// A rule in the shape of Argo CD's `ignoreDifferences` entries, read as
    /// Argo CD reads them (argo-cd util/argo/normalizers/diff_normalizer.go,
    /// `NewIgnoreNormalizer`): each of `jsonPointers` is a JSON Patch
    /// `remove` of that literal path, each of `jqPathExpressions` is
    /// `del(<path>)`.
    fn from_fields(fields: &Map<String, Value>) -> Result<Self, String> {
        if let Some(unknown) = fields
            .keys()
            .find(|field| !FIELDS.contains(&field.as_str()))
        {
            return Err(unknown_field(unknown));
        }
        let group = text_field(fields, "group")?;
        let kind = text_field(fields, "kind")?;
        let name = text_field(fields, "name")?;
        let namespace = text_field(fields, "namespace")?;
        let json_pointers = texts(fields, "jsonPointers", "JSON pointer")?;
        let jq_path_expressions = texts(fields, "jqPathExpressions", "jq path")?;
        if json_pointers.is_none() && jq_path_expressions.is_none() {
            return Err("a rule needs `jsonPointers` (a list of JSON pointers) or `jqPathExpressions` (a list of jq paths)".into());
        }
        let (json_pointers, jq_path_expressions) = (
            json_pointers.unwrap_or_default(),
            jq_path_expressions.unwrap_or_default(),
        );
        let mut patterns = Vec::with_capacity(json_pointers.len() + jq_path_expressions.len());
        for (index, pointer) in json_pointers.iter().enumerate() {
            patterns.push(literal_pointer(index, pointer)?);
        }
        for (index, expression) in jq_path_expressions.iter().enumerate() {
            patterns.push(jq_path(expression).map_err(|why| {
                format!(
                    "`jqPathExpressions` item {} `{expression}`: {why}",
                    index + 1
                )
            })?);
        }
        Ok(IgnoreRule {
            dialect: Dialect::ArgoCd,
            group,
            kind,
            name,
            namespace,
            json_pointers,
            jq_path_expressions,
            patterns,
        })
    }

    /// A rule in the shape of Flux's `spec.ignore` entries (kustomize-controller
    /// api/v1 `IgnoreRule`): `paths`, JSON pointers read literally, and an
    /// optional `target` whose `group`, `kind`, `name` and `namespace` the
    /// playground matches as names (Flux reads them as regular expressions,
    /// so one that uses their syntax beyond the `.` of a group's name is
    /// refused).
    fn from_flux(fields: &Map<String, Value>) -> Result<Self, String> {
        if let Some(unknown) = fields
            .keys()
            .find(|field| !["paths", "target"].contains(&field.as_str()))
        {
            return Err(format!(
                "unknown field `{unknown}` in a Flux rule; it has `paths` and `target`"
            ));
        }
        let paths = texts(fields, "paths", "JSON pointer")?.unwrap_or_default();
        let mut patterns = Vec::with_capacity(paths.len());
        for (index, path) in paths.iter().enumerate() {
            let pattern = Pattern::parse(path)?;
            if pattern.segments().any(|segment| segment.is_none()) {
                return Err(format!(
                    "`paths` item {} `{path}`: Flux reads a JSON pointer literally, so `*` names only a field called `*`",
                    index + 1
                ));
            }
            patterns.push(pattern);
        }
        let target = match fields.get("target") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(target)) => target.clone(),
            Some(other) => {
                return Err(format!(
                    "`target` is an object (`group`, `kind`, `name`, `namespace`); found {}",
                    describe(other)
                ))
            }
        };
        if let Some(unknown) = target
            .keys()
            .find(|field| !TARGET_FIELDS.contains(&field.as_str()))
        {
            return Err(format!(
                "`target.{unknown}` is not read by the playground; a target has `group`, `kind`, `name` and `namespace`"
            ));
        }
        let name_of = |field: &str| -> Result<Option<String>, String> {
            let value =
                text_field(&target, field).map_err(|why| format!("`target.{}", &why[1..]))?;
            match value {
                Some(text) if text.contains(|c: char| "^$*+?()[]{}|\\".contains(c)) => Err(format!(
                    "`target.{field}` `{text}`: Flux reads it as a regular expression, and the playground matches names only; write the {field} itself"
                )),
                Some(text) if text.is_empty() => Ok(None),
                other => Ok(other),
            }
        };
        Ok(IgnoreRule {
            dialect: Dialect::Flux,
            group: name_of("group")?,
            kind: name_of("kind")?,
            name: name_of("name")?,
            namespace: name_of("namespace")?,
            json_pointers: paths,
            jq_path_expressions: Vec::new(),
            patterns,
        })
    }
}

fn unknown_field(field: &str) -> String {
    let known = "an Argo CD rule has `group`, `kind`, `name`, `namespace`, `jsonPointers` and `jqPathExpressions`; a Flux rule has `paths` and `target`";
    if field == "managedFieldsManagers" {
        format!(
            "`{field}` is Argo CD's (it ignores the fields those managers own), and the playground does not model managed fields; name the fields with `jsonPointers` or `jqPathExpressions`"
        )
    } else if field == "target" {
        format!("`{field}` is Flux's, beside `paths` (a Flux rule); {known}")
    } else {
        format!("unknown field `{field}`; {known}")
    }
}

/// An optional text field; null is the same as absent.
fn text_field(fields: &Map<String, Value>, field: &str) -> Result<Option<String>, String> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(format!("`{field}` is text; found {}", describe(other))),
    }
}

/// An optional list of texts (`what` is one of them); null is the same as
/// absent.
fn texts(
    fields: &Map<String, Value>,
    field: &str,
    what: &str,
) -> Result<Option<Vec<String>>, String> {
    let items = match fields.get(field) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(format!(
                "`{field}` is a list of {what}s; found {}",
                describe(other)
            ))
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            item.as_str().map(str::to_string).ok_or_else(|| {
                format!(
                    "`{field}` item {} is a {what} (text); found {}",
                    index + 1,
                    describe(item)
                )
            })
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

/// One of an Argo CD rule's `jsonPointers`: a literal path, in which `*` is
/// a field called `*` (Argo CD's JSON Patch `remove` then finds nothing and
/// the difference still shows), so a `*` is refused, with the jq path that
/// does what it was meant to.
fn literal_pointer(index: usize, pointer: &str) -> Result<Pattern, String> {
    let pattern = Pattern::parse(pointer)?;
    if pattern.segments().any(|segment| segment.is_none()) {
        let jq = Value::String(jq_of(&pattern)).to_string();
        return Err(format!(
            "`jsonPointers` item {} `{pointer}`: Argo CD reads a JSON pointer literally, so `*` names only a field called `*` and the difference still shows; to match every item write `jqPathExpressions: [{jq}]`",
            index + 1
        ));
    }
    Ok(pattern)
}

impl<'de> Deserialize<'de> for IgnoreRule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        IgnoreRule::from_value(&value).map_err(de::Error::custom)
    }
}

/// Reads `options.ignore`, a list of rules, so that each rule's error is
/// reported at the rule and anything else says what a list of rules is.
pub fn deserialize_rules<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<IgnoreRule>, D::Error> {
    deserializer.deserialize_any(RulesVisitor)
}

struct RulesVisitor;

impl<'de> Visitor<'de> for RulesVisitor {
    type Value = Vec<IgnoreRule>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a list of ignore rules")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut rules = Vec::with_capacity(items.size_hint().unwrap_or(0).min(1024));
        while let Some(rule) = items.next_element()? {
            rules.push(rule);
        }
        Ok(rules)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(de::Error::custom(not_a_list("an object")))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a string")))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a boolean")))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a number")))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a number")))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a number")))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("null")))
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("null")))
    }
}
