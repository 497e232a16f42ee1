//! How an apply patches an object, which decides how its lists merge and
//! compare. kubectl's apply (`Patcher.patchSimple`,
//! k8s.io/kubectl/pkg/cmd/apply/patcher.go) sends a strategic merge patch for
//! a kind that takes one (the server's OpenAPI says so, or client-go's scheme
//! has its type), which merges the items of some lists by a key (containers
//! by `name`, ...), and otherwise a JSON merge patch (RFC 7386,
//! `buildMergePatch`), which replaces a list whole: so it patches a custom
//! resource. gitops-engine's diff predicts the live object the same way, by
//! client-go's scheme (`threeWayMergePatch`, pkg/diff/diff.go).

use crate::diff::normalize::LAST_APPLIED;
use crate::state::kinds::is_typed;
use crate::value::{Kind, ValueRef};
use serde_json::{Map, Value};

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

/// What a patch of `desired` writes over `live` (the field `field` of its
/// object): objects merged field by field, a field Git set before (per
/// `last`, the last-applied record) and has since removed deleted, a null in
/// Git deleting its field, lists merged by key (`merge_key`) or replaced whole,
/// and anything else replaced. A server-side apply writes what a patch
/// without a record writes (`diff::ssa`).
pub fn merged(desired: &Value, live: &Value, last: Option<&Value>, field: &str, patch: Patch) -> Value {
    match (desired, live) {
        (Value::Object(want), Value::Object(have)) => {
            // Git removed a field it set before: the merge deletes it.
            let removed = |name: &String| {
                name != LAST_APPLIED
                    && !want.contains_key(name)
                    && last
                        .and_then(Value::as_object)
                        .is_some_and(|before| before.contains_key(name))
            };
            // Null in Git deletes the field, as `kubectl apply` reads it.
            let deleted = |name: &String| want.get(name).is_some_and(Value::is_null);
            // The live fields in their order, merged where Git sets them, then the
            // fields Git sets that the cluster does not have.
            let mut result: Map<String, Value> = have
                .iter()
                .filter(|(name, _)| !removed(name) && !deleted(name))
                .map(|(name, current)| {
                    let merged = match want.get(name) {
                        Some(value) => {
                            merged(value, current, last.and_then(|l| l.get(name)), name, patch)
                        }
                        None => current.clone(),
                    };
                    (name.clone(), merged)
                })
                .collect();
            let added = want
                .iter()
                .filter(|(name, value)| !have.contains_key(*name) && !value.is_null());
            for (name, value) in added {
                result.insert(name.clone(), value.clone());
            }
            Value::Object(result)
        }
        (Value::Array(want), Value::Array(have)) => {
            let before = last
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let all: Vec<ValueRef> = want.iter().chain(have).chain(before).map(ValueRef::from).collect();
            match patch.merge_key(field, &all) {
                Some(key) => merge_keyed_list(key, want, have, before, patch),
                None => desired.clone(),
            }
        }
        _ => desired.clone(),
    }
}

/// Desired items merged with their live counterparts, then the live items
/// that Git never set (injected by the cluster).
fn merge_keyed_list(
    key: &str,
    want: &[Value],
    have: &[Value],
    before: &[Value],
    patch: Patch,
) -> Value {
    let find =
        |items: &[Value], id: Option<&Value>| items.iter().position(|item| item.get(key) == id);
    let mut items: Vec<Value> = want
        .iter()
        .map(|item| match find(have, item.get(key)) {
            Some(at) => merged(
                item,
                &have[at],
                find(before, item.get(key)).map(|b| &before[b]),
                "",
                patch,
            ),
            None => item.clone(),
        })
        .collect();
    let injected = have.iter().filter(|item| {
        find(want, item.get(key)).is_none() && find(before, item.get(key)).is_none()
    });
    items.extend(injected.cloned());
    Value::Array(items)
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