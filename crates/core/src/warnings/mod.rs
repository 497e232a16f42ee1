//! The lesson's checklist as warnings: what in the desired state (and in what
//! a prune is about to delete) breaks a rule of the lesson, and what to do.
//!
//! One file per rule (two for prunes), as gitops-engine's health keeps one
//! file a kind. Objects are read loosely: a field of an unexpected
//! type counts as absent, and nothing here panics, whatever the input.

mod controllers;
mod ignore_rules;
mod images;
mod patch;
mod prune;
mod secrets;
mod strings;

use crate::memo::Memo;
use crate::options::Options;
use crate::pointer::Step;
use crate::state::pairs::{aligned, Pair};
use crate::state::{Form, Key, Object, State};
use crate::value::ValueRef;
use controllers::fields_owned_by_controllers;
use ignore_rules::ignore_rules_that_select_nothing;
use images::image_warnings;
use prune::{pruned_namespaces, unprotected_prunes};
use secrets::plaintext_secret;
use strings::values_not_strings;
use serde::Serialize;
use std::sync::Arc;

pub(crate) use patch::{patched_warnings, reaches_other_objects};

/// A finding of the lesson's checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub key: String,
    pub rule: &'static str,
    pub message: String,
}

pub const MUTABLE_IMAGE_TAG: &str = "mutable-image-tag";
pub const PLAINTEXT_SECRET: &str = "plaintext-secret";
pub const UNPROTECTED_PRUNE: &str = "unprotected-prune";
pub const PRUNED_NAMESPACE: &str = "pruned-namespace";
pub const FIELD_OWNED_BY_CONTROLLER: &str = "field-owned-by-controller";
pub const IGNORE_RULE_SELECTS_NOTHING: &str = "ignore-rule-selects-nothing";
pub const VALUE_NOT_A_STRING: &str = "value-not-a-string";

/// Every rule of the checklist.
pub const RULES: [&str; 7] = [
    MUTABLE_IMAGE_TAG,
    PLAINTEXT_SECRET,
    UNPROTECTED_PRUNE,
    PRUNED_NAMESPACE,
    FIELD_OWNED_BY_CONTROLLER,
    IGNORE_RULE_SELECTS_NOTHING,
    VALUE_NOT_A_STRING,
];

const REPLICAS: [Step<'static>; 2] = [Step::Field("spec"), Step::Field("replicas")];

/// Every finding about `desired` (and about `actual` objects a prune would delete), ordered by key, then rule.
pub fn warnings(desired: &State, actual: &State, options: &Options) -> Vec<Warning> {
    let (found, _) = warnings_of_pairs(
        &mut Findings::off(),
        desired,
        actual,
        &aligned(desired, actual),
        options,
    );
    found
}

/// What the rules found for each object of the last few large states they
/// looked at, rule by rule (`memo.rs`): a keystroke's report looks again at
/// the object it changed alone.
pub(crate) struct Findings {
    of_objects: Memo<bool, Vec<Warning>>,
    stateful: prune::Stateful,
    autoscalers: controllers::Autoscalers,
}

impl Findings {
    pub(crate) const fn new() -> Self {
        Findings { of_objects: Memo::new(), stateful: Memo::new(), autoscalers: Memo::new() }
    }

    pub(crate) const fn off() -> Self {
        Findings { of_objects: Memo::off(), stateful: Memo::off(), autoscalers: Memo::off() }
    }
}

impl Default for Findings {
    fn default() -> Self {
        Findings::new()
    }
}

/// What the rules that look across objects met on the way to their findings:
/// where findings patched at a few keys (`patch.rs`) start from.
pub(crate) struct Across {
    /// The HorizontalPodAutoscalers of both states, whose scale targets
    /// `field-owned-by-controller` looks for.
    autoscalers: Vec<(Key, Arc<Object>)>,
    /// The namespaces a prune deletes (`pruned-namespace`).
    pruned_namespaces: Vec<String>,
    /// For each Argo CD ignore rule, in order, the key of the first object it
    /// selects (`ignore-rule-selects-nothing`).
    selected: Vec<Option<Key>>,
}

/// `warnings`, with the `pairs` of the two states (`aligned`) walked already,
/// and what the rules across objects met.
pub(crate) fn warnings_of_pairs(
    findings: &mut Findings,
    desired: &State,
    actual: &State,
    pairs: &[Pair],
    options: &Options,
) -> (Vec<Warning>, Across) {
    let mut found = Vec::new();
    object_findings(&mut findings.of_objects, desired, &mut found);
    unprotected_prunes(&mut findings.stateful, desired, pairs, options, &mut found);
    let pruned = pruned_namespaces(desired, actual, pairs, options, &mut found);
    let autoscalers = fields_owned_by_controllers(
        &mut findings.autoscalers,
        desired,
        actual,
        options,
        &mut found,
    );
    let selected = ignore_rules_that_select_nothing(desired, actual, options, &mut found);
    sort_findings(&mut found);
    let across = Across {
        autoscalers: autoscalers
            .into_iter()
            .map(|(key, object)| (Key::clone(key), Arc::clone(object)))
            .collect(),
        pruned_namespaces: pruned.into_iter().map(str::to_string).collect(),
        selected,
    };
    (found, across)
}

/// Puts findings in key order, then rule. A stable sort: several findings of one
/// rule about one object keep the order in which they were found (the object's
/// field order).
fn sort_findings(found: &mut Vec<Warning>) {
    crate::collect::sort_by(found, |a, b| {
        (a.key.as_str(), a.rule).cmp(&(b.key.as_str(), b.rule))
    });
}

/// What the rules about one desired object alone find (`mutable-image-tag`,
/// `plaintext-secret`), remembered by object: a keystroke looks again at the
/// object it changed.
fn object_findings(memo: &mut Memo<bool, Vec<Warning>>, desired: &State, found: &mut Vec<Warning>) {
    let skip_status = desired.form() != &Form::Named;
    memo.pass(skip_status, desired.len(), |remembered| {
        for (key, object) in desired.objects() {
            found.extend(remembered.get_or(key, [Some(object), None], || {
                object_warnings(key, object, skip_status)
            }));
        }
    });
}

/// What the rules about one desired object alone find (`mutable-image-tag`,
/// `plaintext-secret`, `value-not-a-string`); `skip_status` for a Kubernetes object, whose
/// `status` the cluster writes.
pub fn object_warnings<'a>(key: &str, object: impl Into<ValueRef<'a>>, skip_status: bool) -> Vec<Warning> {
    let object = object.into();
    let mut findings = image_warnings(key, object, skip_status);
    findings.extend(plaintext_secret(key, object));
    findings.extend(values_not_strings(key, object));
    findings
}

pub(super) fn warning(key: &str, rule: &'static str, message: String) -> Warning {
    Warning {
        key: key.to_string(),
        rule,
        message,
    }
}

/// `kind`, found by a walk over the object's few top-level fields (faster than
/// the map's hashed lookup, and the checks ask it of every object).
pub(super) fn kind<'a>(object: impl Into<ValueRef<'a>>) -> Option<&'a str> {
    let (_, kind) = object.into().fields().find(|(name, _)| *name == "kind")?;
    kind.as_str()
}

/// `metadata.name`, or the key for an object of the lesson's form.
pub(super) fn name<'a>(key: &'a str, object: impl Into<ValueRef<'a>>) -> Option<&'a str> {
    match object.into().get("metadata") {
        Some(metadata) if metadata.is_object() => metadata.get("name").and_then(ValueRef::as_str),
        _ => Some(key),
    }
}

#[cfg(test)]
mod tests {
    use super::images::{parse_image, ImageRef};
    use super::*;
    use crate::image::image_fields;
    use serde_json::json;

    #[test]
    fn image_references_parse() {
        assert_eq!(parse_image("web@sha256:00ff"), ImageRef::Digest);
        assert_eq!(parse_image("web:1.4@sha256:00ff"), ImageRef::Digest);
        assert_eq!(
            parse_image("registry.example:5000/team/web@sha256:00ff"),
            ImageRef::Digest
        );
        assert_eq!(parse_image("web:1.4"), ImageRef::Tag { tag: "1.4" });
        assert_eq!(
            parse_image("registry.example:5000/web:2.0"),
            ImageRef::Tag { tag: "2.0" }
        );
        let untagged = |repository| ImageRef::Latest {
            repository,
            tagged: false,
        };
        assert_eq!(parse_image("web"), untagged("web"));
        assert_eq!(
            parse_image("registry.example:5000/web"),
            untagged("registry.example:5000/web")
        );
        assert_eq!(parse_image("web:"), untagged("web"));
        assert_eq!(
            parse_image("web:latest"),
            ImageRef::Latest {
                repository: "web",
                tagged: true
            }
        );
        assert_eq!(
            parse_image("web@sha256:"),
            untagged("web"),
            "an empty digest pins nothing"
        );
        assert_eq!(parse_image("web:1.4@"), ImageRef::Tag { tag: "1.4" });
    }

    #[test]
    fn images_are_found_anywhere_in_an_object() {
        let object = json!({"spec": {"template": {"spec": {
            "initContainers": [{"image": "init:1"}],
            "containers": [{"name": "a", "image": "web"}, {"image": 7}],
        }}}});
        assert_eq!(
            image_fields(&object, true),
            [
                (
                    "/spec/template/spec/initContainers/0/image".to_string(),
                    "init:1"
                ),
                ("/spec/template/spec/containers/0/image".to_string(), "web"),
            ]
        );
    }

    #[test]
    fn odd_input_does_not_panic() {
        for object in [
            json!({"kind": 3, "metadata": "x", "spec": {"replicas": "3"}}),
            json!({"kind": "Secret", "data": "c2VjcmV0", "stringData": []}),
            json!({"kind": "HorizontalPodAutoscaler", "spec": {"scaleTargetRef": 1}}),
            json!({"labels": ["database"], "annotations": null, "image": {"image": ""}}),
            json!({"kind": "StatefulSet", "metadata": {"labels": 1, "annotations": [1]}}),
        ] {
            let state = State::from_value("test", json!({ "odd": object })).unwrap();
            let _ = warnings(&state, &state, &Options::pruning(true));
        }
    }
}
