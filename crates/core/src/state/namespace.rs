//! The namespace an object lands in. Argo CD's `NormalizeTargetObjects`
//! (controller/state.go) puts a namespaced object that names no namespace in
//! the application's destination namespace and takes the namespace off a
//! cluster-scoped one; `kubectl apply` puts the first in the context's
//! namespace, `default` unless set. A scenario's `namespace` option is the
//! destination (`placed_in`); without one it is `default`.

use crate::state::kinds::{scope, Scope};
use crate::value::{ValueCow, ValueRef};
use serde_json::Value;

/// Where a namespaced object that names no namespace lands.
pub const DESTINATION_NAMESPACE: &str = "default";

/// The namespace a Kubernetes object lands in: none for a cluster-scoped
/// kind (whatever it names), else its `metadata.namespace`, or the
/// destination namespace when it names none (or an empty one). None for an
/// object without a `kind` (the lesson's form).
pub fn namespace_of<'a>(object: impl Into<ValueRef<'a>>) -> Option<&'a str> {
    let object = object.into();
    object.get("kind")?.as_str()?;
    if scope(object) == Scope::Cluster {
        return None;
    }
    let written = object
        .at(&["metadata", "namespace"])
        .and_then(ValueRef::as_str)
        .filter(|namespace| !namespace.is_empty());
    Some(written.unwrap_or(DESTINATION_NAMESPACE))
}

/// `object` placed in an application's destination namespace `destination`,
/// as Argo CD's `NormalizeTargetObjects` sets it: a namespaced object that
/// names no namespace (or an empty one) gets it. None for any other object.
pub fn placed_in(object: &Value, destination: &str) -> Option<Value> {
    object.get("kind")?.as_str()?;
    let written = object.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or_default();
    if scope(object) == Scope::Cluster || !written.is_empty() {
        return None;
    }
    let mut placed = object.clone();
    placed.get_mut("metadata")?.as_object_mut()?.insert("namespace".into(), Value::from(destination));
    Some(placed)
}

/// The object with the namespace it lands in written in its metadata, as
/// Argo CD compares and applies it: the destination namespace added, a
/// cluster-scoped object's namespace taken off. The object itself when it
/// already says where it lands.
pub fn in_destination<'a>(object: impl Into<ValueRef<'a>>) -> ValueCow<'a> {
    let object = object.into();
    let lands_in = namespace_of(object);
    let written = object.at(&["metadata", "namespace"]);
    let says = match (written, lands_in) {
        (None, None) => true,
        (Some(written), None) => written.is_null(),
        (Some(written), Some(lands_in)) => written.as_str() == Some(lands_in),
        (None, Some(_)) => false,
    };
    if says || object.get("kind").is_none() {
        return ValueCow::Same(object);
    }
    let mut placed = object.to_value();
    let Some(metadata) = placed.get_mut("metadata").and_then(Value::as_object_mut) else {
        return ValueCow::Same(object);
    };
    match lands_in {
        Some(namespace) => {
            metadata.shift_remove("namespace");
            let after_name = metadata.keys().position(|field| field == "name");
            let at = after_name.map_or(0, |at| at + 1);
            metadata.shift_insert(at, "namespace".into(), Value::from(namespace));
        }
        None => {
            metadata.shift_remove("namespace");
        }
    }
    ValueCow::Changed(placed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_namespaced_object_without_a_namespace_lands_in_the_destination() {
        let web = json!({"kind": "Deployment", "metadata": {"name": "web", "labels": {}}});
        assert_eq!(namespace_of(&web), Some("default"));
        assert_eq!(
            in_destination(&web).into_owned(),
            json!({"kind": "Deployment", "metadata": {"name": "web", "namespace": "default", "labels": {}}})
        );
        let empty = json!({"kind": "Service", "metadata": {"name": "web", "namespace": ""}});
        assert_eq!(
            in_destination(&empty).into_owned()["metadata"]["namespace"],
            "default"
        );
        let shop = json!({"kind": "Service", "metadata": {"name": "web", "namespace": "shop"}});
        assert!(in_destination(&shop).is_same());
        assert_eq!(namespace_of(&shop), Some("shop"));
    }

    #[test]
    fn a_cluster_scoped_object_is_in_no_namespace() {
        let role =
            json!({"kind": "ClusterRole", "metadata": {"name": "view", "namespace": "shop"}});
        assert_eq!(namespace_of(&role), None);
        assert_eq!(
            in_destination(&role).into_owned(),
            json!({"kind": "ClusterRole", "metadata": {"name": "view"}})
        );
        let shop = json!({"kind": "Namespace", "metadata": {"name": "shop"}});
        assert!(in_destination(&shop).is_same());
    }

    #[test]
    fn the_lesson_form_has_no_namespace() {
        let web = json!({"image": "web:1", "metadata": {}});
        assert_eq!(namespace_of(&web), None);
        assert!(in_destination(&web).is_same());
    }
}
