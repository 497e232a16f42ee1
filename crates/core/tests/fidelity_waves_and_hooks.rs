//! The core runs a sync as real reconcilers do: by wave, then kind, then name, the
//! waves of deletions mirrored, PruneLast after the last wave, and hooks apart from
//! the resources, in their phases.

mod common;

use gitops_testing::everywhere;

use common::{object, options, state, steps};
use gitops_core::{apply, report, sync, Health, Operation, Options, SyncStatus};
use serde_json::{json, Value};

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

    fn a_crd_moves_to_the_wave_of_its_first_custom_resource() {
        // gitops-engine's syncTasks.Sort: adjustDeps keys a CRD by the group and kind
        // it defines, and gives it the wave of the first task of that kind.
        let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "certificates.example.com", "annotations": {"argocd.argoproj.io/sync-wave": "5"}},
            "spec": {"group": "example.com", "names": {"kind": "Certificate", "plural": "certificates"}, "scope": "Namespaced"}});
        let certificate = json!({"apiVersion": "example.com/v1", "kind": "Certificate",
            "metadata": {"name": "web", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "-2"}}, "spec": {}});
        let plan = gitops_core::plan(&state(json!([crd, certificate])), &state(json!([])), &Options::default());
        assert_eq!(in_waves(&plan), ["create CustomResourceDefinition/certificates.example.com @-2", "create Certificate/shop/web @-2"]);
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
