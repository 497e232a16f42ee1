//! What an apply writes: the object a key holds after a create or an update.
//!
//! In the lesson's form an update writes the desired object. For Kubernetes
//! objects it is a three-way merge, as `kubectl apply` does: the desired
//! fields are written over the live object, fields Git set before (per the
//! last-applied record) and has since removed are deleted, fields only the
//! cluster set are kept, and the applied object is recorded. Lists merge as
//! the apply's patch merges them (`Patch`): by their keys in Kubernetes' own
//! kinds (a strategic merge patch), replaced whole in a custom resource (a
//! JSON merge patch, RFC 7386). In both forms,
//! ignored fields and fields the cluster writes keep their live values, and a
//! Kubernetes object gets what the API server defaults (`with_api_server_defaults`).

use crate::diff::normalize::{with_last_applied, Mode, SERVER_WRITTEN};
use crate::agent::{Agent, Owner};
use crate::diff::ignore::keep_live;
use crate::diff::ssa::{argo_applies_server_side, argo_apply, flux_apply};
use crate::diff::patch::{merged, Patch};
use crate::pointer::Pattern;
use crate::state::defaults::with_api_server_defaults;
use crate::value::ValueRef;
use serde_json::Value;

/// The object a create by `owner`'s agent writes: Flux's forced server-side
/// apply of a Kubernetes object (`flux_apply`), Argo CD's where it applies
/// server-side (`argo_apply`), `created` otherwise.
pub fn created_by<'a>(owner: Option<Owner>, desired: impl Into<ValueRef<'a>>, mode: Mode) -> Value {
    let desired = desired.into();
    match (mode, owner.map(|owner| owner.agent)) {
        (Mode::Kubernetes, Some(Agent::Flux)) => flux_apply(None, &desired.to_value()).object,
        (Mode::Kubernetes, _) if argo_applies_server_side(owner, desired) => argo_apply(None, &desired.to_value()).object,
        _ => created(desired, mode),
    }
}

/// The object a create writes.
pub fn created<'a>(desired: impl Into<ValueRef<'a>>, mode: Mode) -> Value {
    let desired = desired.into();
    match mode {
        Mode::Exact => desired.to_value(),
        Mode::Kubernetes => {
            let mut object = desired.to_value();
            with_api_server_defaults(&mut object);
            with_last_applied(object, desired)
        }
    }
}

/// The object an update writes over `live`.
pub fn updated(
    desired: &Value,
    live: &Value,
    last_applied: Option<&Value>,
    mode: Mode,
    ignored: &[&Pattern],
) -> Value {
    let mut result = match mode {
        Mode::Exact => desired.clone(),
        Mode::Kubernetes => merged(desired, live, last_applied, "", Patch::of(desired)),
    };
    for pattern in ignored {
        let segments: Vec<Option<&str>> = pattern.segments().collect();
        keep_live(&mut result, Some(live), &segments);
    }
    match mode {
        Mode::Exact => result,
        Mode::Kubernetes => with_last_applied(with_what_the_cluster_writes(result, live), desired),
    }
}

/// `written` with the live values of what the cluster writes itself
/// (`SERVER_WRITTEN`) and what the API server defaults.
pub(crate) fn with_what_the_cluster_writes(mut written: Value, live: &Value) -> Value {
    for fields in SERVER_WRITTEN {
        let segments: Vec<Option<&str>> = fields.iter().copied().map(Some).collect();
        keep_live(&mut written, Some(live), &segments);
    }
    with_api_server_defaults(&mut written);
    written
}



#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::normalize::last_applied;
    use serde_json::json;

    #[test]
    fn null_in_git_deletes_the_field_and_is_never_written() {
        let result = updated(
            &json!({"kind": "ConfigMap", "data": {"a": null, "b": "1", "c": null}}),
            &json!({"kind": "ConfigMap", "data": {"a": "x", "b": "0"}}),
            None,
            Mode::Kubernetes,
            &[],
        );
        assert_eq!(result["data"], json!({"b": "1"}));
    }

    #[test]
    fn the_lesson_form_writes_desired_but_keeps_ignored_fields() {
        let pattern = Pattern::parse("/replicas").unwrap();
        let result = updated(
            &json!({"image": "web:2", "replicas": 2}),
            &json!({"image": "web:1", "replicas": 5}),
            None,
            Mode::Exact,
            &[&pattern],
        );
        assert_eq!(result, json!({"image": "web:2", "replicas": 5}));
    }

    #[test]
    fn an_ignored_field_absent_live_stays_absent() {
        let pattern = Pattern::parse("/replicas").unwrap();
        let result = updated(
            &json!({"image": "web:2", "replicas": 2}),
            &json!({"image": "web:1"}),
            None,
            Mode::Exact,
            &[&pattern],
        );
        assert_eq!(result, json!({"image": "web:2"}));
    }

    #[test]
    fn kubernetes_updates_merge_three_ways_and_record_what_they_applied() {
        let desired = json!({"kind": "Deployment", "metadata": {"name": "web", "labels": {"app": "web"}}, "spec": {"replicas": 3}});
        let before = json!({"kind": "Deployment", "metadata": {"name": "web", "labels": {"app": "web", "tier": "front"}}, "spec": {"replicas": 2}});
        let live = with_last_applied(
            json!({
                "kind": "Deployment",
                "metadata": {"name": "web", "uid": "u1", "labels": {"app": "web", "tier": "front", "pod-template-hash": "h"}},
                "spec": {"replicas": 2, "revisionHistoryLimit": 10},
                "status": {"readyReplicas": 2}
            }),
            &before,
        );
        let result = updated(&desired, &live, Some(&before), Mode::Kubernetes, &[]);
        assert_eq!(
            result["metadata"]["labels"],
            json!({"app": "web", "pod-template-hash": "h"}),
            "tier was removed from Git"
        );
        assert_eq!(result["metadata"]["uid"], "u1");
        assert_eq!(
            result["spec"],
            json!({"replicas": 3, "revisionHistoryLimit": 10})
        );
        assert_eq!(result["status"], json!({"readyReplicas": 2}));
        assert_eq!(last_applied(&result), Some(desired));
    }

    #[test]
    fn injected_list_items_survive_an_update() {
        let desired =
            json!({"kind": "Pod", "spec": {"containers": [{"name": "app", "image": "web:2"}]}});
        let live = json!({"kind": "Pod", "spec": {"containers": [{"name": "app", "image": "web:1"}, {"name": "sidecar", "image": "proxy"}]}});
        let result = updated(&desired, &live, None, Mode::Kubernetes, &[]);
        assert_eq!(
            result["spec"]["containers"],
            json!([{"name": "app", "image": "web:2"}, {"name": "sidecar", "image": "proxy"}])
        );
    }

    #[test]
    fn wildcard_ignores_keep_every_matching_live_value() {
        let pattern = Pattern::parse("/containers/*/image").unwrap();
        let desired = json!({"containers": [{"name": "a", "image": "web:2"}, {"name": "b", "image": "db:2"}]});
        let live = json!({"containers": [{"name": "a", "image": "web:1"}, {"name": "b", "image": "db:1"}]});
        let result = updated(&desired, &live, None, Mode::Exact, &[&pattern]);
        assert_eq!(result, live);
    }
}
