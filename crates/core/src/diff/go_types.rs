//! What reading an object as its Go type changes in how its values are
//! written. gitops-engine's diff reads both the desired and the live object
//! of a kind client-go's scheme types as that type, and writes it back, before
//! comparing them (`remarshal`, pkg/diff/diff.go); the API server stores
//! what it is sent the same way. The playground models the part that makes
//! equal values look different: fields Kubernetes types as a
//! `resource.Quantity` compare by their canonical text (`quantity.rs`), so
//! `cpu: 1` and `cpu: 1000m` are the same. Custom resources are compared as
//! written, as Argo CD compares them.

use crate::diff::quantity::canonical_value;
use crate::pointer::Step;
use crate::value::ValueRef;

/// Whether `desired` and `live` at `path` of an object of `kind` (a kind
/// client-go's scheme types) are the same once read as their Go type: both
/// quantities that write the same text.
pub fn same_once_typed(kind: &str, path: &[Step], desired: ValueRef, live: ValueRef) -> bool {
    if !is_quantity(kind, path) {
        return false;
    }
    match (canonical_value(desired), canonical_value(live)) {
        (Some(desired), Some(live)) => desired == live,
        _ => false,
    }
}

/// One segment of a place: a field name, any of a few (`a|b`), or `*` for
/// any field or list item.
type Place = &'static [&'static str];

/// Where a pod spec holds quantities (`core/v1.PodSpec`).
const IN_POD_SPEC: [Place; 8] = [
    &[
        "containers|initContainers|ephemeralContainers",
        "*",
        "resources",
        "limits|requests",
        "*",
    ],
    &[
        "containers|initContainers|ephemeralContainers",
        "*",
        "env",
        "*",
        "valueFrom",
        "resourceFieldRef",
        "divisor",
    ],
    &["resources", "limits|requests", "*"],
    &["overhead", "*"],
    &["volumes", "*", "emptyDir", "sizeLimit"],
    &[
        "volumes",
        "*",
        "ephemeral",
        "volumeClaimTemplate",
        "spec",
        "resources",
        "limits|requests",
        "*",
    ],
    &[
        "volumes",
        "*",
        "downwardAPI",
        "items",
        "*",
        "resourceFieldRef",
        "divisor",
    ],
    &[
        "volumes",
        "*",
        "projected",
        "sources",
        "*",
        "downwardAPI",
        "items",
        "*",
        "resourceFieldRef",
        "divisor",
    ],
];

/// Where a claim's spec holds quantities (`core/v1.PersistentVolumeClaimSpec`).
const IN_CLAIM_SPEC: [Place; 1] = [&["resources", "limits|requests", "*"]];

/// Where each kind keeps a pod spec.
const POD_SPECS: [(&str, Place); 9] = [
    ("Pod", &["spec"]),
    ("PodTemplate", &["template", "spec"]),
    ("Deployment", &["spec", "template", "spec"]),
    ("ReplicaSet", &["spec", "template", "spec"]),
    ("StatefulSet", &["spec", "template", "spec"]),
    ("DaemonSet", &["spec", "template", "spec"]),
    ("ReplicationController", &["spec", "template", "spec"]),
    ("Job", &["spec", "template", "spec"]),
    (
        "CronJob",
        &["spec", "jobTemplate", "spec", "template", "spec"],
    ),
];

/// Where each kind keeps a claim's spec.
const CLAIM_SPECS: [(&str, Place); 2] = [
    ("PersistentVolumeClaim", &["spec"]),
    (
        "StatefulSet",
        &["spec", "volumeClaimTemplates", "*", "spec"],
    ),
];

/// The other quantities of Kubernetes' kinds.
const OTHER_QUANTITIES: [(&str, Place); 7] = [
    ("PersistentVolume", &["spec", "capacity", "*"]),
    ("ResourceQuota", &["spec", "hard", "*"]),
    (
        "LimitRange",
        &[
            "spec",
            "limits",
            "*",
            "max|min|default|defaultRequest|maxLimitRequestRatio",
            "*",
        ],
    ),
    (
        "HorizontalPodAutoscaler",
        &[
            "spec",
            "metrics",
            "*",
            "resource|containerResource|pods|object|external",
            "target",
            "value|averageValue",
        ],
    ),
    (
        "HorizontalPodAutoscaler",
        &["spec", "behavior", "scaleUp|scaleDown", "tolerance"],
    ),
    ("CSIStorageCapacity", &["capacity|maximumVolumeSize"]),
    ("RuntimeClass", &["overhead", "podFixed", "*"]),
];

/// Whether Kubernetes types the field at `path` of an object of `kind` as a
/// quantity (from client-go's schema of its kinds).
pub fn is_quantity(kind: &str, path: &[Step]) -> bool {
    let within = |specs: &[(&str, Place)], inside: &[Place]| {
        specs.iter().any(|(owner, at)| {
            *owner == kind
                && strip_place(path, at)
                    .is_some_and(|rest| inside.iter().any(|place| matches(place, rest)))
        })
    };
    let in_pod_spec = |rest: &[Step]| {
        IN_POD_SPEC.iter().any(|place| matches(place, rest))
            || strip_place(
                rest,
                &["volumes", "*", "ephemeral", "volumeClaimTemplate", "spec"],
            )
            .is_some_and(|claim| IN_CLAIM_SPEC.iter().any(|place| matches(place, claim)))
    };
    POD_SPECS
        .iter()
        .any(|(owner, at)| *owner == kind && strip_place(path, at).is_some_and(in_pod_spec))
        || within(&CLAIM_SPECS, &IN_CLAIM_SPEC)
        || OTHER_QUANTITIES
            .iter()
            .any(|(owner, place)| *owner == kind && matches(place, path))
}

/// The rest of `path` after a place it starts with.
fn strip_place<'p, 's>(path: &'p [Step<'s>], place: Place) -> Option<&'p [Step<'s>]> {
    let (head, rest) = (path.get(..place.len())?, &path[place.len()..]);
    matches(place, head).then_some(rest)
}

fn matches(place: Place, path: &[Step]) -> bool {
    place.len() == path.len()
        && place.iter().zip(path).all(|(segment, step)| match step {
            _ if *segment == "*" => true,
            Step::Field(name) => segment.split('|').any(|field| field == *name),
            Step::Index(_) => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(pointer: &'static str) -> Vec<Step<'static>> {
        pointer
            .split('/')
            .skip(1)
            .map(|segment| match segment.parse() {
                Ok(index) => Step::Index(index),
                Err(_) => Step::Field(segment),
            })
            .collect()
    }

    #[test]
    fn quantities_of_workloads_claims_and_quotas() {
        for (kind, pointer) in [
            (
                "Deployment",
                "/spec/template/spec/containers/0/resources/limits/cpu",
            ),
            ("Pod", "/spec/initContainers/1/resources/requests/memory"),
            (
                "CronJob",
                "/spec/jobTemplate/spec/template/spec/containers/0/resources/requests/cpu",
            ),
            (
                "StatefulSet",
                "/spec/volumeClaimTemplates/0/spec/resources/requests/storage",
            ),
            ("PersistentVolumeClaim", "/spec/resources/requests/storage"),
            ("Pod", "/spec/volumes/0/emptyDir/sizeLimit"),
            (
                "Pod",
                "/spec/volumes/0/ephemeral/volumeClaimTemplate/spec/resources/requests/storage",
            ),
            ("ResourceQuota", "/spec/hard/requests.cpu"),
            ("LimitRange", "/spec/limits/0/defaultRequest/memory"),
            (
                "HorizontalPodAutoscaler",
                "/spec/metrics/0/pods/target/averageValue",
            ),
        ] {
            assert!(is_quantity(kind, &path(pointer)), "{kind} {pointer}");
        }
        for (kind, pointer) in [
            ("Deployment", "/spec/template/spec/containers/0/image"),
            ("Deployment", "/spec/replicas"),
            (
                "Pod",
                "/spec/template/spec/containers/0/resources/limits/cpu",
            ),
            ("ConfigMap", "/data/cpu"),
            ("PersistentVolumeClaim", "/spec/resources"),
        ] {
            assert!(!is_quantity(kind, &path(pointer)), "{kind} {pointer}");
        }
    }

    #[test]
    fn quantities_compare_by_their_canonical_text() {
        let cpu = path("/spec/containers/0/resources/limits/cpu");
        let same = |a, b| same_once_typed("Pod", &cpu, ValueRef::from(&a), ValueRef::from(&b));
        assert!(same(json!("1"), json!("1000m")));
        assert!(same(json!(1), json!("1")));
        assert!(same(json!("0.5"), json!("500m")));
        assert!(same(json!("1Gi"), json!("1024Mi")));
        assert!(
            !same(json!("1Gi"), json!("1073741824")),
            "a binary and a decimal quantity write differently"
        );
        assert!(!same(json!("2"), json!("1")));
        assert!(
            !same(json!("lots"), json!("lots")),
            "not a quantity: compared as written elsewhere"
        );
        assert!(!same_once_typed(
            "ConfigMap",
            &path("/data/cpu"),
            ValueRef::from(&json!("1")),
            ValueRef::from(&json!("1000m"))
        ));
    }
}
