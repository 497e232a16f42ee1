//! Health: how a live object is doing, assessed as Argo CD assesses it: a port
//! of gitops-engine's `pkg/health` and of the Lua checks Argo CD ships in
//! `resource_customizations/` for kinds a lesson meets (CronJob,
//! PodDisruptionBudget, ExternalSecret). Only the status is kept, not the
//! message.
//!
//! The rules are Argo CD 3.6.0's as its master branch has them at commit
//! 37ee0097cf (22 August 2026; its VERSION file reads 3.6.0). The latest
//! release, v3.5.1, has the same rules but for a pod's
//! `argocd.argoproj.io/ignore-restart-policy` annotation, which it does not
//! know.
//!
//! Objects are read as loosely as Kubernetes writes them: an absent field has
//! its zero value (0, "", false, an empty list), and so has a field of the
//! wrong type; so too where one of Argo CD's Lua checks would fail on such a
//! field (Unknown). Nothing here panics, whatever the input.

mod apps;
mod autoscaling;
mod cron_job;
mod external_secrets;
mod network;
mod pod;
mod policy;
mod run;

use crate::value::{Items, ValueRef};
use serde::Serialize;

/// Argo CD's health statuses, ordered from best to worst as Argo CD orders them
/// for an application's overall health (the worst wins).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
pub enum Health {
    Healthy,
    Suspended,
    Progressing,
    Missing,
    Degraded,
    Unknown,
}

impl std::fmt::Display for Health {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Health::Healthy => "Healthy",
            Health::Suspended => "Suspended",
            Health::Progressing => "Progressing",
            Health::Missing => "Missing",
            Health::Degraded => "Degraded",
            Health::Unknown => "Unknown",
        })
    }
}

/// Argo CD does not assess an object pending deletion while this hook
/// finalizer holds it.
const HOOK_FINALIZER: &str = "argocd.argoproj.io/hook-finalizer";

/// Any version of the group assesses the same way.
const ANY: &[&str] = &[];

/// The health of one live object; None for kinds Argo CD assesses no health for
/// (ConfigMap, Secret, unknown kinds, custom resources without a rule...).
pub fn health<'a>(object: impl Into<ValueRef<'a>>) -> Option<Health> {
    let object = object.into();
    if pending_deletion(object) {
        return Some(Health::Progressing);
    }
    let (versions, assess, version) = health_check(object)?;
    // A kind Argo CD knows in a version it does not: its check fails, so Unknown.
    if !versions.is_empty() && !versions.contains(&version) {
        return Some(Health::Unknown);
    }
    Some(assess(object))
}

/// Whether Argo CD has a health check for the object's kind. A missing
/// object without one does not make its application Missing (Argo CD's
/// `setApplicationHealth`): a ConfigMap not created yet leaves the
/// application's health as it is.
pub fn has_health_check<'a>(object: impl Into<ValueRef<'a>>) -> bool {
    health_check(object.into()).is_some()
}

/// The versions a kind's check knows, the check, and the object's version.
type Check<'o> = (&'static [&'static str], fn(ValueRef) -> Health, &'o str);

fn health_check(object: ValueRef<'_>) -> Option<Check<'_>> {
    // An apiVersion with two slashes does not parse: no group, version or kind.
    let (group, version) = group_version(text(object, &["apiVersion"]))?;
    let kind = text(object, &["kind"]);
    let (versions, assess): (&[&str], fn(ValueRef) -> Health) = match (group, kind) {
        ("apps", "Deployment") => (&["v1"], apps::deployment),
        ("apps", "StatefulSet") => (&["v1"], apps::stateful_set),
        ("apps", "ReplicaSet") => (&["v1"], apps::replica_set),
        ("apps", "DaemonSet") => (&["v1"], apps::daemon_set),
        ("", "Pod") => (&["v1"], pod::pod),
        ("", "Service") => (&["v1"], network::service),
        ("extensions" | "networking.k8s.io", "Ingress") => (ANY, network::ingress),
        ("apiregistration.k8s.io", "APIService") => (&["v1", "v1beta1"], network::api_service),
        ("", "PersistentVolumeClaim") => (&["v1"], run::persistent_volume_claim),
        ("batch", "Job") => (&["v1"], run::job),
        ("batch", "CronJob") => (ANY, cron_job::cron_job),
        ("argoproj.io", "Workflow") => (ANY, run::workflow),
        ("policy", "PodDisruptionBudget") => (ANY, policy::pod_disruption_budget),
        ("external-secrets.io", "ExternalSecret") => (ANY, external_secrets::external_secret),
        ("autoscaling", "HorizontalPodAutoscaler") if version == "v1" => (ANY, autoscaling::v1),
        ("autoscaling", "HorizontalPodAutoscaler") => (&["v2"], autoscaling::v2),
        _ => return None,
    };
    Some((versions, assess, version))
}

/// The worst of several healths (None when there is none).
pub fn overall(healths: impl IntoIterator<Item = Health>) -> Option<Health> {
    healths.into_iter().max()
}

/// Marked for deletion and not held by Argo CD's hook finalizer.
fn pending_deletion(object: ValueRef) -> bool {
    let held = list(object, &["metadata", "finalizers"])
        .any(|finalizer| finalizer.as_str() == Some(HOOK_FINALIZER));
    !text(object, &["metadata", "deletionTimestamp"]).is_empty() && !held
}

/// `group/version`, or just `version` for the core group.
fn group_version(api_version: &str) -> Option<(&str, &str)> {
    match api_version.split_once('/') {
        None => Some(("", api_version)),
        Some((_, version)) if version.contains('/') => None,
        Some(group_version) => Some(group_version),
    }
}

/// A field that is there and not null: what a Lua check's `~= nil` finds
/// (Argo CD hands a Lua check a JSON null as nil).
fn present<'a>(value: ValueRef<'a>, path: &[&str]) -> Option<ValueRef<'a>> {
    value.at(path).filter(|value| !value.is_null())
}

/// A string field; "" when absent or not a string.
fn text<'a>(value: ValueRef<'a>, path: &[&str]) -> &'a str {
    value.at(path).and_then(ValueRef::as_str).unwrap_or("")
}

/// A boolean field; false when absent or not a boolean.
fn flag(value: ValueRef, path: &[&str]) -> bool {
    value.at(path).and_then(ValueRef::as_bool).unwrap_or(false)
}

/// An optional integer field (a pointer in Kubernetes' Go types).
fn integer(value: ValueRef, path: &[&str]) -> Option<i64> {
    let value = value.at(path)?;
    value.as_i64().or_else(|| {
        let float = value.as_f64()?;
        // Integral floats only, and within i64 (the cast saturates anyway).
        (float.fract() == 0.0 && float.abs() < 9.0e18).then_some(float as i64)
    })
}

/// A counter; 0 when absent or not an integer.
fn count(value: ValueRef, path: &[&str]) -> i64 {
    integer(value, path).unwrap_or(0)
}

/// A list field's items; none when absent or not a list.
fn list<'a>(value: ValueRef<'a>, path: &[&str]) -> Items<'a> {
    value.at(path).map_or_else(Items::none, ValueRef::items)
}

/// The first of `status.conditions` of the given type.
fn condition<'a>(object: ValueRef<'a>, kind: &str) -> Option<ValueRef<'a>> {
    list(object, &["status", "conditions"]).find(|condition| text(*condition, &["type"]) == kind)
}

/// `metadata.generation` is ahead of `status.observedGeneration`: the
/// controller has not seen the latest spec yet.
fn spec_unobserved(object: ValueRef) -> bool {
    count(object, &["metadata", "generation"]) > count(object, &["status", "observedGeneration"])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn deployment(spec: Value, status: Value) -> Value {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web", "generation": 2},
            "spec": spec,
            "status": status,
        })
    }

    fn synced(available: i64) -> Value {
        json!({
            "observedGeneration": 2, "replicas": 3, "updatedReplicas": 3,
            "readyReplicas": available, "availableReplicas": available,
        })
    }

    #[test]
    fn a_synced_deployment_with_all_replicas_available_is_healthy() {
        let object = deployment(json!({"replicas": 3}), synced(3));
        assert_eq!(health(&object), Some(Health::Healthy));
    }

    #[test]
    fn a_crash_looping_deployment_past_its_progress_deadline_is_degraded() {
        let mut status = synced(0);
        status["conditions"] = json!([
            {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"},
            {"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"},
        ]);
        let object = deployment(json!({"replicas": 3}), status);
        assert_eq!(health(&object), Some(Health::Degraded));
    }

    #[test]
    fn a_crash_looping_deployment_within_its_deadline_is_still_progressing() {
        // Argo CD only calls it Degraded once the deadline has passed.
        let object = deployment(json!({"replicas": 3}), synced(0));
        assert_eq!(health(&object), Some(Health::Progressing));
    }

    #[test]
    fn a_paused_deployment_is_suspended() {
        let object = deployment(json!({"replicas": 3, "paused": true}), synced(0));
        assert_eq!(health(&object), Some(Health::Suspended));
    }

    #[test]
    fn an_unobserved_generation_is_progressing() {
        let mut status = synced(3);
        status["observedGeneration"] = json!(1);
        let object = deployment(json!({"replicas": 3}), status);
        assert_eq!(health(&object), Some(Health::Progressing));
    }

    #[test]
    fn overall_picks_the_worst() {
        use Health::*;
        assert_eq!(overall([Healthy, Degraded, Progressing]), Some(Degraded));
        assert_eq!(overall([Suspended, Healthy]), Some(Suspended));
        assert_eq!(overall([Missing, Progressing]), Some(Missing));
        assert_eq!(overall([Degraded, Unknown]), Some(Unknown));
        assert_eq!(overall([]), None);
    }

    #[test]
    fn the_order_is_gitops_engines_health_order() {
        use Health::*;
        let order = [Healthy, Suspended, Progressing, Missing, Degraded, Unknown];
        assert!(order.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn odd_input_gives_a_sensible_answer() {
        // A status that is a string is no status: nothing observed yet.
        let object = deployment(json!({"replicas": 3}), json!("running"));
        assert_eq!(health(&object), Some(Health::Progressing));
        // Wanted replicas that are a string count as unset: the rest decides.
        let object = deployment(json!({"replicas": "3"}), synced(3));
        assert_eq!(health(&object), Some(Health::Healthy));
        // A counter that is a string counts as 0: none available yet.
        let mut status = synced(3);
        status["availableReplicas"] = json!("3");
        let object = deployment(json!({"replicas": 3}), status);
        assert_eq!(health(&object), Some(Health::Progressing));
        let object = deployment(json!("spec"), json!({"observedGeneration": "2"}));
        assert_eq!(health(&object), Some(Health::Progressing));
        // No kind, or no object at all: nothing to assess.
        for odd in [json!(null), json!("Deployment"), json!([1, 2]), json!({})] {
            assert_eq!(health(&odd), None);
        }
        let object = json!({"apiVersion": "apps/v1/x", "kind": "Deployment"});
        assert_eq!(health(&object), None);
    }

    #[test]
    fn odd_input_of_every_kind_never_panics() {
        let kinds = [
            ("apps/v1", "Deployment"),
            ("apps/v1", "StatefulSet"),
            ("apps/v1", "ReplicaSet"),
            ("apps/v1", "DaemonSet"),
            ("v1", "Pod"),
            ("v1", "Service"),
            ("networking.k8s.io/v1", "Ingress"),
            ("apiregistration.k8s.io/v1", "APIService"),
            ("v1", "PersistentVolumeClaim"),
            ("batch/v1", "Job"),
            ("batch/v1", "CronJob"),
            ("argoproj.io/v1alpha1", "Workflow"),
            ("policy/v1", "PodDisruptionBudget"),
            ("external-secrets.io/v1", "ExternalSecret"),
            ("autoscaling/v1", "HorizontalPodAutoscaler"),
            ("autoscaling/v2", "HorizontalPodAutoscaler"),
        ];
        let odd = [
            json!(null),
            json!(7),
            json!("x"),
            json!([null, 1, "a", {"type": 3}]),
            json!({"conditions": "x", "containerStatuses": [1], "loadBalancer": 2}),
            json!({"metadata": {"annotations": {
                "autoscaling.alpha.kubernetes.io/conditions": "[{\"type\": 1}, 2, null]"
            }}}),
        ];
        for (api_version, kind) in kinds {
            for value in &odd {
                let object = json!({
                    "apiVersion": api_version, "kind": kind,
                    "metadata": value, "spec": value, "status": value,
                });
                assert!(health(&object).is_some(), "{kind}");
            }
        }
    }

    #[test]
    fn an_object_pending_deletion_is_progressing_whatever_its_kind() {
        let object = json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"deletionTimestamp": "2024-01-01T00:00:00Z"},
        });
        assert_eq!(health(&object), Some(Health::Progressing));
        let held = json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {
                "deletionTimestamp": "2024-01-01T00:00:00Z",
                "finalizers": [HOOK_FINALIZER],
            },
        });
        assert_eq!(health(&held), None);
    }

    #[test]
    fn a_known_kind_in_an_unknown_version_is_unknown() {
        let object = json!({"apiVersion": "apps/v1beta2", "kind": "Deployment"});
        assert_eq!(health(&object), Some(Health::Unknown));
    }
}
