//! The core behaves as real reconcilers do: waves and kind order, prune
//! protection, ignore rules, normalization, health beside sync.

mod common;

use gitops_testing::everywhere;

use common::{state, steps};
use gitops_core::{apply, report, sync, Health, IgnoreRule, Operation, Options, SyncStatus};
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

/// `verb key @wave` for each operation of a plan, in order.
fn in_waves(plan: &[Operation]) -> Vec<String> {
    plan.iter()
        .map(|operation| {
            format!(
                "{} {} @{}",
                operation.verb(),
                operation.key(),
                operation.wave()
            )
        })
        .collect()
}

fn options(prune: bool, ignore: Value) -> Options {
    Options {
        prune,
        ignore: serde_json::from_value::<Vec<IgnoreRule>>(ignore).unwrap(),
        respect_ignore_differences: false,
        application: None,
        force: false,
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
        let plan = gitops_core::plan(&desired, &state(json!([])), &Options::default());
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

    fn renaming_an_object_deletes_the_old_one_before_the_new_one_exists() {
        // gitops-engine's runTasks, for the tasks of one wave: "prune first",
        // then "finally create resources".
        let service = |name: &str, annotations: Value| object("Service", name, Some("shop"), annotations);
        let desired = state(json!([service("web-v2", json!({}))]));
        let plan = gitops_core::plan(&desired, &state(json!([service("web-v1", json!({}))])), &Options::pruning(true));
        assert_eq!(in_waves(&plan), ["delete Service/shop/web-v1 @0", "create Service/shop/web-v2 @0"]);

        let last = json!({"argocd.argoproj.io/sync-options": "PruneLast=true"});
        let plan = gitops_core::plan(&desired, &state(json!([service("web-v1", last)])), &Options::pruning(true));
        assert_eq!(
            in_waves(&plan),
            ["create Service/shop/web-v2 @0", "delete Service/shop/web-v1 @1"],
            "PruneLast: the old one goes in a wave after the last"
        );
    }

    fn the_waves_of_deletions_are_mirrored_so_objects_go_in_reverse() {
        // Version 1 made its settings in wave -5 and its workload in wave 0;
        // version 2 makes new ones in waves 0 and 5. The prune waves -5 and 0
        // swap: the old workload goes first, in wave -5, and the old settings
        // in wave 0, before that wave's create.
        let desired = state(json!([wave("ConfigMap", "settings-v2", 0), wave("Deployment", "web-v2", 5)]));
        let actual = state(json!([wave("ConfigMap", "settings-v1", -5), wave("Deployment", "web-v1", 0)]));
        let plan = gitops_core::plan(&desired, &actual, &Options::pruning(true));
        assert_eq!(
            in_waves(&plan),
            [
                "delete Deployment/shop/web-v1 @-5",
                "delete ConfigMap/shop/settings-v1 @0",
                "create ConfigMap/shop/settings-v2 @0",
                "create Deployment/shop/web-v2 @5",
            ]
        );
        assert!(gitops_core::plan(&desired, &apply(&plan, &actual), &Options::pruning(true)).is_empty(), "one pass converges");
    }

    fn mirrored_waves_keep_a_middle_wave_and_a_wave_sorts_its_deletions_by_kind_then_name() {
        let actual = state(json!([
            wave("StatefulSet", "db", -1),
            wave("Deployment", "web", 2),
            wave("Service", "web", 0),
            wave("ConfigMap", "settings", 0),
            wave("Job", "migrate", 3),
        ]));
        let plan = gitops_core::plan(&state(json!([])), &actual, &Options::pruning(true));
        assert_eq!(
            in_waves(&plan),
            [
                "delete Job/shop/migrate @-1",
                "delete Deployment/shop/web @0",
                "delete ConfigMap/shop/settings @2",
                "delete Service/shop/web @2",
                "delete StatefulSet/shop/db @3",
            ],
            "waves -1, 0, 2, 3 swap as 3, 2, 0, -1; within a wave, Argo CD's kind order"
        );
    }

    fn prune_last_runs_after_the_last_wave_of_the_sync_phase() {
        let last = json!({"argocd.argoproj.io/sync-options": "PruneLast=true", "argocd.argoproj.io/sync-wave": "-3"});
        let audit = object("ConfigMap", "audit", Some("shop"), last);
        // The last wave counts every object of the sync: the Job in wave 4 is
        // already in the cluster as Git has it, and still counts. The waves
        // are mirrored before PruneLast moves its object, so the audit's own
        // wave -3 still swaps with the database's 2.
        let job = wave("Job", "migrate", 4);
        let desired = state(json!([wave("Deployment", "web", 1), job]));
        let actual = state(json!([audit, job, wave("StatefulSet", "db", 2)]));
        let plan = gitops_core::plan(&desired, &actual, &Options::pruning(true));
        assert_eq!(
            in_waves(&plan),
            ["delete StatefulSet/shop/db @-3", "create Deployment/shop/web @1", "delete ConfigMap/shop/audit @5"]
        );
        // With every wave below zero, the last wave is 0, so PruneLast runs in wave 1.
        let early = state(json!([wave("Deployment", "web", -2)]));
        let actual = state(json!([object("ConfigMap", "audit", Some("shop"), json!({"argocd.argoproj.io/sync-options": "PruneLast=true"}))]));
        let plan = gitops_core::plan(&early, &actual, &Options::pruning(true));
        assert_eq!(in_waves(&plan), ["create Deployment/shop/web @-2", "delete ConfigMap/shop/audit @1"]);
        // Only the Sync phase counts (getSyncTasks' syncPhaseLastWave): a PostSync
        // hook in wave 7 does not, a Sync hook in wave 3 does.
        let hook = |name: &str, phase: &str, wave: &str| object("Job", name, Some("shop"), json!({"argocd.argoproj.io/hook": phase, "argocd.argoproj.io/sync-wave": wave}));
        let with_hooks = state(json!([wave("Deployment", "web", -2), hook("smoke", "PostSync", "7"), hook("seed", "Sync", "3")]));
        let plan = gitops_core::plan(&with_hooks, &actual, &Options::pruning(true));
        assert_eq!(in_waves(&plan), ["create Deployment/shop/web @-2", "delete ConfigMap/shop/audit @4"]);
    }

    fn argo_cd_skips_a_protected_object_and_keeps_it_extra_while_flux_releases_it() {
        let database = object("StatefulSet", "db", Some("shop"), json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        let cache = object("Deployment", "cache", Some("shop"), json!({"kustomize.toolkit.fluxcd.io/prune": "disabled"}));
        let debug = object("Pod", "debug", Some("shop"), json!({}));
        let actual = state(json!([database, cache, debug]));
        let desired = state(json!([]));
        let prune = Options::pruning(true);
        let plan = gitops_core::plan(&desired, &actual, &prune);
        assert_eq!(steps(&plan), ["delete Pod/shop/debug", "skip StatefulSet/shop/db"]);
        let Operation::Skip { reason, .. } = &plan[1] else { panic!("a skip") };
        assert!(reason.contains("Prune=false"), "{reason}");

        let run = sync(&desired, &actual, &prune);
        assert!(run.converged);
        assert!(run.actual.get("StatefulSet/shop/db").is_some(), "never deleted");
        let after = report(&desired, &run.actual, &prune);
        assert_eq!(after.drift.extra, ["StatefulSet/shop/db"], "Argo CD's stays OutOfSync until someone decides");
        assert_eq!(after.status.sync, SyncStatus::OutOfSync);
        // Flux drops what it does not prune from its inventory (kustomize-controller deleteObjects).
        assert!(run.actual.get("Deployment/shop/cache").is_some(), "never deleted");
        assert_eq!(after.drift.unmanaged, ["Deployment/shop/cache"]);
        let only_flux = state(json!([object("Deployment", "cache", Some("shop"), json!({"kustomize.toolkit.fluxcd.io/prune": "disabled"}))]));
        assert_eq!(report(&desired, &only_flux, &prune).status.sync, SyncStatus::Synced, "settled, not OutOfSync forever");
    }

    fn flux_applies_nothing_excluded_by_reconcile_disabled_ssa_ignore_or_if_not_present() {
        // fluxcd/pkg ssa manager_apply.go, shouldSkipApply.
        let config = |name: &str, annotations: Value, data: &str| {
            let mut object = object("ConfigMap", name, Some("shop"), annotations);
            object["data"] = json!({"v": data});
            object
        };
        let desired = state(json!([
            config("frozen", json!({"kustomize.toolkit.fluxcd.io/reconcile": "disabled"}), "2"),
            config("seed", json!({"kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent"}), "2"),
            config("fresh", json!({"kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent"}), "2"),
            config("plain", json!({}), "2"),
        ]));
        let actual = state(json!([
            config("frozen", json!({"kustomize.toolkit.fluxcd.io/reconcile": "disabled"}), "1"),
            config("seed", json!({}), "1"),
            config("plain", json!({"kustomize.toolkit.fluxcd.io/ssa": "ignore"}), "1"),
        ]));
        let found = report(&desired, &actual, &Options::pruning(true));
        assert_eq!(steps(&found.plan), ["create ConfigMap/shop/fresh", "skip ConfigMap/shop/frozen", "skip ConfigMap/shop/plain", "skip ConfigMap/shop/seed"]);
        let reasons: Vec<&str> = found.plan.iter().filter_map(|op| match op { Operation::Skip { reason, .. } => Some(reason.as_str()), _ => None }).collect();
        assert_eq!(reasons, [
            "not applied: kustomize.toolkit.fluxcd.io/reconcile: disabled",
            "not applied: kustomize.toolkit.fluxcd.io/ssa: Ignore",
            "applied only while it is absent: kustomize.toolkit.fluxcd.io/ssa: IfNotPresent",
        ]);
        assert_eq!(found.drift.missing, ["ConfigMap/shop/fresh"]);
        assert!(found.drift.changed.is_empty(), "what Flux does not apply is not drift: {:?}", found.drift);
    }

    fn null_in_git_deletes_a_live_value_and_matches_an_absent_one() {
        let config = |data: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": data});
        let desired = state(json!([config(json!({"a": null, "b": "1", "c": null}))]));
        let actual = state(json!([config(json!({"a": "x", "b": "1"}))]));
        let plan = gitops_core::plan(&desired, &actual, &Options::default());
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
        let plan = gitops_core::plan(&desired, &actual, &prune);
        assert_eq!(
            steps(&plan),
            ["delete Namespace/shop", "skip StatefulSet/billing/db", "skip StatefulSet/shop/db"],
            "one wave's deletions run together, listed in kind order"
        );
        let after = apply(&plan, &actual);
        assert_eq!(after.objects().keys().map(|key| &**key).collect::<Vec<_>>(), ["StatefulSet/billing/db"], "Kubernetes deletes a namespace's contents with it");
    }

    fn only_what_carries_the_application_s_tracking_id_is_extra_and_pruned() {
        // Argo CD's resource tracking (util/argo/resource_tracking.go; controller/state.go
        // SetAppInstance, GetManagedLiveObjs, isSelfReferencedObj).
        let tracking = "argocd.argoproj.io/tracking-id";
        let web = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}, "spec": {"replicas": 2}});
        let desired = state(json!([web.clone()]));
        let mut tracked = options(true, json!([]));
        tracked.application = Some("shop".into());

        let created = sync(&desired, &state(json!([])), &tracked).actual;
        let live = created.get("Deployment/shop/web").unwrap();
        assert_eq!(live.pointer("/metadata/annotations/argocd.argoproj.io~1tracking-id"), Some(&json!("shop:apps/Deployment:shop/web")), "the apply stamps its tracking id");

        let old = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "old", "namespace": "shop", "annotations": {tracking: "shop:apps/Deployment:shop/old"}}});
        let by_hand = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "debug", "namespace": "shop"}});
        let root_ca = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kube-root-ca.crt", "namespace": "shop"}});
        let mut copied = by_hand.clone();
        copied["metadata"]["name"] = json!("copy");
        copied["metadata"]["annotations"] = json!({tracking: "shop:/Pod:shop/debug"});
        let mut other_app = old.clone();
        other_app["metadata"]["name"] = json!("theirs");
        other_app["metadata"]["annotations"][tracking] = json!("billing:apps/Deployment:shop/theirs");
        let mut live = created.clone();
        for object in [old.clone(), by_hand, root_ca, copied, other_app] {
            live.insert(gitops_core::state::key_of(&object).unwrap(), object);
        }
        let found = report(&desired, &live, &tracked);
        assert_eq!(found.drift.extra, ["Deployment/shop/old"]);
        assert_eq!(found.drift.unmanaged, ["ConfigMap/shop/kube-root-ca.crt", "Deployment/shop/theirs", "Pod/shop/copy", "Pod/shop/debug"]);
        assert_eq!(steps(&found.plan), ["delete Deployment/shop/old"], "prune deletes only what the application applied");
        assert!(found.objects.iter().all(|object| !object.key.contains("debug")), "an unmanaged object is none of the application's");

        // Without an application every object Git does not declare is extra: the playground's simpler rule.
        let untracked = options(true, json!([]));
        assert_eq!(report(&desired, &live, &untracked).drift.extra.len(), 5);

        // A live object Git declares that lacks the id differs by it, and a sync adopts it.
        let adopted = sync(&desired, &state(json!([web])), &tracked);
        assert_eq!(steps(&adopted.passes[0]), ["update Deployment/shop/web"]);
        assert!(adopted.converged);
    }

    fn an_ignore_rule_stops_the_autoscaler_fight() {
        let deployment = |replicas: u32, image: &str| {
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
                   "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "web", "image": image}]}}}})
        };
        let desired = state(json!([deployment(2, "web:2")]));
        let scaled = state(json!([deployment(5, "web:1")]));

        let fighting = gitops_core::plan(&desired, &scaled, &Options::default());
        let Operation::Update { changes, .. } = &fighting[0] else { panic!("an update") };
        assert!(changes.iter().any(|change| change.path == "/spec/replicas"), "without the rule, Git resets the autoscaler");

        // Argo CD's rule names the group (util/argo/normalizers: group and kind by glob).
        let rule = json!([{"group": "apps", "kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]);
        let mut respecting = options(false, rule.clone());
        respecting.respect_ignore_differences = true;
        let plan = gitops_core::plan(&desired, &scaled, &respecting);
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/0/image"]);
        assert_eq!(object["spec"]["replicas"], 5, "RespectIgnoreDifferences=true keeps the autoscaler's value");
        let after = apply(&plan, &scaled);
        assert!(gitops_core::plan(&desired, &after, &respecting).is_empty(), "converged, and stays converged");

        // Without RespectIgnoreDifferences the difference is hidden, but a sync applies
        // the manifest as Git has it (gitops-engine's sync), replicas included.
        let hiding = options(false, rule);
        let plan = gitops_core::plan(&desired, &scaled, &hiding);
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        assert!(changes.iter().all(|change| change.path != "/spec/replicas"), "not a difference");
        assert_eq!(object["spec"]["replicas"], 2, "Argo CD's sync writes Git's value of an ignored field");
        let scaled_only = state(json!([deployment(5, "web:2")]));
        assert!(gitops_core::plan(&desired, &scaled_only, &hiding).is_empty(), "the autoscaler's count alone is no reason to sync");

        // Flux's spec.ignore takes the paths out of what it applies (fluxcd/pkg ssa DriftIgnoreRules).
        let flux = options(false, json!([{"paths": ["/spec/replicas"], "target": {"group": "apps", "kind": "Deployment", "name": "web"}}]));
        let plan = gitops_core::plan(&desired, &scaled, &flux);
        let Operation::Update { object, .. } = &plan[0] else { panic!("an update") };
        assert_eq!(object["spec"]["replicas"], 5, "Flux keeps the live value");
    }

    fn an_argo_cd_rule_without_the_group_matches_no_deployment() {
        // An omitted group is the core group "", and Deployment is in apps: Argo CD
        // (diff_normalizer.go, `Normalize`: glob.Match(group, ...) && glob.Match(kind, ...))
        // ignores nothing, and the checklist says so.
        let deployment = |replicas: u32| {
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
                   "spec": {"replicas": replicas}})
        };
        let desired = state(json!([deployment(2)]));
        let scaled = state(json!([deployment(5)]));
        let no_group = options(false, json!([{"kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]));
        assert_eq!(steps(&gitops_core::plan(&desired, &scaled, &no_group)), ["update Deployment/shop/web"]);
        let warnings = gitops_core::report(&desired, &scaled, &no_group).warnings;
        let warning = warnings.iter().find(|warning| warning.rule == "ignore-rule-selects-nothing").expect("a warning");
        assert_eq!(warning.key, "Deployment/shop/web");
        assert!(warning.message.contains("no `group`, which Argo CD reads as the core group"), "{}", warning.message);
        assert!(warning.message.contains("Write `group: apps`"), "{}", warning.message);
        for rule in [json!({"group": "apps", "kind": "Deployment"}), json!({"group": "*", "kind": "Deploy*"}), json!({"group": "{apps,extensions}", "kind": "*"})] {
            let mut rule = rule;
            rule["jsonPointers"] = json!(["/spec/replicas"]);
            let matching = options(false, json!([rule.clone()]));
            assert!(gitops_core::plan(&desired, &scaled, &matching).is_empty(), "{rule} matches by glob");
            assert!(gitops_core::report(&desired, &scaled, &matching).warnings.iter().all(|warning| warning.rule != "ignore-rule-selects-nothing"));
        }
        let no_kind = options(false, json!([{"jsonPointers": ["/spec/replicas"]}]));
        assert_eq!(steps(&gitops_core::plan(&desired, &scaled, &no_kind)), ["update Deployment/shop/web"], "a rule without kind matches no kind");
        let warnings = gitops_core::report(&desired, &scaled, &no_kind).warnings;
        assert!(warnings.iter().any(|warning| warning.rule == "ignore-rule-selects-nothing" && warning.message.contains("names no `kind`")), "{warnings:?}");
    }

    fn a_jq_path_ignores_every_containers_image_as_argo_cd_does() {
        let deployment = |images: [&str; 2]| {
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
                   "spec": {"replicas": 2, "template": {"spec": {"containers": [
                       {"name": "web", "image": images[0]}, {"name": "proxy", "image": images[1]}]}}}})
        };
        let desired = state(json!([deployment(["web:2", "proxy:2"])]));
        let updated = state(json!([deployment(["web:3", "proxy:3"])]));
        let rule = options(false, json!([{"group": "apps", "kind": "Deployment", "jqPathExpressions": [".spec.template.spec.containers[].image"]}]));
        assert!(gitops_core::plan(&desired, &updated, &rule).is_empty(), "no container's image is a difference");
        let mut first = options(false, json!([{"group": "apps", "kind": "Deployment", "jqPathExpressions": [".spec.template.spec.containers[0].image"]}]));
        first.respect_ignore_differences = true;
        let plan = gitops_core::plan(&desired, &updated, &first);
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/1/image"], "only the first container's image is ignored");
        assert_eq!(object["spec"]["template"]["spec"]["containers"][0]["image"], "web:3", "its live value is kept");
    }

    fn an_argo_cd_json_pointer_with_a_star_is_not_a_wildcard() {
        let rule = json!([{"kind": "Deployment", "jsonPointers": ["/spec/template/spec/containers/*/image"]}]);
        let error = serde_json::from_value::<Vec<IgnoreRule>>(rule).unwrap_err().to_string();
        assert!(error.contains("Argo CD reads a JSON pointer literally"), "{error}");
        assert!(error.contains(r#"jqPathExpressions: [".spec.template.spec.containers[].image"]"#), "{error}");
    }

    fn a_status_the_cluster_writes_flaps_in_the_lesson_form_until_ignored() {
        let desired = state(json!({"web": {"image": "web:2", "replicas": 2}}));
        let reported = state(json!({"web": {"image": "web:2", "replicas": 2, "status": "ready"}}));
        assert_eq!(steps(&gitops_core::plan(&desired, &reported, &Options::default())), ["update web"]);
        let ignoring = options(false, json!(["/status"]));
        assert!(gitops_core::plan(&desired, &reported, &ignoring).is_empty());
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
        let settings = found.objects.iter().find(|object| &*object.key == "ConfigMap/default/settings").unwrap();
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
        assert!(gitops_core::plan(&desired, &live, &Options::default()).is_empty());
    }

    fn normalize_target_objects_puts_an_object_without_a_namespace_in_the_destination_namespace() {
        // Argo CD's NormalizeTargetObjects (controller/state.go) gives a namespaced
        // object that names no namespace the application's destination namespace,
        // and takes the namespace off a cluster-scoped one; `kubectl apply` puts it in
        // `default`. The live copy in `default` is the same object, not one to delete
        // and one to create.
        let config = |metadata: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": {"a": "1"}});
        let role = |metadata: Value| json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": metadata, "rules": []});
        let desired = state(json!([config(json!({"name": "settings"})), role(json!({"name": "view", "namespace": "shop"}))]));
        let keys: Vec<&str> = desired.objects().keys().map(|key| &**key).collect();
        assert_eq!(keys, ["ClusterRole/view", "ConfigMap/default/settings"]);
        let live = state(json!([config(json!({"name": "settings", "namespace": "default"})), role(json!({"name": "view"}))]));
        let found = report(&desired, &live, &Options::pruning(true));
        assert!(found.plan.is_empty(), "{:?}", found.plan);
        assert_eq!(found.status.sync, SyncStatus::Synced);

        let run = sync(&desired, &state(json!([])), &Options::pruning(true));
        assert!(run.converged && run.passes.len() == 2, "{:?}", run.passes);
        let created = run.actual.get("ConfigMap/default/settings").unwrap();
        assert_eq!(created["metadata"]["namespace"], "default", "it lands in the destination namespace");
        assert_eq!(run.actual.get("ClusterRole/view").unwrap()["metadata"].get("namespace"), None);
        let record: Value = serde_json::from_str(
            created["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"].as_str().unwrap(),
        ).unwrap();
        assert_eq!(record["metadata"]["namespace"], "default", "the apply records the namespace it applied to");
    }

    fn remarshal_compares_quantities_by_the_text_kubernetes_writes_for_them() {
        // gitops-engine's diff reads a kind client-go's scheme types as its Go
        // type before comparing (remarshal, pkg/diff/diff.go), as the API server
        // stores it: a resource.Quantity is written canonically, so Git's `cpu: 1`
        // is the live `1000m`'s equal. A custom resource is compared as written.
        let database = |resources: Value, storage: Value| json!({
            "apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "shop"},
            "spec": {"template": {"spec": {"containers": [{"name": "db", "image": "db:1", "resources": resources}]}},
                     "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"resources": {"requests": {"storage": storage}}}}]}
        });
        let claim = |storage: Value| json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "shop"},
                                            "spec": {"resources": {"requests": {"storage": storage}}}});
        let desired = state(json!([
            database(json!({"requests": {"cpu": 0.5, "memory": "1024Mi"}, "limits": {"cpu": 1}}), json!("1024Mi")),
            claim(json!("0.5Gi")),
        ]));
        let live = state(json!([
            database(json!({"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"cpu": "1000m"}}), json!("1Gi")),
            claim(json!("512Mi")),
        ]));
        let found = report(&desired, &live, &Options::default());
        assert!(found.plan.is_empty(), "{:?}", found.plan);
        assert_eq!(found.status.sync, SyncStatus::Synced);

        let raised = state(json!([database(json!({"requests": {"cpu": 0.5, "memory": "1024Mi"}, "limits": {"cpu": 2}}), json!("1Gi"))]));
        let plan = gitops_core::plan(&raised, &live, &Options::default());
        let Some(Operation::Update { changes, .. }) = plan.first() else { panic!("an update: {plan:?}") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/0/resources/limits/cpu"]);

        let custom = |cpu: &str| json!({"apiVersion": "example.com/v1", "kind": "Workload", "metadata": {"name": "w", "namespace": "shop"},
                                        "spec": {"resources": {"limits": {"cpu": cpu}}}});
        let plan = gitops_core::plan(&state(json!([custom("1")])), &state(json!([custom("1000m")])), &Options::default());
        assert_eq!(steps(&plan), ["update Workload/shop/w"], "a custom resource's quantity is compared as written");
    }

    fn build_merge_patch_replaces_a_custom_resource_s_lists_whole() {
        // kubectl's apply (Patcher.patchSimple, k8s.io/kubectl/pkg/cmd/apply/patcher.go)
        // sends a strategic merge patch for a kind Kubernetes types, which merges
        // containers by name, and a JSON merge patch (RFC 7386, buildMergePatch) for
        // a custom resource, which replaces the list; gitops-engine's
        // threeWayMergePatch predicts the live object the same way.
        let with_containers = |api_version: &str, kind: &str, containers: Value| json!({
            "apiVersion": api_version, "kind": kind, "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"template": {"spec": {"containers": containers}}}
        });
        let git = json!([{"name": "web", "image": "web:2"}]);
        let injected = json!([{"name": "web", "image": "web:2"}, {"name": "istio-proxy", "image": "proxy:1"}]);

        let deployment = |containers: &Value| with_containers("apps/v1", "Deployment", containers.clone());
        let plan = gitops_core::plan(&state(json!([deployment(&git)])), &state(json!([deployment(&injected)])), &Options::default());
        assert!(plan.is_empty(), "a Deployment's injected sidecar is merged by name, not drift: {plan:?}");

        let rollout = |containers: &Value| with_containers("argoproj.io/v1alpha1", "Rollout", containers.clone());
        let desired = state(json!([rollout(&git)]));
        let live = state(json!([rollout(&injected)]));
        let plan = gitops_core::plan(&desired, &live, &Options::default());
        let Some(Operation::Update { changes, object, .. }) = plan.first() else { panic!("an update: {plan:?}") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/1"]);
        assert_eq!(object["spec"]["template"]["spec"]["containers"], git, "the list is Git's, whole");
        let run = sync(&desired, &live, &Options::default());
        assert!(run.converged && run.passes.len() == 2, "one pass converges: {:?}", run.passes);
    }

    fn a_field_removed_from_git_is_removed_from_the_cluster() {
        let v1 = state(json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1", "b": "2"}}]));
        let v2 = state(json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}]));
        let running = sync(&v1, &state(json!([])), &Options::default()).actual;
        let plan = gitops_core::plan(&v2, &running, &Options::default());
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].path, "/data/b");
        assert_eq!(object["data"], json!({"a": "1"}));
    }

    fn split_hooks_leaves_a_hook_out_of_the_resources_their_sync_status_and_the_plan() {
        // gitops-engine's splitHooks (pkg/sync/reconcile.go) and hook.IsHook; Argo CD's
        // controller/state.go gives a hook no sync status, health.go no health.
        let web = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}, "spec": {"replicas": 2}});
        let migrate = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {
            "generateName": "migrate-", "namespace": "shop",
            "annotations": {"argocd.argoproj.io/hook": "PreSync", "argocd.argoproj.io/hook-delete-policy": "HookSucceeded"}}});
        let smoke = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {
            "name": "smoke", "namespace": "shop", "annotations": {"helm.sh/hook": "post-install"}}});
        let desired = state(json!([web.clone(), migrate, smoke]));
        assert!(desired.get("Job/shop/migrate-").is_some(), "a hook with only a generateName is keyed by it");
        let mut tracked = options(true, json!([]));
        tracked.application = Some("shop".into());
        let running = sync(&desired, &state(json!([])), &tracked);
        assert!(running.converged);
        assert_eq!(steps(&running.passes[0]), ["create Deployment/shop/web"], "the plan creates no hook");
        let found = report(&desired, &running.actual, &tracked);
        assert_eq!(found.status.sync, SyncStatus::Synced, "a hook not run yet is not Missing");
        assert_eq!(found.status.health, Health::Progressing, "only web counts");
        let keys: Vec<&str> = found.objects.iter().map(|object| &*object.key).collect();
        assert_eq!(keys, ["Deployment/shop/web"], "a hook is none of the application's objects");

        // A hook's object left from a run, and one made by hand as Argo CD would have
        // named it, are neither extra nor pruned: their delete policy removes them.
        let mut after_a_run = running.actual.clone();
        let left = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {
            "name": "migrate-1a2b3c4-presync-9", "namespace": "shop",
            "annotations": {"argocd.argoproj.io/hook": "PreSync", "argocd.argoproj.io/tracking-id": "shop:batch/Job:shop/migrate-1a2b3c4-presync-9"}},
            "status": {"failed": 1, "conditions": [{"type": "Failed", "status": "True"}]}});
        after_a_run.insert("Job/shop/migrate-1a2b3c4-presync-9", left);
        let found = report(&desired, &after_a_run, &tracked);
        assert!(found.drift.is_empty() && found.drift.unmanaged.is_empty(), "{:?}", found.drift);
        assert!(found.plan.is_empty(), "prune leaves a hook's object alone: {:?}", found.plan);
        assert_eq!(found.status.health, Health::Progressing, "a failed hook's object is not the application's health");
        let untracked = report(&desired, &after_a_run, &options(true, json!([])));
        assert!(untracked.plan.iter().all(|operation| operation.key() != "Job/shop/migrate-1a2b3c4-presync-9"), "without an application too");
        assert!(untracked.drift.extra.is_empty());

        // Git's object turned into a hook: the live object of its key that is no hook
        // is one Git does not declare.
        let mut hooked = web.clone();
        hooked["metadata"]["annotations"] = json!({"argocd.argoproj.io/hook": "Sync"});
        let found = report(&state(json!([hooked])), &running.actual, &tracked);
        assert_eq!(found.drift.extra, ["Deployment/shop/web"]);
    }

    fn a_hook_that_names_no_phase_argo_cd_knows_runs_in_none_and_skip_alone_is_no_hook() {
        // pkg/sync/ignore Ignore: a hook without a known type is left out altogether;
        // hook.Skip: `Skip` alone makes a resource (which Argo CD then never applies).
        let job = |hook: &str| json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {
            "name": "cleanup", "namespace": "shop", "annotations": {"argocd.argoproj.io/hook": hook}}});
        let found = report(&state(json!([job("PreDelete")])), &state(json!([])), &Options::default());
        assert_eq!(found.status.sync, SyncStatus::Synced);
        assert!(found.plan.is_empty());
        let found = report(&state(json!([job("Skip")])), &state(json!([])), &Options::default());
        assert_eq!(found.drift.missing, ["Job/shop/cleanup"], "Skip alone is no hook");
    }

    fn get_sync_tasks_orders_hooks_by_phase_then_wave_and_names_a_generate_name_at_run_time() {
        use gitops_core::sync::hook_tasks::{hook_tasks, DeletePolicy, Phase, Run};
        let job = |metadata: Value| json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata});
        let desired = state(json!([
            job(json!({"generateName": "migrate-", "namespace": "shop", "annotations": {"argocd.argoproj.io/hook": "PreSync"}})),
            job(json!({"name": "seed", "namespace": "shop", "annotations": {"argocd.argoproj.io/hook": "PreSync", "argocd.argoproj.io/sync-wave": "-1"}})),
            job(json!({"name": "smoke", "namespace": "shop", "annotations": {"helm.sh/hook": "post-install,post-upgrade", "helm.sh/hook-weight": "5", "helm.sh/hook-delete-policy": "hook-succeeded"}})),
            job(json!({"name": "both", "namespace": "shop", "annotations": {"argocd.argoproj.io/hook": "PostSync,PreSync,SyncFail"}})),
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}}),
        ]));
        let tracked = Options { application: Some("shop".into()), ..Options::default() };
        let run = Run { revision: "9F8E7D6C5B4A", started: 3 };
        let tasks = hook_tasks(&desired, run, &tracked);
        let order: Vec<String> = tasks.iter().map(|task| format!("{} {} @{}", task.phase, task.key, task.wave)).collect();
        assert_eq!(order, [
            "PreSync Job/shop/seed @-1",
            "PreSync Job/shop/both @0",
            "PreSync Job/shop/migrate-9f8e7d6-presync-3 @0",
            "PostSync Job/shop/both @0",
            "PostSync Job/shop/smoke @5",
            "SyncFail Job/shop/both @0",
        ]);
        let migrate = &tasks[2];
        assert_eq!(&*migrate.declared, "Job/shop/migrate-");
        assert_eq!(migrate.object["metadata"]["name"], "migrate-9f8e7d6-presync-3");
        assert_eq!(migrate.object["metadata"]["generateName"], "migrate-", "kept, as the API server keeps it");
        assert_eq!(migrate.object["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"], "shop:batch/Job:shop/migrate-9f8e7d6-presync-3");
        assert_eq!(migrate.delete, [DeletePolicy::BeforeHookCreation], "the default when none is given");
        assert_eq!(tasks[4].delete, [DeletePolicy::HookSucceeded], "Helm's policy, mapped");
        assert!(tasks.iter().all(|task| task.phase != Phase::Sync));
        assert!(hook_tasks(&state(json!({"migrate": {"annotations": {"argocd.argoproj.io/hook": "PreSync"}}})), run, &tracked).is_empty(), "the lesson's form has no hooks");
    }

    fn only_a_hook_may_have_a_generate_name_instead_of_a_name() {
        // kubectl's apply refuses an object with only a generateName, so Argo CD's sync
        // of one that is no hook fails: it is refused on reading, with why.
        let read = |metadata: Value| gitops_core::State::from_value("desired", json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata}])).map_err(|error| error.to_string());
        let error = read(json!({"generateName": "settings-"})).unwrap_err();
        assert!(error.starts_with("desired at /0/metadata: this ConfigMap has `metadata.generateName` (settings-) but no `metadata.name`"), "{error}");
        assert!(error.contains("cannot use generate name with apply"), "{error}");
        let hook = read(json!({"generateName": "settings-", "name": "", "annotations": {"argocd.argoproj.io/hook": "Sync"}})).unwrap();
        assert!(hook.get("ConfigMap/default/settings-").is_some());
        let named = read(json!({"generateName": "settings-", "name": "settings"})).unwrap();
        assert!(named.get("ConfigMap/default/settings").is_some(), "a name wins");
        let error = read(json!({"annotations": {"argocd.argoproj.io/hook": "Sync"}})).unwrap_err();
        assert!(error.ends_with("a Kubernetes object needs `metadata.name`"), "{error}");
    }

    fn a_helm_hook_weight_is_a_wave_for_any_object() {
        // gitops-engine's syncwaves.Wave falls back to helm.sh/hook-weight.
        let weighted = object("ConfigMap", "first", Some("shop"), json!({"helm.sh/hook-weight": "-2"}));
        let plan = gitops_core::plan(&state(json!([weighted, wave("ConfigMap", "second", 0)])), &state(json!([])), &Options::default());
        assert_eq!(in_waves(&plan), ["create ConfigMap/shop/first @-2", "create ConfigMap/shop/second @0"]);
    }
}

/// A Deployment of `shop` selecting `app`, annotated as given.
fn selecting(name: &str, app: &str, wave: &str, annotations: Value) -> Value {
    let mut annotations = annotations;
    annotations["argocd.argoproj.io/sync-wave"] = json!(wave);
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": name, "namespace": "shop", "annotations": annotations},
           "spec": {"selector": {"matchLabels": {"app": app}},
                    "template": {"metadata": {"labels": {"app": app}}, "spec": {"containers": [{"name": name, "image": "web:1"}]}}}})
}

/// What the API server says of the first update of the plan from `live` to `git`.
fn refused(git: Value, live: Value) -> Option<String> {
    use gitops_core::sync::immutable::{outcome, Outcome};
    let (desired, actual) = (state(json!([git])), state(json!([live])));
    let plan = gitops_core::plan(&desired, &actual, &Options::default());
    match outcome(plan.first()?, &desired, &actual, &Options::default()) {
        Outcome::Refused(refusal) => Some(refusal.message),
        Outcome::Accepted => None,
        recreated => panic!("{recreated:?}"),
    }
}

everywhere! {
    fn the_api_server_refuses_immutable_fields_as_kubernetes_validation_words_it() {
        assert_eq!(
            refused(selecting("web", "web-v2", "0", json!({})), selecting("web", "web", "0", json!({}))).as_deref(),
            Some(r#"Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web-v2"}}: field is immutable"#),
            "the registry strategy's ValidateImmutableField, the value as JSON (Kubernetes 1.34)"
        );
        let database = |storage: &str, replicas: u32| json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "shop"},
            "spec": {"replicas": replicas, "serviceName": "db", "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"resources": {"requests": {"storage": storage}}}}]}});
        assert_eq!(
            refused(database("20Gi", 1), database("10Gi", 1)).as_deref(),
            Some("StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"),
            "ValidateStatefulSetUpdate"
        );
        assert_eq!(refused(database("10Gi", 3), database("10Gi", 1)), None, "replicas may change");
        let migration = |image: &str| json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate", "namespace": "shop"},
            "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "migrate", "image": image}]}}}});
        assert_eq!(
            refused(migration("db:2"), migration("db:1")).as_deref(),
            Some(r#"Job.batch "migrate" is invalid: spec.template: Invalid value: {...}: field is immutable"#),
            "ValidateJobSpecUpdate"
        );
        let service = |ip: &str| json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "shop"}, "spec": {"clusterIP": ip, "ports": [{"port": 80}]}});
        assert_eq!(
            refused(service("10.0.0.2"), service("10.0.0.1")).as_deref(),
            Some(r#"Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.0.0.2"]: may not change once set"#),
            "validateUpgradeDowngradeClusterIPs"
        );
        let mut unset = service("10.0.0.1");
        unset["spec"].as_object_mut().unwrap().remove("clusterIP");
        unset["spec"]["ports"] = json!([{"port": 8080}]);
        assert_eq!(refused(unset, service("10.0.0.1")), None, "an IP Git leaves out keeps the allocated one");
        let settings = |level: &str, immutable: bool| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "shop"}, "immutable": immutable, "data": {"level": level}});
        assert_eq!(
            refused(settings("debug", true), settings("info", true)).as_deref(),
            Some("ConfigMap \"settings\" is invalid: data: Forbidden: field is immutable when `immutable` is set"),
            "ValidateConfigMapUpdate"
        );
        assert_eq!(
            refused(settings("debug", false), settings("info", true)).as_deref(),
            Some("ConfigMap \"settings\" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]"),
            "two errors, aggregated"
        );
        assert_eq!(refused(settings("debug", true), settings("info", false)), None, "it may become immutable");
        let password = |field: &str, value: &str| json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "shop", "labels": {"tier": field}}, "immutable": true, field: {"password": value}});
        let mut relabelled = password("stringData", "hunter2");
        relabelled["metadata"]["labels"]["tier"] = json!("db");
        assert_eq!(refused(relabelled, password("data", "aHVudGVyMg==")), None, "stringData is compared as the data it becomes");
    }

    fn a_refused_update_fails_the_sync_after_its_wave_as_sync_context_runs_waves() {
        let desired = state(json!([
            selecting("api", "api", "0", json!({})),
            selecting("web", "web-v2", "0", json!({})),
            selecting("worker", "worker", "1", json!({})),
        ]));
        let mut api = selecting("api", "api", "0", json!({}));
        api["spec"]["template"]["spec"]["containers"][0]["image"] = json!("web:0");
        let actual = state(json!([api, selecting("web", "web", "0", json!({}))]));
        let run = sync(&desired, &actual, &Options::default());
        assert!(!run.converged);
        assert_eq!(run.passes.len(), 1, "every later pass would be refused alike");
        assert_eq!(run.refused.iter().map(|refusal| refusal.key.as_str()).collect::<Vec<_>>(), ["Deployment/shop/web"]);
        assert!(run.refused[0].message.contains("field is immutable"));
        assert_eq!(run.actual.get("Deployment/shop/api").unwrap()["spec"]["template"]["spec"]["containers"][0]["image"], json!("web:1"), "its wave ran");
        assert_eq!(run.actual.get("Deployment/shop/web").unwrap()["spec"]["selector"], json!({"matchLabels": {"app": "web"}}), "nothing of it was written");
        assert!(run.actual.get("Deployment/shop/worker").is_none(), "the next wave never starts");
    }

    fn force_recreates_what_is_refused_as_kubectl_apply_force_and_fluxs_force_apply_do() {
        use gitops_core::sync::immutable::{outcome, Outcome};
        let what = |git: Value, live: Value, options: &Options| {
            let (desired, actual) = (state(json!([git])), state(json!([live])));
            let plan = gitops_core::plan(&desired, &actual, options);
            match outcome(&plan[0], &desired, &actual, options) {
                Outcome::Accepted => "accepted".to_string(),
                Outcome::Refused(_) => "refused".to_string(),
                Outcome::Recreated { why, object, refusal } => {
                    assert_eq!(object["spec"], desired.get("Deployment/shop/web").unwrap()["spec"], "created as Git has it");
                    format!("recreated ({}) {}", why.split(' ').next().unwrap(), refusal.map_or("accepted", |_| "refused"))
                }
            }
        };
        let plain = Options::default();
        let old = selecting("web", "web", "0", json!({}));
        let new = |annotations: Value| selecting("web", "web-v2", "0", annotations);
        let argo = |options: &str| json!({"argocd.argoproj.io/sync-options": options});
        assert_eq!(what(new(json!({})), old.clone(), &plain), "refused");
        assert_eq!(what(new(argo("Force=true")), old.clone(), &plain), "recreated (argocd.argoproj.io/sync-options:) refused");
        assert_eq!(what(new(json!({})), selecting("web", "web", "0", argo("Force=true")), &plain), "recreated (argocd.argoproj.io/sync-options:) refused", "the live object's annotation counts too");
        assert_eq!(what(new(argo("Replace=true")), old.clone(), &plain), "refused", "kubectl replace is refused alike");
        assert_eq!(what(new(argo("force=true")), old.clone(), &plain), "refused", "Argo CD reads sync options exactly");
        assert_eq!(what(new(json!({"kustomize.toolkit.fluxcd.io/force": "Enabled"})), old.clone(), &plain), "recreated (kustomize.toolkit.fluxcd.io/force:) refused");
        assert_eq!(what(new(json!({})), old.clone(), &Options { force: true, ..Options::default() }), "recreated (force) refused");
        let mut relabelled = selecting("web", "web", "0", argo("Force=true,Replace=true"));
        relabelled["metadata"]["labels"] = json!({"team": "shop"});
        assert_eq!(what(relabelled, old.clone(), &plain), "recreated (argocd.argoproj.io/sync-options:) accepted", "kubectl replace --force recreates at every update");
        let mut relabelled = selecting("web", "web", "0", json!({}));
        relabelled["metadata"]["labels"] = json!({"team": "shop"});
        assert_eq!(what(relabelled, old.clone(), &Options { force: true, ..Options::default() }), "accepted", "force recreates only what is refused");

        let namespace = |labels: Value| json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop", "labels": labels, "annotations": argo("Force=true,Replace=true")}});
        let (desired, actual) = (state(json!([namespace(json!({"a": "1"}))])), state(json!([namespace(json!({}))])));
        let plan = gitops_core::plan(&desired, &actual, &plain);
        assert_eq!(outcome(&plan[0], &desired, &actual, &plain), Outcome::Accepted, "a Namespace is updated, never replaced");

        let run = sync(&state(json!([new(argo("Force=true"))])), &state(json!([old])), &plain);
        assert!(run.converged, "recreated, it converges");
        assert_eq!(run.recreated.iter().map(|recreated| recreated.key.as_str()).collect::<Vec<_>>(), ["Deployment/shop/web"]);
        assert_eq!(run.actual.get("Deployment/shop/web").unwrap()["spec"]["selector"], json!({"matchLabels": {"app": "web-v2"}}));
    }
}
