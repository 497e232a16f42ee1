//! Kubernetes' own kinds: the scope the API server serves each at, and
//! whether client-go's scheme has a Go type for it. Any other kind is a
//! custom resource: namespaced, as gitops-engine's `IsNamespacedOrUnknown`
//! (pkg/utils/kube/kube.go) takes a kind that discovery does not know,
//! merged as a JSON merge patch and compared as written.
//!
//! A kind is Kubernetes' own when it is in the table below and its
//! `apiVersion` names one of Kubernetes' groups (the core group, a group
//! without a dot such as `apps`, or one under `k8s.io`), or names none: a
//! custom resource's group always has a dot (`serving.knative.dev`), so a
//! Knative `Service` is not a Service. The version is not checked.

use crate::value::ValueRef;

/// Where the API server serves the objects of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Namespaced,
    Cluster,
}

/// Whether client-go's scheme (`k8s.io/client-go/kubernetes/scheme`, the
/// one kubectl's apply and gitops-engine's diff use) has a Go type for a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scheme {
    TypedText,
    /// Served by the API server but typed elsewhere (apiextensions,
    /// kube-aggregator): gitops-engine's diff handles it as it handles a
    /// custom resource.
    Untyped,
}

use Scheme::{TypedText, Untyped};
use Scope::{Cluster, Namespaced};

/// Kubernetes' own kinds that an application may declare (from client-go's
/// applyconfigurations, which gitops-engine's pkg/utils/kube/scheme/parser.go
/// copies), with their scopes as `kubectl api-resources` lists them.
const OWN_KINDS: [(&str, Scope, Scheme); 62] = [
    ("APIService", Cluster, Untyped),
    ("CSIDriver", Cluster, TypedText),
    ("CSINode", Cluster, TypedText),
    ("CSIStorageCapacity", Namespaced, TypedText),
    ("CertificateSigningRequest", Cluster, TypedText),
    ("ClusterRole", Cluster, TypedText),
    ("ClusterRoleBinding", Cluster, TypedText),
    ("ClusterTrustBundle", Cluster, TypedText),
    ("ComponentStatus", Cluster, TypedText),
    ("ConfigMap", Namespaced, TypedText),
    ("ControllerRevision", Namespaced, TypedText),
    ("CronJob", Namespaced, TypedText),
    ("CustomResourceDefinition", Cluster, Untyped),
    ("DaemonSet", Namespaced, TypedText),
    ("Deployment", Namespaced, TypedText),
    ("DeviceClass", Cluster, TypedText),
    ("EndpointSlice", Namespaced, TypedText),
    ("Endpoints", Namespaced, TypedText),
    ("Event", Namespaced, TypedText),
    ("FlowSchema", Cluster, TypedText),
    ("HorizontalPodAutoscaler", Namespaced, TypedText),
    ("IPAddress", Cluster, TypedText),
    ("Ingress", Namespaced, TypedText),
    ("IngressClass", Cluster, TypedText),
    ("Job", Namespaced, TypedText),
    ("Lease", Namespaced, TypedText),
    ("LimitRange", Namespaced, TypedText),
    ("MutatingAdmissionPolicy", Cluster, TypedText),
    ("MutatingAdmissionPolicyBinding", Cluster, TypedText),
    ("MutatingWebhookConfiguration", Cluster, TypedText),
    ("Namespace", Cluster, TypedText),
    ("NetworkPolicy", Namespaced, TypedText),
    ("Node", Cluster, TypedText),
    ("PersistentVolume", Cluster, TypedText),
    ("PersistentVolumeClaim", Namespaced, TypedText),
    ("Pod", Namespaced, TypedText),
    ("PodDisruptionBudget", Namespaced, TypedText),
    ("PodTemplate", Namespaced, TypedText),
    ("PriorityClass", Cluster, TypedText),
    ("PriorityLevelConfiguration", Cluster, TypedText),
    ("ReplicaSet", Namespaced, TypedText),
    ("ReplicationController", Namespaced, TypedText),
    ("ResourceClaim", Namespaced, TypedText),
    ("ResourceClaimTemplate", Namespaced, TypedText),
    ("ResourceQuota", Namespaced, TypedText),
    ("ResourceSlice", Cluster, TypedText),
    ("Role", Namespaced, TypedText),
    ("RoleBinding", Namespaced, TypedText),
    ("RuntimeClass", Cluster, TypedText),
    ("Secret", Namespaced, TypedText),
    ("Service", Namespaced, TypedText),
    ("ServiceAccount", Namespaced, TypedText),
    ("ServiceCIDR", Cluster, TypedText),
    ("StatefulSet", Namespaced, TypedText),
    ("StorageClass", Cluster, TypedText),
    ("StorageVersion", Cluster, TypedText),
    ("StorageVersionMigration", Cluster, TypedText),
    ("ValidatingAdmissionPolicy", Cluster, TypedText),
    ("ValidatingAdmissionPolicyBinding", Cluster, TypedText),
    ("ValidatingWebhookConfiguration", Cluster, TypedText),
    ("VolumeAttachment", Cluster, TypedText),
    ("VolumeAttributesClass", Cluster, TypedText),
];

/// The scope of the object's kind: Kubernetes' own kinds at theirs, any
/// other kind namespaced.
pub fn scope<'a>(object: impl Into<ValueRef<'a>>) -> Scope {
    own_kind(object.into()).map_or(Namespaced, |(scope, _)| scope)
}

/// Whether client-go's scheme has a Go type for the object's kind.
/// gitops-engine's diff then predicts its apply as a strategic merge patch,
/// which merges lists by their merge keys, where a kind the scheme lacks gets
/// a JSON merge patch, RFC 7386, which replaces lists whole
/// (`threeWayMergePatch`, pkg/diff/diff.go), as kubectl's apply patches a
/// custom resource; and it reads the object as that type before comparing
/// (`remarshal`), which writes its quantities canonically.
pub fn is_typed<'a>(object: impl Into<ValueRef<'a>>) -> bool {
    own_kind(object.into()).is_some_and(|(_, scheme)| scheme == TypedText)
}

fn own_kind(object: ValueRef) -> Option<(Scope, Scheme)> {
    let kind = object.get("kind")?.as_str()?;
    if !in_kubernetes_group(object) {
        return None;
    }
    let at = OWN_KINDS
        .binary_search_by(|(own, _, _)| own.cmp(&kind))
        .ok()?;
    let (_, scope, scheme) = OWN_KINDS[at];
    Some((scope, scheme))
}

/// Whether the object's `apiVersion` names one of Kubernetes' groups, or no
/// group at all.
fn in_kubernetes_group(object: ValueRef) -> bool {
    let Some(api_version) = object.get("apiVersion").and_then(ValueRef::as_str) else {
        return true;
    };
    match api_version.rsplit_once('/') {
        None => true,
        Some((group, _)) => !group.contains('.') || group.ends_with(".k8s.io"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_table_is_sorted_for_its_search() {
        assert!(OWN_KINDS.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }

    #[test]
    fn scopes_of_own_and_custom_kinds() {
        let scope_of = |api_version: &str, kind: &str| {
            scope(&json!({"apiVersion": api_version, "kind": kind}))
        };
        assert_eq!(scope_of("v1", "Namespace"), Cluster);
        assert_eq!(
            scope_of("rbac.authorization.k8s.io/v1", "ClusterRole"),
            Cluster
        );
        assert_eq!(
            scope_of("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
            Cluster
        );
        assert_eq!(scope_of("apps/v1", "Deployment"), Namespaced);
        assert_eq!(
            scope_of("cert-manager.io/v1", "ClusterIssuer"),
            Namespaced,
            "unknown: namespaced"
        );
        assert_eq!(
            scope(&json!({"kind": "Node"})),
            Cluster,
            "no apiVersion: by kind"
        );
    }

    #[test]
    fn a_custom_resource_named_like_an_own_kind_is_custom() {
        let knative = json!({"apiVersion": "serving.knative.dev/v1", "kind": "Service"});
        assert!(!is_typed(&knative));
        assert!(is_typed(&json!({"apiVersion": "v1", "kind": "Service"})));
        assert!(is_typed(
            &json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress"})
        ));
        assert!(!is_typed(
            &json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition"})
        ));
        assert!(!is_typed(
            &json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout"})
        ));
        assert!(!is_typed(&json!({"image": "web:1"})), "the lesson's form");
    }
}
