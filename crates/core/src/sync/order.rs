//! The order in which a sync runs its operations, as Argo CD orders them:
//! by sync wave, then by kind, then by name (`syncTasks.Less`). How the
//! waves of deletions are mirrored, and why they run first in their wave,
//! is in `plan.rs`.

use crate::state::hook_annotations::helm_weight;
use crate::state::meta::annotation;
use crate::value::ValueRef;

/// The annotation that puts an object in a sync wave (an integer, default 0).
pub const SYNC_WAVE: &str = "argocd.argoproj.io/sync-wave";

/// Argo CD's kind order (from Helm); kinds not listed come after all of these.
const KIND_ORDER: [&str; 35] = [
    "Namespace",
    "NetworkPolicy",
    "ResourceQuota",
    "LimitRange",
    "PodSecurityPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "Secret",
    "SecretList",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleList",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "Role",
    "RoleList",
    "RoleBinding",
    "RoleBindingList",
    "Service",
    "DaemonSet",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "Job",
    "CronJob",
    "IngressClass",
    "Ingress",
    "APIService",
];

/// The sync wave of an object (gitops-engine's `syncwaves.Wave`): its
/// `argocd.argoproj.io/sync-wave`, else its `helm.sh/hook-weight`, hook or
/// not; a value that is not an integer as Go's `strconv.Atoi` reads one
/// (no space around it) counts as absent, and 0 is the default.
pub fn wave<'a>(object: impl Into<ValueRef<'a>>) -> i64 {
    let object = object.into();
    annotation(object, SYNC_WAVE)
        .and_then(|wave| wave.parse().ok())
        .or_else(|| helm_weight(object))
        .unwrap_or(0)
}

/// Where a kind sorts within a wave: its place in Argo CD's list, unknown
/// kinds (and objects without a kind) last.
pub fn kind_rank<'a>(object: impl Into<ValueRef<'a>>) -> usize {
    kind_rank_of(object.into().get("kind").and_then(ValueRef::as_str).unwrap_or(""))
}

/// Where a kind, by its name, sorts within a wave.
pub fn kind_rank_of(kind: &str) -> usize {
    KIND_ORDER
        .iter()
        .position(|known| *known == kind)
        .unwrap_or(KIND_ORDER.len())
}

/// The name an object sorts by: `metadata.name`, or its key.
pub fn name<'a>(object: impl Into<ValueRef<'a>>, key: &'a str) -> &'a str {
    object
        .into()
        .at(&["metadata", "name"])
        .and_then(ValueRef::as_str)
        .unwrap_or(key)
}

/// The sort key of an operation on `object` at `key` in wave `wave`.
pub fn sort_key<'a>(
    wave: i64,
    object: impl Into<ValueRef<'a>>,
    key: &'a str,
) -> (i64, usize, &'a str, &'a str) {
    let object = object.into();
    (wave, kind_rank(object), name(object, key), key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_wave_is_read_as_gitops_engines_wave_reads_it() {
        let weighted = |annotations| wave(&json!({"annotations": annotations}));
        assert_eq!(weighted(json!({"helm.sh/hook-weight": "4"})), 4, "a Helm weight in the lesson's form");
        assert_eq!(
            weighted(json!({SYNC_WAVE: " 2", "helm.sh/hook-weight": "4"})),
            4,
            "strconv.Atoi reads no space: the wave falls back to the weight"
        );
        assert_eq!(weighted(json!({SYNC_WAVE: "+2"})), 2);
    }

    #[test]
    fn waves_are_read_from_the_annotation() {
        let object = json!({"metadata": {"annotations": {SYNC_WAVE: "-2"}}});
        assert_eq!(wave(&object), -2);
        assert_eq!(
            wave(&json!({"annotations": {SYNC_WAVE: "3"}})),
            3,
            "the lesson's form"
        );
        assert_eq!(
            wave(&json!({"metadata": {"annotations": {SYNC_WAVE: "soon"}}})),
            0
        );
        assert_eq!(wave(&json!({})), 0);
        let weighted = |annotations| wave(&json!({"metadata": {"annotations": annotations}}));
        assert_eq!(
            weighted(json!({"helm.sh/hook-weight": "-3"})),
            -3,
            "Helm's weight"
        );
        assert_eq!(
            weighted(json!({SYNC_WAVE: "soon", "helm.sh/hook-weight": "4"})),
            4,
            "a sync wave that does not read leaves the weight"
        );
        assert_eq!(
            weighted(json!({SYNC_WAVE: "1", "helm.sh/hook-weight": "4"})),
            1
        );
    }

    #[test]
    fn kinds_follow_argo_cds_order_with_unknown_kinds_last() {
        let rank = |kind: &str| kind_rank(&json!({"kind": kind}));
        assert!(rank("Namespace") < rank("Secret"));
        assert!(rank("Service") < rank("Deployment"));
        assert!(rank("CustomResourceDefinition") < rank("Certificate"));
        assert_eq!(rank("Certificate"), kind_rank(&json!({"image": "web"})));
    }
}
