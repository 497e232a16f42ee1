//! How an apply patches an object, which decides how its lists merge and
//! compare. kubectl's apply (`Patcher.patchSimple`,
//! k8s.io/kubectl/pkg/cmd/apply/patcher.go) sends a strategic merge patch for
//! a kind that takes one (the server's OpenAPI says so, or client-go's scheme
//! has its type), which merges the items of some lists by a key (containers
//! by `name`, ...), and otherwise a JSON merge patch (RFC 7386,
//! `buildMergePatch`), which replaces a list whole: so it patches a custom
//! resource. gitops-engine's diff predicts the live object the same way, by
//! client-go's scheme (`threeWayMergePatch`, pkg/diff/diff.go).

use crate::state::kinds::is_typed;
use crate::value::{Kind, ValueRef};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Patch {
    /// Lists merged by their keys (`merge_key`), other lists replaced.
    StrategicMerge,
    /// Every list replaced whole.
    JsonMerge,
}

impl Patch {
    /// The patch an apply of `object` sends.
    pub fn of<'a>(object: impl Into<ValueRef<'a>>) -> Patch {
        if is_typed(object) {
            Patch::StrategicMerge
        } else {
            Patch::JsonMerge
        }
    }

    /// The field by which this patch merges the items of the list at
    /// `field`; none when it replaces the list.
    pub fn merge_key(self, field: &str, items: &[ValueRef]) -> Option<&'static str> {
        match self {
            Patch::StrategicMerge => merge_key(field, items),
            Patch::JsonMerge => None,
        }
    }
}

/// The field by which Kubernetes merges the items of a list (strategic merge
/// patch), when the list is one of those it merges by key and every item
/// has that field as a string or a number. A key of another type (an object
/// as a container's name) is one the API server refuses; such a list is
/// compared and written whole, so what is applied is what is compared next.
pub fn merge_key(field: &str, items: &[ValueRef]) -> Option<&'static str> {
    let key = match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets" => "name",
        "volumeMounts" => "mountPath",
        "volumeDevices" => "devicePath",
        "hostAliases" => "ip",
        "ports" if items.iter().all(|item| item.get("containerPort").is_some()) => "containerPort",
        "ports" => "port",
        _ => return None,
    };
    items
        .iter()
        .all(|item| item.get(key).is_some_and(|id| matches!(id.kind(), Kind::String | Kind::Number)))
        .then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn own_kinds_merge_lists_by_key_and_custom_resources_replace_them() {
        let sidecar = json!({"name": "proxy"});
        let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment"});
        let rollout = json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout"});
        assert_eq!(
            Patch::of(&deployment).merge_key("containers", &[ValueRef::from(&sidecar)]),
            Some("name")
        );
        assert_eq!(
            Patch::of(&rollout).merge_key("containers", &[ValueRef::from(&sidecar)]),
            None
        );
    }
}
