use super::*;
use serde_json::json;

fn exact(desired: Value, live: Value) -> Vec<Change> {
    changes(
        &desired,
        &live,
        None,
        Rules {
            mode: Mode::Exact,
            ignored: &[],
        },
    )
}

fn kubernetes(desired: Value, live: Value, last: Option<Value>) -> Vec<Change> {
    changes(
        &desired,
        &live,
        last.as_ref().map(ValueRef::from),
        Rules {
            mode: Mode::Kubernetes,
            ignored: &[],
        },
    )
}

fn change(path: &str, from: Option<Value>, to: Option<Value>) -> Change {
    Change {
        path: path.into(),
        from,
        to,
    }
}

#[test]
fn the_lesson_form_compares_every_field() {
    let found = exact(
        json!({"image": "web:2", "replicas": 3, "ports": [80]}),
        json!({"image": "web:1", "ports": [80, 443], "status": "ok"}),
    );
    assert_eq!(
        found,
        [
            change("/image", Some(json!("web:1")), Some(json!("web:2"))),
            change("/replicas", None, Some(json!(3))),
            change("/ports/1", Some(json!(443)), None),
            change("/status", Some(json!("ok")), None),
        ]
    );
}

#[test]
fn fields_only_the_cluster_set_are_not_drift() {
    let desired =
        json!({"kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 2}});
    let live = json!({
        "kind": "Deployment",
        "metadata": {"name": "web", "uid": "1", "resourceVersion": "9", "generation": 4},
        "spec": {"replicas": 2, "revisionHistoryLimit": 10, "strategy": {"type": "RollingUpdate"}},
        "status": {"availableReplicas": 2}
    });
    assert!(kubernetes(desired, live, None).is_empty());
}

#[test]
fn a_field_git_removed_is_drift() {
    let desired = json!({"metadata": {"labels": {"app": "web"}}});
    let live = json!({"metadata": {"labels": {"app": "web", "tier": "front", "pod-template-hash": "abc"}}});
    let last = json!({"metadata": {"labels": {"app": "web", "tier": "front"}}});
    assert_eq!(
        kubernetes(desired, live, Some(last)),
        [change("/metadata/labels/tier", Some(json!("front")), None)]
    );
}

#[test]
fn containers_and_env_compare_by_name() {
    let desired = json!({"kind": "Pod", "spec": {"containers": [{"name": "app", "image": "web:2", "env": [{"name": "A", "value": "1"}]}]}});
    let live = json!({"kind": "Pod", "spec": {"containers": [
        {"name": "istio-proxy", "image": "proxy:1"},
        {"name": "app", "image": "web:1", "imagePullPolicy": "IfNotPresent", "env": [{"name": "INJECTED", "value": "x"}, {"name": "A", "value": "1"}]}
    ]}});
    assert_eq!(
        kubernetes(desired, live, None),
        [change(
            "/spec/containers/0/image",
            Some(json!("web:1")),
            Some(json!("web:2"))
        )]
    );
}

#[test]
fn a_custom_resource_s_lists_compare_place_by_place() {
    let rollout = |containers: Value| json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout", "spec": {"containers": containers}});
    let desired = rollout(json!([{"name": "app", "image": "web:2"}]));
    let live = rollout(
        json!([{"name": "app", "image": "web:2"}, {"name": "istio-proxy", "image": "proxy:1"}]),
    );
    assert_eq!(
        kubernetes(desired, live, None),
        [change(
            "/spec/containers/1",
            Some(json!({"name": "istio-proxy", "image": "proxy:1"})),
            None
        )],
        "a JSON merge patch replaces the list: the injected item goes"
    );
}

#[test]
fn empty_in_git_equals_absent_or_null_live() {
    let desired = json!({"rules": [], "data": {"password": ""}, "metadata": {"annotations": {}}});
    let live = json!({"rules": null, "data": {"password": null}, "metadata": {}});
    assert!(kubernetes(desired, live, None).is_empty());
}

#[test]
fn numbers_compare_by_value() {
    assert!(exact(json!({"cpu": 1}), json!({"cpu": 1.0})).is_empty());
}

#[test]
fn ignored_fields_are_not_drift_even_with_wildcards() {
    let pattern = Pattern::parse("/spec/containers/*/image").unwrap();
    let desired = json!({"spec": {"containers": [{"name": "a", "image": "web:2"}, {"name": "b", "image": "db:2"}]}});
    let live = json!({"spec": {"containers": [{"name": "a", "image": "web:1"}, {"name": "b", "image": "db:1"}]}});
    assert!(changes(
        &desired,
        &live,
        None,
        Rules {
            mode: Mode::Exact,
            ignored: &[&pattern]
        }
    )
    .is_empty());
}

#[test]
fn an_added_object_is_split_around_an_ignored_field() {
    let pattern = Pattern::parse("/spec/replicas").unwrap();
    let found = changes(
        &json!({"spec": {"replicas": 2, "paused": false}}),
        &json!({}),
        None,
        Rules {
            mode: Mode::Exact,
            ignored: &[&pattern],
        },
    );
    assert_eq!(found, [change("/spec/paused", None, Some(json!(false)))]);
}
