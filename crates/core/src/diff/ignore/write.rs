//! An ignore rule written back in the shape it was read in: a pointer, an
//! Argo CD selector or a Flux rule.

use super::{Dialect, IgnoreRule};
use serde::Serialize;

#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum RuleText {
    Pointer(String),
    Selector(Selector),
    Flux(FluxRule),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Selector {
    #[serde(skip_serializing_if = "Option::is_none")]
    group: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    json_pointers: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    jq_path_expressions: Vec<String>,
}

#[derive(Serialize)]
pub(super) struct FluxRule {
    paths: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<FluxTarget>,
}

#[derive(Serialize)]
pub(super) struct FluxTarget {
    #[serde(skip_serializing_if = "Option::is_none")]
    group: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
}

impl From<IgnoreRule> for RuleText {
    fn from(rule: IgnoreRule) -> Self {
        match rule.dialect {
            Dialect::Shorthand => {
                RuleText::Pointer(rule.json_pointers.into_iter().next().unwrap_or_default())
            }
            Dialect::Flux => {
                let targeted = rule.group.is_some()
                    || rule.kind.is_some()
                    || rule.name.is_some()
                    || rule.namespace.is_some();
                RuleText::Flux(FluxRule {
                    paths: rule.json_pointers,
                    target: targeted.then_some(FluxTarget {
                        group: rule.group,
                        kind: rule.kind,
                        name: rule.name,
                        namespace: rule.namespace,
                    }),
                })
            }
            Dialect::ArgoCd => RuleText::Selector(Selector {
                group: rule.group,
                kind: rule.kind,
                name: rule.name,
                namespace: rule.namespace,
                json_pointers: (!rule.json_pointers.is_empty()
                    || rule.jq_path_expressions.is_empty())
                .then_some(rule.json_pointers),
                jq_path_expressions: rule.jq_path_expressions,
            }),
        }
    }
}
