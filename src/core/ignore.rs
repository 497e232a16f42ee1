//! Ignore rules: fields that another controller owns. An ignored field is
//! neither drift nor written by apply: the live value is kept (Flux's rule,
//! and Argo CD's with `RespectIgnoreDifferences=true`).

use super::pointer::Pattern;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One item of `options.ignore`: a JSON pointer for every object, or the
/// shape of Argo CD's `ignoreDifferences` entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RuleText", into = "RuleText")]
pub struct IgnoreRule {
    pub kind: Option<String>,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub json_pointers: Vec<String>,
    patterns: Vec<Pattern>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum RuleText {
    Pointer(String),
    Selector(Selector),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Selector {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
    json_pointers: Vec<String>,
}

impl TryFrom<RuleText> for IgnoreRule {
    type Error = String;

    fn try_from(text: RuleText) -> Result<Self, String> {
        let selector = match text {
            RuleText::Pointer(pointer) => Selector {
                kind: None,
                name: None,
                namespace: None,
                json_pointers: vec![pointer],
            },
            RuleText::Selector(selector) => selector,
        };
        let patterns = selector
            .json_pointers
            .iter()
            .map(|pointer| Pattern::parse(pointer))
            .collect::<Result<_, _>>()?;
        Ok(IgnoreRule {
            kind: selector.kind,
            name: selector.name,
            namespace: selector.namespace,
            json_pointers: selector.json_pointers,
            patterns,
        })
    }
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

impl IgnoreRule {
    /// A rule that ignores `pointer` in every object.
    pub fn everywhere(pointer: &str) -> Result<Self, String> {
        IgnoreRule::try_from(RuleText::Pointer(pointer.to_string()))
    }

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
