//! Ignore rules: fields that another controller owns. An ignored field is
//! neither drift nor written by apply: the live value is kept (Flux's rule,
//! and Argo CD's with `RespectIgnoreDifferences=true`).

use super::document::parse_one;
use super::pointer::Pattern;
use super::state::describe;
use super::yaml::item_lines;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// One item of `options.ignore`: a JSON pointer for every object, or the
/// shape of Argo CD's `ignoreDifferences` entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "RuleText")]
pub struct IgnoreRule {
    pub kind: Option<String>,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub json_pointers: Vec<String>,
    patterns: Vec<Pattern>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum RuleText {
    Pointer(String),
    Selector(Selector),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Selector {
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
    json_pointers: Vec<String>,
}

impl From<IgnoreRule> for RuleText {
    fn from(rule: IgnoreRule) -> Self {
        match (
            &rule.kind,
            &rule.name,
            &rule.namespace,
            rule.json_pointers.as_slice(),
        ) {
            (None, None, None, [pointer]) => RuleText::Pointer(pointer.clone()),
            _ => RuleText::Selector(Selector {
                kind: rule.kind,
                name: rule.name,
                namespace: rule.namespace,
                json_pointers: rule.json_pointers,
            }),
        }
    }
}

/// The fields a rule may have, as written.
const FIELDS: [&str; 4] = ["kind", "name", "namespace", "jsonPointers"];

/// Fields of Argo CD's `ignoreDifferences` that the playground does not read.
const ARGO_CD_ONLY: [&str; 3] = ["group", "jqPathExpressions", "managedFieldsManagers"];

const WHAT_A_RULE_IS: &str =
    "a rule is a JSON pointer such as `/status`, or an object with `kind`, `name`, `namespace` and `jsonPointers`";

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
    /// A rule that ignores `pointer` in every object.
    pub fn everywhere(pointer: &str) -> Result<Self, String> {
        IgnoreRule::new(None, None, None, vec![pointer.to_string()])
    }

    /// One rule from a JSON value, as a scenario's `options.ignore` holds it.
    pub fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(pointer) => IgnoreRule::everywhere(pointer),
            Value::Object(fields) => IgnoreRule::from_fields(fields),
            other => Err(format!("{WHAT_A_RULE_IS}; found {}", describe(other))),
        }
    }

    fn from_fields(fields: &Map<String, Value>) -> Result<Self, String> {
        if let Some(unknown) = fields
            .keys()
            .find(|field| !FIELDS.contains(&field.as_str()))
        {
            return Err(unknown_field(unknown));
        }
        IgnoreRule::new(
            text_field(fields, "kind")?,
            text_field(fields, "name")?,
            text_field(fields, "namespace")?,
            json_pointers(fields)?,
        )
    }

    fn new(
        kind: Option<String>,
        name: Option<String>,
        namespace: Option<String>,
        json_pointers: Vec<String>,
    ) -> Result<Self, String> {
        let patterns = json_pointers
            .iter()
            .map(|pointer| Pattern::parse(pointer))
            .collect::<Result<_, _>>()?;
        Ok(IgnoreRule {
            kind,
            name,
            namespace,
            json_pointers,
            patterns,
        })
    }
}

fn unknown_field(field: &str) -> String {
    let known = "a rule has `kind`, `name`, `namespace` and `jsonPointers`";
    if ARGO_CD_ONLY.contains(&field) {
        format!("`{field}` is Argo CD's, and the playground does not read it; {known}")
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

fn json_pointers(fields: &Map<String, Value>) -> Result<Vec<String>, String> {
    let items = match fields.get("jsonPointers") {
        None | Some(Value::Null) => {
            return Err("a rule needs `jsonPointers` (a list of JSON pointers)".into())
        }
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(format!(
                "`jsonPointers` is a list of JSON pointers; found {}",
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
                    "`jsonPointers` item {} is a JSON pointer (text); found {}",
                    index + 1,
                    describe(item)
                )
            })
        })
        .collect()
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

impl IgnoreRule {
    /// Whether the rule applies to the object at `key` (a name in the lesson's
    /// form; `object` gives a Kubernetes object's kind and namespace).
    pub fn selects(&self, key: &str, object: &Value) -> bool {
        let kind = object.get("kind").and_then(Value::as_str);
        let metadata = object.get("metadata");
        let name = metadata
            .and_then(|m| m.get("name"))
            .and_then(Value::as_str)
            .unwrap_or(key);
        let namespace = metadata
            .and_then(|m| m.get("namespace"))
            .and_then(Value::as_str);
        let wanted = |filter: &Option<String>, actual: Option<&str>| {
            filter.as_deref().is_none_or(|want| Some(want) == actual)
        };
        wanted(&self.kind, kind)
            && wanted(&self.name, Some(name))
            && wanted(&self.namespace, namespace)
    }

    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }
}

/// The patterns of every rule that selects the object at `key`.
pub fn patterns_for<'a>(rules: &'a [IgnoreRule], key: &str, object: &Value) -> Vec<&'a Pattern> {
    rules
        .iter()
        .filter(|rule| rule.selects(key, object))
        .flat_map(|rule| rule.patterns())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(value: Value) -> Result<Vec<IgnoreRule>, String> {
        serde_json::from_value(value).map_err(|error| error.to_string())
    }

    #[test]
    fn reads_both_shapes_and_writes_them_back() {
        let text = json!(["/status", {"kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]);
        let read = rules(text.clone()).unwrap();
        assert_eq!(read[1].kind.as_deref(), Some("Deployment"));
        assert_eq!(serde_json::to_value(&read).unwrap(), text);
    }

    #[test]
    fn a_bad_pointer_is_an_error() {
        assert!(rules(json!(["spec/replicas"])).is_err());
        assert!(
            rules(json!([{"kind": "Deployment"}])).is_err(),
            "jsonPointers is required"
        );
    }

    #[test]
    fn selects_by_kind_name_and_namespace() {
        let rule = &rules(json!([{"kind": "Deployment", "namespace": "shop", "jsonPointers": ["/spec/replicas"]}])).unwrap()[0];
        let web = json!({"kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}});
        let other = json!({"kind": "Deployment", "metadata": {"name": "web", "namespace": "ops"}});
        assert!(rule.selects("Deployment/shop/web", &web));
        assert!(!rule.selects("Deployment/ops/web", &other));
        assert!(
            !rule.selects("web", &json!({"replicas": 2})),
            "a lesson object has no kind"
        );
    }

    #[test]
    fn a_name_selects_a_lesson_object_by_key() {
        let rule = &rules(json!([{"name": "web", "jsonPointers": ["/replicas"]}])).unwrap()[0];
        assert!(rule.selects("web", &json!({"replicas": 2})));
        assert!(!rule.selects("api", &json!({"replicas": 2})));
    }
}
