//! Which live objects belong to the application: Argo CD's resource
//! tracking by annotation, its default since 3.0. Every object a sync
//! applies carries `argocd.argoproj.io/tracking-id:
//! <application>:<group>/<kind>:<namespace>/<name>` (util/argo/
//! resource_tracking.go, `BuildAppInstanceValue`; Argo CD sets it on the
//! target objects before comparing, controller/state.go `SetAppInstance`).
//! A live object Git does not declare is the application's, and so extra,
//! only when it carries its own tracking id (`isSelfReferencedObj`: an id
//! copied onto another object does not count); anything else in the
//! cluster, such as a pod started by hand or the `kube-root-ca.crt`
//! ConfigMap Kubernetes puts in every namespace, is not managed: neither
//! drift nor pruned. Flux does the same with its inventory and its
//! `kustomize.toolkit.fluxcd.io/name` labels.

use crate::state::meta::{annotation, set_in_metadata};
use crate::state::namespace::{namespace_of, DESTINATION_NAMESPACE};
use crate::state::string_maps::non_strings;
use crate::value::{ValueCow, ValueRef};
use serde_json::Value;

pub const TRACKING_ID: &str = "argocd.argoproj.io/tracking-id";

/// The tracking id of `object` in `application`.
pub fn tracking_id<'a>(application: &str, object: impl Into<ValueRef<'a>>) -> String {
    let identity = Identity::of(object.into());
    // A cluster-scoped object's id names the destination namespace.
    let namespace = identity.namespace.unwrap_or(DESTINATION_NAMESPACE);
    format!(
        "{application}:{}/{}:{namespace}/{}",
        identity.group, identity.kind, identity.name
    )
}

/// Why Argo CD's repo server cannot stamp its tracking id on `object`, as
/// the application's `ComparisonError` says it: it reads every annotation as
/// a string first (reposerver `GenerateManifests` → `SetAppInstance` →
/// `RemoveAnnotation`, apimachinery `NestedStringMap`), and a value YAML
/// read as a number or a boolean fails the whole manifest. Never for a
/// CustomResourceDefinition, which it does not stamp. With the pointer of
/// the value.
pub fn tracking_error(object: &Value) -> Option<(String, String)> {
    let text = |field: &str| object.get(field).and_then(Value::as_str).unwrap_or_default();
    let kind = text("kind");
    if matches!(kind, "" | "CustomResourceDefinition") {
        return None;
    }
    let found = non_strings(object.into()).into_iter().find(|found| found.go_field == "ObjectMeta.metadata.annotations")?;
    let [namespace, name] = ["namespace", "name"].map(|field| object.get("metadata").and_then(|metadata| metadata.get(field)).and_then(Value::as_str).unwrap_or_default());
    let api_version = text("apiVersion");
    let message = format!(
        "failed to set app instance tracking info on manifest: failed to get annotations for {}{}, Kind={kind} {}/{}: \
         .metadata.annotations accessor error: contains non-string value in the map under key \"{}\": {} is of the type {}, expected string",
        if api_version.contains('/') { "" } else { "/" },
        api_version,
        namespace,
        name,
        found.name,
        found.go_text(),
        found.go_type()
    );
    Some((found.pointer(), message))
}

/// `object` with its tracking id in `application` among its annotations.
pub fn with_tracking<'a>(object: impl Into<ValueCow<'a>>, application: &str) -> ValueCow<'a> {
    let object = object.into();
    let id = tracking_id(application, object.view());
    if annotation(object.view(), TRACKING_ID) == Some(id.as_str()) {
        return object;
    }
    let mut tracked = object.into_owned();
    set_in_metadata(&mut tracked, "annotations", TRACKING_ID, Value::String(id));
    ValueCow::Changed(tracked)
}

/// Whether the live `object` carries its own tracking id in `application`.
pub fn is_tracked_by<'a>(object: impl Into<ValueRef<'a>>, application: &str) -> bool {
    let object = object.into();
    let Some(id) = annotation(object, TRACKING_ID) else {
        return false;
    };
    let Some((owner, rest)) = id.split_once(':') else {
        return false;
    };
    let Some((group_kind, namespace_name)) = rest.split_once(':') else {
        return false;
    };
    let (Some((group, kind)), Some((namespace, name))) =
        (group_kind.split_once('/'), namespace_name.split_once('/'))
    else {
        return false;
    };
    let identity = Identity::of(object);
    owner == application
        && identity.namespace.is_none_or(|own| own == namespace)
        && identity.name == name
        && identity.group == group
        && identity.kind == kind
}

/// What a tracking id names of an object.
struct Identity<'a> {
    group: &'a str,
    kind: &'a str,
    namespace: Option<&'a str>,
    name: &'a str,
}

impl<'a> Identity<'a> {
    fn of(object: ValueRef<'a>) -> Self {
        let text = |path: &[&str]| object.at(path).and_then(ValueRef::as_str);
        let api_version = text(&["apiVersion"]).unwrap_or_default();
        Identity {
            group: api_version.rsplit_once('/').map_or("", |(group, _)| group),
            kind: text(&["kind"]).unwrap_or_default(),
            namespace: namespace_of(object),
            name: text(&["metadata", "name"]).unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::borrow::Cow;

    #[test]
    fn an_object_is_tracked_by_its_own_id_only() {
        let web = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}});
        assert_eq!(
            tracking_id("guestbook", &web),
            "guestbook:apps/Deployment:shop/web"
        );
        let tracked = with_tracking(Cow::Borrowed(&web), "guestbook").into_owned();
        assert!(is_tracked_by(&tracked, "guestbook"));
        assert!(!is_tracked_by(&tracked, "other"), "another application's");
        assert!(!is_tracked_by(&web, "guestbook"), "no id");
        let mut copied = tracked.clone();
        copied["metadata"]["name"] = json!("web-copy");
        assert!(
            !is_tracked_by(&copied, "guestbook"),
            "an id copied onto another object"
        );
        let namespace =
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}});
        assert_eq!(
            tracking_id("guestbook", &namespace),
            "guestbook:/Namespace:default/shop"
        );
        let weird = json!({"kind": 3, "metadata": {"annotations": "x"}});
        assert!(is_tracked_by(
            with_tracking(Cow::Borrowed(&weird), "a").view(),
            "a"
        ));
    }
}
