//! Argo CD's own example applications (`fixtures/argocd-example-apps`), each an
//! environment's path as an Application's `source.path`, run from their files:
//! each ends Synced and Healthy, its hooks in their phases (gitops-engine's
//! `sync_context.go`: PreSync, then the waves with their Sync hooks, then
//! PostSync once all is Healthy), Helm's hooks mapped as Argo CD maps them.

mod common;

use common::events::lines;
use gitops_testing::everywhere;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Map, Value};

macro_rules! file {
    ($path:literal) => {
        ($path, include_str!(concat!("fixtures/argocd-example-apps/", $path)))
    };
}

/// Every file of the five examples, by its path in their repository (read in
/// at build time: the tests run in wasm too, which has no file system).
const FILES: [(&str, &str); 10] = [
    file!("guestbook/guestbook-ui-deployment.yaml"),
    file!("guestbook/guestbook-ui-svc.yaml"),
    file!("helm-hooks/manifests.yaml"),
    file!("kustomize-guestbook/guestbook-ui-deployment.yaml"),
    file!("kustomize-guestbook/guestbook-ui-svc.yaml"),
    file!("kustomize-guestbook/kustomization.yaml"),
    file!("pre-post-sync/kustomization.yaml"),
    file!("pre-post-sync/post-sync-job.yaml"),
    file!("pre-post-sync/pre-sync-job.yaml"),
    file!("sync-waves/manifests.yaml"),
];

/// The world of the example `name` (and the directories it builds on), run for
/// 20 minutes; its event lines.
fn run(name: &str, bases: &[&str]) -> (World, Vec<String>) {
    let mut files = Map::new();
    for (path, text) in FILES {
        let (directory, _) = path.split_once('/').unwrap();
        if directory == name || bases.contains(&directory) {
            files.insert(path.to_string(), Value::from(text));
        }
    }
    let scenario = json!({
        "repository": {"files": files},
        "environments": {"prod": {"path": name}},
        "options": {"pollEvery": 1},
        "steps": 20,
    });
    let world = World::run(&Scenario::parse(&format!("{name}.json"), &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
    let lines = lines(&world);
    (world, lines)
}

/// Asserts that the world ends Synced and Healthy, and that lines containing
/// each of `order` come in that order.
fn ends_synced_and_healthy_after(world: &World, lines: &[String], order: &[&str]) {
    let status = &world.summary().status["prod"];
    assert_eq!((status.sync.to_string(), status.health.to_string()), ("Synced".into(), "Healthy".into()), "{lines:#?}");
    let mut from = 0;
    for needle in order {
        let at = lines[from..].iter().position(|line| line.contains(needle)).unwrap_or_else(|| panic!("{needle} after line {from}: {lines:#?}"));
        from += at + 1;
    }
}

everywhere! {
    fn guestbook_and_kustomize_guestbook_sync_their_deployment_and_service() {
        let (world, lines) = run("guestbook", &[]);
        ends_synced_and_healthy_after(&world, &lines, &["created Service/default/guestbook-ui", "created Deployment/default/guestbook-ui"]);
        let (world, lines) = run("kustomize-guestbook", &[]);
        ends_synced_and_healthy_after(&world, &lines, &["created Service/default/kustomize-guestbook-ui", "created Deployment/default/kustomize-guestbook-ui"]);
    }

    fn sync_waves_runs_its_pre_sync_hook_then_each_wave_with_its_sync_hooks() {
        let (world, lines) = run("sync-waves", &[]);
        let head = world.repository.head().id.clone();
        ends_synced_and_healthy_after(&world, &lines, &[
            &format!("created PreSync hook Job/default/upgrade-sql-schema{head}-presync-0"),
            "PreSync hook Job/default/upgrade-sql-schema",
            "created ReplicaSet/default/backend",
            "wave 1 waits until ReplicaSet/default/backend is Healthy",
            "created Sync hook Job/default/maint-page-up",
            "Sync hook Job/default/maint-page-up completed",
            "created ReplicaSet/default/frontend",
            "wave 3 waits until ReplicaSet/default/frontend is Healthy",
            "created Sync hook Job/default/maint-page-down",
            "Sync hook Job/default/maint-page-down completed",
        ]);
    }

    fn helm_hooks_run_as_argo_cd_maps_them_pre_install_weighted_then_post_install() {
        let (world, lines) = run("helm-hooks", &[]);
        ends_synced_and_healthy_after(&world, &lines, &[
            "created PreSync hook Job/default/upgrade-sql-schema",
            "created PreSync hook Job/default/maint-page-up",
            "created ReplicaSet/default/frontend",
            "wave 2 waits until ReplicaSet/default/frontend is Healthy",
            "created Service/default/frontend",
            "created PostSync hook Job/default/maint-page-down",
            "PostSync hook Job/default/maint-page-down completed",
        ]);
    }

    fn pre_post_sync_builds_on_kustomize_guestbook_and_deletes_its_hooks_when_they_succeed() {
        let (world, lines) = run("pre-post-sync", &["kustomize-guestbook"]);
        ends_synced_and_healthy_after(&world, &lines, &[
            "created PreSync hook Job/default/pre-post-sync-before",
            "PreSync hook Job/default/pre-post-sync-before completed",
            "created Deployment/default/pre-post-sync-kustomize-guestbook-ui",
            "PostSync waits until Deployment/default/pre-post-sync-kustomize-guestbook-ui is Healthy",
            "created PostSync hook Job/default/pre-post-sync-after",
            "PostSync hook Job/default/pre-post-sync-after completed",
            "deleted PreSync hook Job/default/pre-post-sync-before",
        ]);
        assert!(world.clusters["prod"].actual().objects().keys().all(|key| !key.starts_with("Job/")), "HookSucceeded deletes both: {lines:#?}");
    }
}
