//! The lesson's laws and its worked example, natively and in the browser.

mod common;

use gitops_testing::everywhere;

use common::{state, steps};
use gitops_core::{apply, drift, plan, report, sync, Options, State, SyncStatus};
use serde_json::json;

fn two_services() -> State {
    state(json!({
        "api": {"image": "registry.example/api:1.4.2", "replicas": 2},
        "web": {"image": "registry.example/web:2.0.1", "replicas": 3},
    }))
}

fn empty() -> State {
    state(json!({}))
}

const PRUNE: Options = Options::pruning(true);
const NO_PRUNE: Options = Options::pruning(false);

everywhere! {
    fn the_worked_example_step_by_step() {
        let desired = two_services();

        let first = plan(&desired, &empty(), &PRUNE);
        assert_eq!(steps(&first), ["create api", "create web"]);
        let synced = apply(&first, &empty());
        assert_eq!(synced, desired);

        let mut tampered = synced.clone();
        tampered.insert("web", json!({"image": "registry.example/web:2.0.1", "replicas": 10}));
        tampered.insert("debug", json!({"image": "busybox"}));
        let found = drift(&desired, &tampered, &NO_PRUNE);
        assert!(found.missing.is_empty());
        assert_eq!(found.changed, ["web"]);
        assert_eq!(found.extra, ["debug"]);

        let reconcile = plan(&desired, &tampered, &PRUNE);
        assert_eq!(steps(&reconcile), ["delete debug", "update web"], "prunes run first in their wave");
        let healed = apply(&reconcile, &tampered);
        assert_eq!(healed, desired);

        assert!(plan(&desired, &healed, &PRUNE).is_empty(), "a second pass does nothing");
    }

    fn an_empty_cluster_gets_everything_created() {
        let desired = two_services();
        let plan = plan(&desired, &empty(), &NO_PRUNE);
        assert!(plan.iter().all(|operation| operation.verb() == "create"));
        assert_eq!(plan.len(), desired.len());
        assert_eq!(apply(&plan, &empty()), desired);
    }

    fn a_converged_cluster_gives_an_empty_plan() {
        let desired = two_services();
        assert!(plan(&desired, &desired, &PRUNE).is_empty());
        let status = report(&desired, &desired, &PRUNE).status;
        assert_eq!(status.sync, SyncStatus::Synced);
    }

    fn a_manual_change_to_a_managed_object_is_reverted() {
        let desired = two_services();
        let mut actual = desired.clone();
        actual.insert("api", json!({"image": "registry.example/api:hotfix", "replicas": 2}));
        let plan = plan(&desired, &actual, &NO_PRUNE);
        assert_eq!(steps(&plan), ["update api"]);
        assert_eq!(apply(&plan, &actual).get("api"), desired.get("api"));
    }

    fn an_extra_object_is_deleted_only_with_prune() {
        let desired = two_services();
        let mut actual = desired.clone();
        actual.insert("debug", json!({"image": "busybox"}));

        let kept = plan(&desired, &actual, &NO_PRUNE);
        assert!(kept.is_empty(), "without prune nothing is deleted");
        assert_eq!(apply(&kept, &actual).get("debug"), Some(&json!({"image": "busybox"})));
        let without_prune = report(&desired, &actual, &NO_PRUNE);
        assert_eq!(without_prune.drift.extra, ["debug"], "but it shows in drift");
        assert_eq!(without_prune.status.sync, SyncStatus::OutOfSync);

        let pruned = plan(&desired, &actual, &PRUNE);
        assert_eq!(steps(&pruned), ["delete debug"]);
        assert_eq!(apply(&pruned, &actual), desired);
    }

    fn a_bad_version_then_the_previous_one_returns_exactly_to_the_previous_state() {
        let good = two_services();
        let bad = state(json!({
            "api": {"image": "registry.example/api:1.5.0-broken", "replicas": 0},
            "worker": {"image": "registry.example/worker:0.1"},
        }));
        let running = apply(&plan(&good, &empty(), &PRUNE), &empty());
        let broken = apply(&plan(&bad, &running, &PRUNE), &running);
        assert_eq!(broken, bad);
        let restored = apply(&plan(&good, &broken, &PRUNE), &broken);
        assert_eq!(restored, running);
        assert_eq!(restored.to_value(), good.to_value());
    }

    fn helm_s_null_annotations_converge_in_one_pass_and_delete_no_annotation() {
        // Helm renders an empty map as `annotations: null` (the grafana ClusterRole of
        // Argo CD's corpus): kubectl's apply keeps its last-applied annotation there, so
        // Git's null never deletes the annotations and the agent does not fight its record.
        let role = |annotations: serde_json::Value| {
            state(json!([{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                          "metadata": {"name": "grafana", "annotations": annotations}, "rules": []}]))
        };
        let desired = role(json!(null));
        let created = sync(&desired, &state(json!([])), &PRUNE);
        assert!(created.converged && created.passes.len() == 2, "{:?}", created.passes);
        let live = created.actual.get("ClusterRole/grafana").unwrap();
        let record = "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration";
        assert!(live.pointer(record).is_some(), "the apply records itself: {live}");
        assert_eq!(report(&desired, &created.actual, &PRUNE).status.sync, SyncStatus::Synced);

        let annotated = role(json!({"team": "obs"}));
        assert!(plan(&desired, &annotated, &PRUNE).is_empty(), "the cluster's own annotation stays");
        assert_eq!(report(&desired, &annotated, &PRUNE).status.sync, SyncStatus::Synced);
    }

    fn a_container_named_by_an_object_converges_in_one_pass() {
        // Kubernetes merges containers by a string `name`; an object there with a null
        // inside lost the null when merged, then matched no live container, so every
        // pass added it again (a fuzzing find). Such a list is compared and written whole.
        let deployment = |name: serde_json::Value, image: &str| {
            state(json!([{"apiVersion": "apps/v1", "kind": "Deployment",
                          "metadata": {"name": "web", "namespace": "shop"},
                          "spec": {"template": {"spec": {"containers": [
                              {"name": name, "image": image, "ports": [{"containerPort": 80}]}]}}}}]))
        };
        let desired = deployment(json!({"first": "web", "second": null}), "nginx:2");
        let live = deployment(json!({"first": "web", "second": null}), "nginx:1");
        let synced = sync(&desired, &live, &PRUNE);
        assert!(synced.converged && synced.passes.len() == 2, "{:?}", synced.passes);
    }

    fn kubernetes_objects_are_keyed_by_kind_namespace_and_name() {
        let desired = state(json!([
            {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}},
            {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}},
        ]));
        let keys: Vec<&str> = desired.objects().keys().map(|key| &**key).collect();
        assert_eq!(keys, ["Deployment/shop/web", "Namespace/shop"]);
        let plan = plan(&desired, &state(json!([])), &NO_PRUNE);
        assert_eq!(steps(&plan), ["create Namespace/shop", "create Deployment/shop/web"]);
    }
}
