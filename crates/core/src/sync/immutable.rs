//! Fields the Kubernetes API server refuses to change in place, what it
//! says when an update tries, and the options that delete and create the
//! object instead.
//!
//! The API server validates an update against the object it replaces
//! (`ValidateUpdate` of each kind's registry strategy), whoever sends it:
//!
//! | kind | what may not change | as Kubernetes' validation says it |
//! |---|---|---|
//! | `apps` Deployment, ReplicaSet, DaemonSet | `spec.selector` | `ValidateImmutableField`: "field is immutable" |
//! | `apps` StatefulSet | `spec`, but for `replicas`, `ordinals`, `template`, `updateStrategy`, `revisionHistoryLimit`, `persistentVolumeClaimRetentionPolicy` and `minReadySeconds` | `ValidateStatefulSetUpdate`: "spec: Forbidden: ..." |
//! | `batch` Job | `spec.selector`, `spec.template` | `ValidateJobSpecUpdate` |
//! | Service | its cluster IP, once set (none of ExternalName; headless stays headless) | `validateUpgradeDowngradeClusterIPs`: "may not change once set" |
//! | ConfigMap, Secret | with `immutable: true`: `data` (a ConfigMap's `binaryData`, a Secret's `stringData` as the `data` it becomes) and `immutable` itself; a Secret's `type` always | `ValidateConfigMapUpdate`, `ValidateSecretUpdate` |
//!
//! The message is the API server's (`apierrors.NewInvalid`): `Kind.group
//! "name" is invalid: field: detail`, several in brackets, and a value
//! written as JSON, as Kubernetes 1.34 and later write it (apimachinery's
//! "Nicer value rendering in API errors"). A Job's template is written
//! `{...}`: the API server writes the whole template there, as JSON of its
//! internal type. A Job suspended before it ever started may change its
//! pods' scheduling directives; that is not modelled.
//!
//! Argo CD learns of a refusal only when it applies the object: its dry run
//! of every task is client-side (gitops-engine's `sync_context.go`, "will
//! not detect if they are mutating immutable fields"), so the objects of
//! the earlier waves, and the others of that wave, are applied, and the
//! operation fails with "one or more objects failed to apply, reason: "
//! and the message. Flux's server-side dry run of every object finds it
//! before any of the stage is applied (fluxcd/pkg `ssa` `ApplyAll`).
//!
//! What recreates the object (delete, then create) instead:
//! - Argo CD's `Force=true` in `argocd.argoproj.io/sync-options`, on the
//!   object in Git or in the cluster: `kubectl apply --force` deletes and
//!   creates what the API server refuses (kubectl's `Patcher.Patch`, on an
//!   invalid or conflicting patch);
//! - with `Replace=true` as well, `kubectl replace --force` deletes and
//!   creates the object at every update, refused or not (gitops-engine's
//!   `applyObject`; never a CustomResourceDefinition or a Namespace, which
//!   it updates). `Replace=true` alone sends the whole object, which the
//!   API server refuses alike;
//! - Flux's `kustomize.toolkit.fluxcd.io/force: enabled`, as a label or an
//!   annotation, whatever its case, on the object in Git or in the cluster,
//!   or `spec.force` (`Options::force`), when the API server refuses
//!   (fluxcd/pkg `ssa` `shouldForceApply`).

use crate::agent::{Agent, Owner};
use crate::diff::compare::mode_of;
use crate::diff::flux_labels::with_owner_labels;
use crate::diff::normalize::desired_as_stored;
use crate::options::Options;
use crate::state::meta::metadata_map;
use crate::state::protection::{has_sync_option, ARGO_SYNC_OPTIONS};
use crate::state::State;
use crate::sync::decoding::undecodable;
use crate::sync::merge::created_by;
use crate::sync::plan::Operation;
use serde::Serialize;
use serde_json::{Map, Value};

/// Flux's force label or annotation (value `enabled`).
pub const FLUX_FORCE: &str = "kustomize.toolkit.fluxcd.io/force";

pub use crate::sync::refusal::Refusal;

/// An object a sync deleted and created again instead of updating it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Recreated {
    pub key: String,
    /// The option that asked for it, and what it does.
    pub why: String,
}

/// What comes of applying one operation of a plan to the API server.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Written as planned.
    Accepted,
    /// Refused: nothing of it is written.
    Refused(Refusal),
    /// Deleted and created again: `object` is what the create writes, and
    /// `why` the option that asked for it. `refusal` is what the update
    /// would have met (none where `Replace=true` recreates regardless).
    Recreated {
        why: String,
        object: Value,
        refusal: Option<Refusal>,
    },
}

/// What comes of applying `operation` over `actual` (`desired` is the state
/// the plan was made for): a create or an update the API server cannot
/// decode is refused (`sync::decoding`); otherwise only an update of an
/// object already there can be refused or recreated.
pub fn outcome(
    operation: &Operation,
    desired: &State,
    actual: &State,
    options: &Options,
) -> Outcome {
    if let Operation::Create { key, object, .. } | Operation::Update { key, object, .. } = operation {
        if let Some(refusal) = undecodable(key, object) {
            return Outcome::Refused(refusal);
        }
    }
    let Operation::Update { key, object, .. } = operation else {
        return Outcome::Accepted;
    };
    let (Some(live), Some(wanted)) = (actual.get(key), desired.get(key)) else {
        return Outcome::Accepted;
    };
    let refused = refusal(key, live, object);
    match recreation(wanted, live, options, refused.is_some()) {
        Some(why) => Outcome::Recreated {
            why,
            object: match options.owner() {
                Some(owner @ Owner { application, agent: Agent::Flux, .. }) => {
                    let stored = with_owner_labels(desired_as_stored(wanted), application);
                    created_by(Some(owner), stored.view(), mode_of(desired))
                }
                owner => created_by(owner, wanted, mode_of(desired)),
            },
            refusal: refused,
        },
        None => match refused {
            Some(refusal) => Outcome::Refused(refusal),
            None => Outcome::Accepted,
        },
    }
}

/// What the API server says when `written` is sent to replace `live`, if
/// it refuses it. Objects of the lesson's form (no `kind`) are never refused.
pub fn refusal(key: &str, live: &Value, written: &Value) -> Option<Refusal> {
    let kind = written.get("kind")?.as_str()?;
    if live.get("kind").and_then(Value::as_str) != Some(kind) {
        return None;
    }
    let group = group_of(written);
    let errors = match (group, kind) {
        ("apps", "Deployment" | "ReplicaSet" | "DaemonSet") => {
            immutable_selector(live, written).into_iter().collect()
        }
        ("apps", "StatefulSet") => stateful_set_spec(live, written).into_iter().collect(),
        ("batch", "Job") => job(live, written),
        ("", "Service") => cluster_ip(live, written).into_iter().collect(),
        ("", "ConfigMap") => config_map(live, written),
        ("", "Secret") => secret(live, written),
        _ => Vec::new(),
    };
    if errors.is_empty() {
        return None;
    }
    let qualified = match group {
        "" => kind.to_string(),
        group => format!("{kind}.{group}"),
    };
    let name = written
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    // utilerrors' aggregate: one error as it is, more in brackets.
    let errors = match errors.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    };
    Some(Refusal {
        key: key.to_string(),
        message: format!("{qualified} {name:?} is invalid: {errors}"),
    })
}

/// Why the tool deletes and creates the object instead of updating it, if
/// it does (`refused`: whether the API server refuses the update).
fn recreation(desired: &Value, live: &Value, options: &Options, refused: bool) -> Option<String> {
    // Argo CD's sync options do nothing under Flux.
    let argo_cd = options.acting_agent() == Agent::ArgoCd;
    let either = |option: &str| argo_cd && (has_sync_option(desired, option) || has_sync_option(live, option));
    let force = either("Force=true");
    let kind = desired.get("kind").and_then(Value::as_str);
    let replaces = !matches!(kind, Some("Namespace" | "CustomResourceDefinition"));
    if force && either("Replace=true") && replaces {
        return Some(format!(
            "{ARGO_SYNC_OPTIONS}: Force=true,Replace=true (kubectl replace --force deletes and \
             creates it)"
        ));
    }
    if !refused {
        return None;
    }
    if force {
        Some(format!(
            "{ARGO_SYNC_OPTIONS}: Force=true (kubectl apply --force deletes and creates what the \
             API server refuses to update)"
        ))
    } else if flux_force(desired) || flux_force(live) {
        Some(format!(
            "{FLUX_FORCE}: enabled (Flux deletes and creates what the API server refuses to update)"
        ))
    } else if options.force {
        Some("force is on (Flux's spec.force deletes and creates what the API server refuses to update)".into())
    } else {
        None
    }
}

/// `ssa.AnyInMetadata` with Flux's force selector: a label or an annotation
/// `enabled`, whatever its case.
fn flux_force(object: &Value) -> bool {
    ["labels", "annotations"].iter().any(|field| {
        metadata_map(object, field)
            .and_then(|map| map.get(FLUX_FORCE)?.as_str())
            .is_some_and(|value| value.eq_ignore_ascii_case("enabled"))
    })
}

/// The API group of an object: `apps` of `apps/v1`, none of `v1`.
fn group_of(object: &Value) -> &str {
    let version = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match version.split_once('/') {
        Some((group, _)) => group,
        None => "",
    }
}

const IMMUTABLE: &str = "field is immutable";
const IMMUTABLE_WHEN_SET: &str = "field is immutable when `immutable` is set";

/// `field.Invalid(path, value, detail)` as the API server writes it.
fn invalid(path: &str, value: &str, detail: &str) -> String {
    format!("{path}: Invalid value: {value}: {detail}")
}

/// `field.Forbidden(path, detail)` as the API server writes it.
fn forbidden(path: &str, detail: &str) -> String {
    format!("{path}: Forbidden: {detail}")
}

fn at<'v>(object: &'v Value, pointer: &str) -> Option<&'v Value> {
    object.pointer(pointer).filter(|value| !value.is_null())
}

fn immutable_selector(live: &Value, written: &Value) -> Option<String> {
    let selector = at(written, "/spec/selector");
    (selector != at(live, "/spec/selector"))
        .then(|| invalid("spec.selector", &label_selector(selector), IMMUTABLE))
}

/// A `metav1.LabelSelector` as Go's `encoding/json` writes it: its fields
/// in their declared order, a map's keys sorted, empty ones left out.
fn label_selector(selector: Option<&Value>) -> String {
    let Some(selector) = selector.and_then(Value::as_object) else {
        return "null".into();
    };
    let mut written = Map::new();
    if let Some(Value::Object(labels)) = selector.get("matchLabels") {
        if !labels.is_empty() {
            let mut sorted: Vec<(&String, &Value)> = labels.iter().collect();
            crate::collect::sort_by(&mut sorted, |a, b| a.0.cmp(b.0));
            let labels: Map<String, Value> = sorted
                .into_iter()
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect();
            written.insert("matchLabels".into(), Value::Object(labels));
        }
    }
    if let Some(Value::Array(expressions)) = selector.get("matchExpressions") {
        if !expressions.is_empty() {
            let expressions = expressions.iter().map(requirement).collect();
            written.insert("matchExpressions".into(), Value::Array(expressions));
        }
    }
    Value::Object(written).to_string()
}

/// A `metav1.LabelSelectorRequirement`: key, operator, then values.
fn requirement(item: &Value) -> Value {
    let mut written = Map::new();
    for field in ["key", "operator", "values"] {
        if let Some(value) = at(item, &format!("/{field}")) {
            written.insert(field.into(), value.clone());
        }
    }
    Value::Object(written)
}

/// The fields of a StatefulSet's spec an update may change.
const STATEFUL_SET_MUTABLE: [&str; 7] = [
    "replicas",
    "ordinals",
    "template",
    "updateStrategy",
    "revisionHistoryLimit",
    "persistentVolumeClaimRetentionPolicy",
    "minReadySeconds",
];

fn stateful_set_spec(live: &Value, written: &Value) -> Option<String> {
    let fixed = |object: &Value| -> Map<String, Value> {
        let mut spec = object
            .get("spec")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        spec.retain(|field, value| {
            !STATEFUL_SET_MUTABLE.contains(&field.as_str()) && !value.is_null()
        });
        spec
    };
    (fixed(live) != fixed(written)).then(|| {
        forbidden(
            "spec",
            "updates to statefulset spec for fields other than 'replicas', 'ordinals', \
             'template', 'updateStrategy', 'revisionHistoryLimit', \
             'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        )
    })
}

fn job(live: &Value, written: &Value) -> Vec<String> {
    let mut errors: Vec<String> = immutable_selector(live, written).into_iter().collect();
    if at(written, "/spec/template") != at(live, "/spec/template") {
        errors.push(invalid("spec.template", "{...}", IMMUTABLE));
    }
    errors
}

/// A Service's first cluster IP: `clusterIP`, else `clusterIPs[0]`; none
/// when empty.
fn first_cluster_ip(service: &Value) -> Option<&str> {
    at(service, "/spec/clusterIP")
        .or_else(|| at(service, "/spec/clusterIPs/0"))
        .and_then(Value::as_str)
        .filter(|ip| !ip.is_empty())
}

fn cluster_ip(live: &Value, written: &Value) -> Option<String> {
    let external =
        |service: &Value| at(service, "/spec/type").and_then(Value::as_str) == Some("ExternalName");
    if external(live) || external(written) {
        return None;
    }
    // An IP left out of an update keeps the allocated one (the registry's
    // patchAllocatedValues).
    let (old, new) = (first_cluster_ip(live)?, first_cluster_ip(written)?);
    if old == new || (old == "None" && new == "None") {
        return None;
    }
    let ips = Value::from(vec![new]).to_string();
    Some(invalid(
        "spec.clusterIPs[0]",
        &ips,
        "may not change once set",
    ))
}

fn is_immutable(object: &Value) -> bool {
    object.get("immutable").and_then(Value::as_bool) == Some(true)
}

/// With `immutable: true` live: `immutable` turned off, then each of
/// `fields` that changed.
fn immutable_when_set(live: &Value, written: &Value, fields: &[(&str, &[&str])]) -> Vec<String> {
    if !is_immutable(live) {
        return Vec::new();
    }
    let mut errors = Vec::new();
    if !is_immutable(written) {
        errors.push(forbidden("immutable", IMMUTABLE_WHEN_SET));
    }
    for (path, compared) in fields {
        let changed = compared
            .iter()
            .any(|field| at(live, &format!("/{field}")) != at(written, &format!("/{field}")));
        if changed {
            errors.push(forbidden(path, IMMUTABLE_WHEN_SET));
        }
    }
    errors
}

fn config_map(live: &Value, written: &Value) -> Vec<String> {
    immutable_when_set(
        live,
        written,
        &[("data", &["data"]), ("binaryData", &["binaryData"])],
    )
}

fn secret(live: &Value, written: &Value) -> Vec<String> {
    // A Secret without a type is Opaque; its stringData is written into its
    // data before the update is validated.
    let type_of = |secret: &Value| {
        at(secret, "/type")
            .and_then(Value::as_str)
            .unwrap_or("Opaque")
            .to_string()
    };
    let mut errors = Vec::new();
    if type_of(live) != type_of(written) {
        let value = Value::from(type_of(written)).to_string();
        errors.push(invalid("type", &value, IMMUTABLE));
    }
    let (live, written) = (desired_as_stored(live).into_owned(), desired_as_stored(written).into_owned());
    errors.extend(immutable_when_set(&live, &written, &[("data", &["data"])]));
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment(app: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
               "spec": {"selector": {"matchLabels": {"app": app}}}})
    }

    #[test]
    fn a_selector_is_written_as_go_writes_a_label_selector() {
        let selector = json!({"matchExpressions": [{"values": ["a"], "operator": "In", "key": "tier"}],
                              "matchLabels": {"z": "1", "a": "2"}});
        assert_eq!(
            label_selector(Some(&selector)),
            r#"{"matchLabels":{"a":"2","z":"1"},"matchExpressions":[{"key":"tier","operator":"In","values":["a"]}]}"#
        );
        assert_eq!(label_selector(None), "null");
    }

    #[test]
    fn an_object_of_another_kind_or_of_the_lessons_form_is_never_refused() {
        let live = deployment("web");
        let mut other = deployment("web-v2");
        other["kind"] = json!("Widget");
        assert_eq!(refusal("k", &live, &other), None);
        assert_eq!(
            refusal("web", &json!({"image": "a"}), &json!({"image": "b"})),
            None
        );
    }

    #[test]
    fn the_core_group_is_left_out_of_the_kind() {
        let live = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "tls"}});
        let written = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "tls"}, "type": "kubernetes.io/tls"});
        assert_eq!(
            refusal("Secret/tls", &live, &written).map(|refusal| refusal.message),
            Some(r#"Secret "tls" is invalid: type: Invalid value: "kubernetes.io/tls": field is immutable"#.into())
        );
    }
}
