//! The core behaves as real reconcilers do: waves and kind order, prune
//! protection, ignore rules, normalization, health beside sync.

mod common;

use common::{state, steps};
use gitops_playground::core::{
    apply, diff, report, sync, Health, IgnoreRule, Operation, Options, SyncStatus,
};
use serde_json::{json, Value};

fn object(kind: &str, name: &str, namespace: Option<&str>, annotations: Value) -> Value {
    let mut metadata = json!({"name": name, "annotations": annotations});
    if let Some(namespace) = namespace {
        metadata["namespace"] = json!(namespace);
    }
    json!({"apiVersion": "v1", "kind": kind, "metadata": metadata})
}

fn wave(kind: &str, name: &str, wave: i64) -> Value {
    object(
        kind,
        name,
        Some("shop"),
        json!({"argocd.argoproj.io/sync-wave": wave.to_string()}),
    )
}

fn options(prune: bool, ignore: Value) -> Options {
    Options {
        prune,
        ignore: serde_json::from_value::<Vec<IgnoreRule>>(ignore).unwrap(),
    }
}

everywhere! {
    fn writes_run_by_wave_then_kind_then_name_with_the_namespace_first() {
        let desired = state(json!([
            wave("Deployment", "web", 1),
            wave("Service", "web", 0),
            wave("Job", "migrate", 0),
            wave("StatefulSet", "db", -1),
            wave("ConfigMap", "settings", 0),
            object("Namespace", "shop", None, json!({})),
        ]));
        let plan = diff(&desired, &state(json!([])), &Options::default());
        assert_eq!(
            steps(&plan),
            [
                "create Namespace/shop",
                "create StatefulSet/shop/db",
                "create ConfigMap/shop/settings",
                "create Service/shop/web",
                "create Job/shop/migrate",
                "create Deployment/shop/web",
            ]
        );
        let waves: Vec<i64> = plan.iter().map(Operation::wave).collect();
        assert_eq!(waves, [-1, -1, 0, 0, 0, 1], "the Namespace moves to the wave of its first content");
    }

    fn deletions_run_in_reverse_order_and_prune_last_ones_after_all() {
        let actual = state(json!([
            wave("StatefulSet", "db", -1),
            wave("Deployment", "web", 1),
            wave("Service", "web", 0),
            object("ConfigMap", "audit", Some("shop"), json!({"argocd.argoproj.io/sync-options": "PruneLast=true"})),
        ]));
        let plan = diff(&state(json!([])), &actual, &Options::pruning(true));
        assert_eq!(
            steps(&plan),
            ["delete Deployment/shop/web", "delete Service/shop/web", "delete StatefulSet/shop/db", "delete ConfigMap/shop/audit"]
        );
    }

    fn a_protected_object_is_skipped_with_its_reason_and_stays_extra() {
        let database = object("StatefulSet", "db", Some("shop"), json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        let cache = object("Deployment", "cache", Some("shop"), json!({"kustomize.toolkit.fluxcd.io/prune": "disabled"}));
        let debug = object("Pod", "debug", Some("shop"), json!({}));
        let actual = state(json!([database, cache, debug]));
        let desired = state(json!([]));
        let prune = Options::pruning(true);
        let plan = diff(&desired, &actual, &prune);
        assert_eq!(steps(&plan), ["skip StatefulSet/shop/db", "skip Deployment/shop/cache", "delete Pod/shop/debug"]);
        let Operation::Skip { reason, .. } = &plan[0] else { panic!("a skip") };
        assert!(reason.contains("Prune=false"), "{reason}");

        let run = sync(&desired, &actual, &prune);
        assert!(run.converged);
        assert!(run.actual.get("StatefulSet/shop/db").is_some(), "never deleted");
        let after = report(&desired, &run.actual, &prune);
        assert_eq!(after.drift.extra, ["Deployment/shop/cache", "StatefulSet/shop/db"]);
        assert_eq!(after.status.sync, SyncStatus::OutOfSync);
    }

    fn null_in_git_deletes_a_live_value_and_matches_an_absent_one() {
        let config = |data: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": data});
        let desired = state(json!([config(json!({"a": null, "b": "1", "c": null}))]));
        let actual = state(json!([config(json!({"a": "x", "b": "1"}))]));
        let plan = diff(&desired, &actual, &Options::default());
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        assert_eq!(changes.iter().map(|change| change.path.as_str()).collect::<Vec<_>>(), ["/data/a"]);
        assert_eq!(object["data"], json!({"b": "1"}), "the apply deletes the field and writes no null");
        let run = sync(&desired, &actual, &Options::default());
        assert!(run.converged);
        assert_eq!(run.passes.len(), 2, "one pass, then one with nothing to do");
    }

    fn deleting_a_namespace_deletes_what_is_in_it_even_what_a_prune_skips() {
        let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}});
        let database = object("StatefulSet", "db", Some("shop"), json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        let elsewhere = object("StatefulSet", "db", Some("billing"), json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        let actual = state(json!([namespace, database, elsewhere]));
        let desired = state(json!([]));
        let prune = Options::pruning(true);
        let plan = diff(&desired, &actual, &prune);
        assert_eq!(steps(&plan), ["skip StatefulSet/shop/db", "skip StatefulSet/billing/db", "delete Namespace/shop"]);
        let after = apply(&plan, &actual);
        assert_eq!(after.objects().keys().map(|key| &**key).collect::<Vec<_>>(), ["StatefulSet/billing/db"], "Kubernetes deletes a namespace's contents with it");
    }

    fn an_ignore_rule_stops_the_autoscaler_fight() {
        let deployment = |replicas: u32, image: &str| {
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
                   "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "web", "image": image}]}}}})
        };
        let desired = state(json!([deployment(2, "web:2")]));
        let scaled = state(json!([deployment(5, "web:1")]));

        let fighting = diff(&desired, &scaled, &Options::default());
        let Operation::Update { changes, .. } = &fighting[0] else { panic!("an update") };
        assert!(changes.iter().any(|change| change.path == "/spec/replicas"), "without the rule, Git resets the autoscaler");

        let rule = options(false, json!([{"kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]));
        let plan = diff(&desired, &scaled, &rule);
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/0/image"]);
        assert_eq!(object["spec"]["replicas"], 5, "the autoscaler's value is kept");
        let after = apply(&plan, &scaled);
        assert!(diff(&desired, &after, &rule).is_empty(), "converged, and stays converged");
    }

    fn a_status_the_cluster_writes_flaps_in_the_lesson_form_until_ignored() {
        let desired = state(json!({"web": {"image": "web:2", "replicas": 2}}));
        let reported = state(json!({"web": {"image": "web:2", "replicas": 2, "status": "ready"}}));
        assert_eq!(steps(&diff(&desired, &reported, &Options::default())), ["update web"]);
        let ignoring = options(false, json!(["/status"]));
        assert!(diff(&desired, &reported, &ignoring).is_empty());
    }

    fn a_crash_looping_deployment_is_synced_and_degraded() {
        let spec = json!({"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "web@sha256:bad"}]}}});
        let desired = state(json!([{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}, "spec": spec}]));
        let live = state(json!([{
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "generation": 1},
            "spec": spec,
            "status": {"observedGeneration": 1, "replicas": 2, "updatedReplicas": 2, "availableReplicas": 0,
                       "conditions": [{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}]}
        }]));
        let found = report(&desired, &live, &Options::default());
        assert_eq!(found.status.sync, SyncStatus::Synced);
        assert_eq!(found.status.health, Health::Degraded);
        assert_eq!(found.objects[0].health, Some(Health::Degraded));
    }

    fn a_missing_object_is_missing() {
        let desired = state(json!([{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}}]));
        let found = report(&desired, &state(json!([])), &Options::default());
        assert_eq!(found.status.health, Health::Missing);
    }

    fn a_missing_object_without_a_health_rule_leaves_the_application_healthy() {
        let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"type": "ClusterIP"}});
        let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}});
        let found = report(&state(json!([service, config])), &state(json!([service])), &Options::default());
        assert_eq!(found.status.sync, SyncStatus::OutOfSync);
        assert_eq!(found.status.health, Health::Healthy, "Argo CD's setApplicationHealth skips it");
        let settings = found.objects.iter().find(|object| &*object.key == "ConfigMap/settings").unwrap();
        assert_eq!(settings.health, Some(Health::Missing), "the object itself is Missing");
    }

    fn kinds_without_a_health_rule_have_none() {
        let config = json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}}]);
        let found = report(&state(config.clone()), &state(config), &Options::default());
        assert_eq!(found.objects[0].health, None);
        assert_eq!(found.status.health, Health::Healthy);
    }

    fn a_secret_written_with_string_data_is_in_sync_with_its_stored_form() {
        let desired = state(json!([{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"}, "stringData": {"password": "hunter2"}}]));
        let live = state(json!([{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"}, "data": {"password": "aHVudGVyMg=="}}]));
        assert!(diff(&desired, &live, &Options::default()).is_empty());
    }

    fn a_field_removed_from_git_is_removed_from_the_cluster() {
        let v1 = state(json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1", "b": "2"}}]));
        let v2 = state(json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}]));
        let running = sync(&v1, &state(json!([])), &Options::default()).actual;
        let plan = diff(&v2, &running, &Options::default());
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].path, "/data/b");
        assert_eq!(object["data"], json!({"a": "1"}));
    }
}
