//! A sync's hooks and phases in the world, as gitops-engine's
//! sync_context.go runs them: PreSync, the waves with the Sync hooks in
//! theirs, PostSync once every object is Healthy, SyncFail when the sync
//! fails, and each hook's object deleted by its hook-delete-policy.

mod common;

use common::events::{has, lines};

use gitops_testing::everywhere;

use gitops_core::health::Health;
use gitops_core::report::SyncStatus;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

fn job(metadata: Value, image: &str) -> Value {
    json!({
        "apiVersion": "batch/v1", "kind": "Job", "metadata": metadata,
        "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "run", "image": image}]}}},
    })
}

fn web(replicas: u32) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
        "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web:1"}]}}},
    })
}

/// A world whose Git holds `files` (each a JSON manifest under envs/prod),
/// run for `steps` steps.
fn world(files: Value, options: Value, script: Value, steps: u32) -> World {
    let files: serde_json::Map<String, Value> = files
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, object)| (format!("envs/prod/{name}.json"), object.clone()))
        .collect();
    let scenario = json!({
        "registry": [
            {"tag": "registry.example/web:1"},
            {"tag": "registry.example/tools:1"},
            {"tag": "registry.example/tools:broken", "crashes": true},
        ],
        "repository": {"files": files},
        "options": options,
        "script": script,
        "steps": steps,
    });
    World::run(
        &Scenario::parse("test.json", &scenario.to_string())
            .unwrap_or_else(|error| panic!("{error}")),
    )
}

fn count(world: &World, needle: &str) -> usize {
    lines(world)
        .iter()
        .filter(|line| line.contains(needle))
        .count()
}

fn status(world: &World) -> (SyncStatus, Health) {
    let summary = world.summary();
    (summary.status["prod"].sync, summary.status["prod"].health)
}

everywhere! {
    fn sync_context_runs_pre_sync_then_the_waves_with_sync_hooks_then_post_sync_once_all_is_healthy() {
        let hook = |phase: &str, more: Value| {
            let mut annotations = json!({"argocd.argoproj.io/hook": phase});
            annotations.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
            annotations
        };
        let files = json!({
            "web": web(2),
            "check": job(json!({"name": "check", "namespace": "shop", "annotations": hook("PreSync", json!({}))}), "registry.example/tools:1"),
            "seed": job(json!({"name": "seed", "namespace": "shop", "annotations": hook("Sync", json!({"argocd.argoproj.io/sync-wave": "1"}))}), "registry.example/tools:1"),
            "smoke": job(json!({"generateName": "smoke-", "namespace": "shop", "annotations": hook("PostSync", json!({"argocd.argoproj.io/hook-delete-policy": "HookSucceeded"}))}), "registry.example/tools:1"),
        });
        let world = world(files, json!({"pollEvery": 1}), json!([{"at": 9, "do": "sync", "by": "carol", "environment": "prod"}]), 20);
        let head = world.repository.head().id.clone();
        for line in [
            "0 agent: created PreSync hook Job/shop/check in prod".to_string(),
            "1 agent: prod: PreSync waits until hook Job/shop/check completes (it is Progressing)".into(),
            "2 agent: prod: PreSync hook Job/shop/check completed; it is Healthy".into(),
            "2 agent: created Deployment/shop/web in prod".into(),
            "3 agent: prod: wave 1 waits until Deployment/shop/web is Healthy (it is Progressing)".into(),
            "4 agent: created Sync hook Job/shop/seed in prod".into(),
            "5 agent: prod: Sync waits until hook Job/shop/seed completes".into(),
            "6 agent: prod: Sync hook Job/shop/seed completed".into(),
            format!("6 agent: created PostSync hook Job/shop/smoke-{head}-postsync-0 in prod"),
            format!("8 agent: prod: PostSync hook Job/shop/smoke-{head}-postsync-0 completed"),
            format!("8 agent: deleted PostSync hook Job/shop/smoke-{head}-postsync-0 from prod; the sync succeeded and its hook-delete-policy is HookSucceeded"),
        ] {
            assert!(has(&world, &line), "{line}: {:#?}", lines(&world));
        }
        assert_eq!(count(&world, "deleted PreSync hook Job/shop/check"), 1, "BeforeHookCreation keeps it until the next sync creates it again: {:#?}", lines(&world));
        assert!(has(&world, "10 agent: deleted PreSync hook Job/shop/check from prod to create it again; its hook-delete-policy is BeforeHookCreation"));
        assert!(has(&world, "10 agent: created PreSync hook Job/shop/check in prod; a person asked for a sync"), "a person's sync runs the hooks");
        assert!(has(&world, "12 agent: created Sync hook Job/shop/seed in prod; a person asked for a sync"), "the run keeps why it started: {:#?}", lines(&world));
        assert!(has(&world, &format!("14 agent: created PostSync hook Job/shop/smoke-{head}-postsync-10 in prod")), "each run names its own: {:#?}", lines(&world));
        let actual = world.clusters["prod"].actual();
        assert!(actual.get("Job/shop/check").is_some() && actual.get("Job/shop/seed").is_some());
        assert!(actual.objects().keys().all(|key| !key.contains("smoke")), "each smoke test was deleted when its sync succeeded");
        assert!(!has(&world, "is OutOfSync"), "hooks are never Missing nor extra: {:#?}", lines(&world));
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn an_operation_keeps_its_revision_and_the_next_automated_sync_runs_the_new_one_with_its_hooks() {
        let settings = |level: &str| json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "settings", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "1"}}, "data": {"level": level}});
        let files = json!({
            "web": web(2),
            "settings": settings("info"),
            "smoke": job(json!({"generateName": "smoke-", "namespace": "shop", "annotations": {"argocd.argoproj.io/hook": "PostSync", "argocd.argoproj.io/hook-delete-policy": "HookSucceeded"}}), "registry.example/tools:1"),
        });
        let commit = json!([{"at": 1, "do": "commit", "author": "alice", "message": "More logs", "write": {"envs/prod/settings.json": settings("debug")}}]);
        let world = world(files, json!({"pollEvery": 1}), commit, 16);
        let [second, first] = [0, 1].map(|back| world.repository.log().nth(back).map(|commit| commit.id.clone()).unwrap());
        let first_settings = lines(&world).into_iter().find(|line| line.contains("created ConfigMap/shop/settings")).unwrap_or_default();
        assert!(first_settings.contains(&format!("Git moved to {first}")), "wave 1 applies the revision its operation started with: {:#?}", lines(&world));
        assert!(has(&world, &format!("created PostSync hook Job/shop/smoke-{first}-postsync-0 in prod")), "{:#?}", lines(&world));
        assert!(has(&world, "updated ConfigMap/shop/settings in prod at /data/level (info → debug)"), "the next automated sync runs the new revision: {:#?}", lines(&world));
        assert!(lines(&world).iter().any(|line| line.contains(&format!("created PostSync hook Job/shop/smoke-{second}-postsync-"))), "with its own hooks: {:#?}", lines(&world));
        assert_eq!(world.clusters["prod"].actual().get("ConfigMap/shop/settings").unwrap()["data"]["level"], "debug");
    }

    fn a_failed_pre_sync_hook_fails_the_sync_then_sync_fail_hooks_run_and_hook_failed_ones_go() {
        let files = json!({
            "web": web(2),
            "migrate": job(json!({"name": "migrate", "namespace": "shop", "annotations": {
                "argocd.argoproj.io/hook": "PreSync", "argocd.argoproj.io/hook-delete-policy": "HookFailed"}}), "registry.example/tools:broken"),
            "notify": job(json!({"name": "notify", "namespace": "shop", "annotations": {"argocd.argoproj.io/hook": "SyncFail"}}), "registry.example/tools:1"),
        });
        // Without retries (Argo CD retries an automated sync 5 times by default).
        let world = world(files, json!({"pollEvery": 1, "retry": {"limit": 0}}), json!([]), 8);
        let revision = world.repository.head().id.clone();
        assert!(has(&world, &format!("5 agent: prod: the sync to {revision} failed: PreSync hook Job/shop/migrate failed (it is Degraded)")), "said once its SyncFail hooks ran: {:#?}", lines(&world));
        assert!(has(&world, "3 agent: created SyncFail hook Job/shop/notify in prod"));
        assert!(has(&world, "5 agent: prod: SyncFail hook Job/shop/notify completed"));
        assert!(has(&world, "5 agent: deleted PreSync hook Job/shop/migrate from prod; the sync failed and its hook-delete-policy is HookFailed"));
        let actual = world.clusters["prod"].actual();
        assert!(actual.get("Job/shop/notify").is_some(), "BeforeHookCreation: it stays");
        assert!(actual.get("Deployment/shop/web").is_none(), "nothing after a failed PreSync hook runs");
        assert_eq!(count(&world, "created PreSync hook"), 1, "the revision is not retried by itself");
        assert!(has(&world, "prod is OutOfSync: missing Deployment/shop/web; the sync of this revision failed"));
        assert_eq!(world.agent.as_ref().unwrap().applications["prod"].failed_revision.as_deref(), Some(revision.as_str()));
    }

    fn self_heal_and_an_automated_sync_with_nothing_to_do_run_no_hooks() {
        // controller/sync.go skips hooks when the operation names resources, as
        // self-heal's does; appcontroller.go autoSync syncs only an OutOfSync app.
        let migrate = |args: &str| {
            let mut migrate = job(json!({"generateName": "migrate-", "namespace": "shop", "annotations": {"argocd.argoproj.io/hook": "PreSync"}}), "registry.example/tools:1");
            migrate["spec"]["template"]["spec"]["containers"][0]["args"] = json!([args]);
            migrate
        };
        let files = json!({"web": web(2), "migrate": migrate("up")});
        let script = json!([
            {"at": 5, "do": "edit-cluster", "by": "bob", "environment": "prod", "key": "Deployment/shop/web", "path": "/spec/replicas", "value": 5},
            {"at": 7, "do": "commit", "author": "alice", "message": "Migrate verbosely", "write": {"envs/prod/migrate.json": migrate("up --verbose")}},
        ]);
        let world = world(files, json!({"pollEvery": 1, "selfHeal": true}), script, 10);
        assert!(has(&world, "6 agent: Deployment/shop/web in prod drifted at /spec/replicas (5 → 2); reverting"), "{:#?}", lines(&world));
        assert_eq!(count(&world, "created PreSync hook"), 1, "{:#?}", lines(&world));
        let application = &world.agent.as_ref().unwrap().applications["prod"];
        assert_eq!(application.synced_revision.as_deref(), Some(world.repository.head().id.as_str()), "the hook-only change is Synced as it is");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }
}
