//! The timeline component mounted in headless Chromium with worlds run from the
//! presets: the Git log and its reverts, pull requests, the registry, what runs, and
//! the agent's state.

#![cfg(target_arch = "wasm32")]

use gitops_world::scenario::Scenario;
use gitops_world::World;
use wasm_bindgen_test::*;

mod common;

use common::dom::{all, rendered, texts};
use common::timeline::{button, mount_world, region, world, ROLLBACK};

const COMPROMISE_PULL: &str = include_str!("../static/presets/compromise-pull.yaml");

const MUTABLE_TAG: &str = include_str!("../static/presets/mutable-tag.yaml");

const MONITORING: &str = include_str!("../static/presets/monitoring.yaml");

const BRANCHES: &str = include_str!("../static/presets/branch-per-environment.yaml");

/// The ids of the world's commits, newest first, as its log lists them.
fn commit_ids(world: &World) -> Vec<String> {
    world
        .history()
        .repository
        .log
        .iter()
        .map(|entry| entry.commit.id.clone())
        .collect()
}

#[wasm_bindgen_test]
async fn the_log_lists_the_commits_newest_first_with_their_changes() {
    let world = world(ROLLBACK);
    let ids = commit_ids(&world);
    let root = mount_world(&world);
    rendered().await;
    let log = region(&root, "Git log").unwrap();
    assert_eq!(texts(&log, ".timeline-commit-id"), ids);
    assert_eq!(
        texts(&log, ".timeline-commit-message"),
        [
            "Revert \"Release web 2.1.0\"",
            "Release web 2.1.0",
            "Initial state"
        ]
    );
    let release = &all(&log, ".timeline-commit")[1];
    assert_eq!(
        texts(release, ".timeline-changes li"),
        [
            "prod: changed Deployment/shop/web at /spec/template/spec/containers/0/image \
          (registry.example/web:2.0.0 → registry.example/web:2.1.0)"
        ]
    );
    assert!(texts(release, ".timeline-why")
        .concat()
        .contains("by bob at minute 2"));
}

#[wasm_bindgen_test]
async fn revert_buttons_name_their_commit_and_report_its_id() {
    let world = world(ROLLBACK);
    let ids = commit_ids(&world);
    let root = mount_world(&world);
    rendered().await;
    let log = region(&root, "Git log").unwrap();
    assert_eq!(
        texts(&log, "button"),
        [format!("Revert {}", ids[0]), format!("Revert {}", ids[1])],
        "every commit but the first"
    );
    assert!(button(&log, &format!("Revert {}", ids[2])).is_none());
    let revert = button(&log, &format!("Revert {}", ids[1])).unwrap();
    assert_eq!(revert.get_attribute("type").as_deref(), Some("button"));
    revert.click();
    rendered().await;
    assert_eq!(texts(&root, ".reverted"), [ids[1].clone()]);
}

#[wasm_bindgen_test]
async fn an_unreviewed_pull_request_shows_as_open_without_approvals() {
    let root = mount_world(&world(COMPROMISE_PULL));
    rendered().await;
    let pulls = region(&root, "Pull requests").unwrap();
    assert_eq!(texts(&pulls, ".timeline-pull-number"), ["#1"]);
    assert_eq!(texts(&pulls, ".timeline-pull-title"), ["Hotfix web"]);
    assert_eq!(texts(&pulls, ".timeline-pull-status"), ["open"]);
    assert_eq!(texts(&pulls, ".timeline-pull-approvals"), ["no approvals"]);
}

#[wasm_bindgen_test]
async fn a_malicious_image_is_marked_where_it_runs_and_in_the_registry() {
    let world = world(MUTABLE_TAG);
    let root = mount_world(&world);
    rendered().await;
    let running = region(&root, "Running").unwrap();
    let rows = all(&running, "tbody tr");
    assert_eq!(rows.len(), 1);
    let row = rows[0].text_content().unwrap();
    assert!(row.contains("registry.example/web:1.4"), "{row}");
    assert!(row.contains("malicious"), "{row}");
    let digest = world.summary().running["prod"]["Deployment/shop/web"][0]
        .digest
        .clone()
        .unwrap();
    assert!(row.contains(&digest[..14]), "a short digest: {row}");
    assert!(!row.contains(&digest[..20]), "only a short digest: {row}");
    let registry = region(&root, "Registry").unwrap();
    assert_eq!(texts(&registry, ".timeline-flag-malicious"), ["malicious"]);
}

#[wasm_bindgen_test]
async fn a_degraded_agent_shows_its_last_error_and_the_revision_it_keeps() {
    let scenario = Scenario::parse("x", MONITORING).unwrap();
    let mut world = World::new(&scenario);
    while world.step < 4 {
        world.next_step();
    }
    let root = mount_world(&world);
    rendered().await;
    let agent = region(&root, "Agent").unwrap();
    let text = agent.text_content().unwrap_or_default();
    assert!(text.contains("Health: Degraded; running"), "{text}");
    assert!(text.contains("Last error: prod: revision"), "{text}");
    let rows = texts(&agent, "tbody tr");
    let summary = world.summary();
    let prod = &summary.status["prod"];
    assert_eq!(
        rows,
        [format!(
            "prod{}{}",
            prod.head,
            prod.synced_revision.clone().unwrap()
        )],
        "Git moved on; the sync did not"
    );
}

#[wasm_bindgen_test]
async fn a_failed_sync_shows_beside_the_revision_the_agent_synced() {
    let text = r#"{
        "registry": [{"tag": "registry.example/api:1", "crashes": true}],
        "repository": {"files": {"envs/prod/api.json": {
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "api", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "-1"}},
            "spec": {"template": {"spec": {"containers": [{"name": "api", "image": "registry.example/api:1"}]}}}
        }, "envs/prod/web.json": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web", "namespace": "shop"}}}},
        "options": {"pollEvery": 1},
        "steps": 5
    }"#;
    let world = World::run(&Scenario::parse("x", text).unwrap());
    let root = mount_world(&world);
    rendered().await;
    let agent = region(&root, "Agent").unwrap();
    let head = world.summary().status["prod"].head.clone();
    let why = "Deployment/shop/api is Degraded, so wave 0 never starts";
    assert_eq!(
        texts(&agent, "tbody tr"),
        [format!(
            "prod{head}none (retrying (3/5) at minute 6: {why})"
        )],
        "an automated sync is retried"
    );
    let once = text.replace(
        r#""pollEvery": 1"#,
        r#""pollEvery": 1, "retry": {"limit": 0}"#,
    );
    let world = World::run(&Scenario::parse("x", &once).unwrap());
    let root = mount_world(&world);
    rendered().await;
    let agent = region(&root, "Agent").unwrap();
    assert_eq!(
        texts(&agent, "tbody tr"),
        [format!("prod{head}none (the sync to {head} failed: {why})")]
    );
}

#[wasm_bindgen_test]
async fn branch_commits_name_their_branch_and_cannot_be_reverted_on_main() {
    let root = mount_world(&world(BRANCHES));
    rendered().await;
    let log = region(&root, "Git log").unwrap();
    let text = log.text_content().unwrap_or_default();
    assert!(
        text.contains("Merge branch staging into prod") && text.contains("on branch prod"),
        "{text}"
    );
    assert!(
        text.contains("prod: changed Deployment/shop/web at /spec/replicas (2 → 1)"),
        "{text}"
    );
    assert!(
        button(&root, "Revert").is_none()
            && log.query_selector(".timeline-revert").unwrap().is_none()
    );
}

#[wasm_bindgen_test]
async fn a_crashing_image_is_marked_in_the_registry() {
    let root = mount_world(&world(ROLLBACK));
    rendered().await;
    let registry = region(&root, "Registry").unwrap();
    let rows = texts(&registry, "tbody tr");
    assert_eq!(rows.len(), 2);
    assert!(
        rows[1].starts_with("registry.example/web:2.1.0"),
        "{rows:?}"
    );
    assert!(rows[1].ends_with("crashes"), "{rows:?}");
    assert!(!rows[0].contains("crashes"), "{rows:?}");
}

/// A world whose one commit changes `count` ConfigMaps.
fn world_with_a_large_commit(count: usize) -> World {
    let files: serde_json::Map<String, serde_json::Value> = (0..count)
        .map(|index| {
            (
                format!("envs/prod/settings-{index:02}.yaml"),
                serde_json::json!({
                    "apiVersion": "v1",
                    "kind": "ConfigMap",
                    "metadata": {"name": format!("settings-{index:02}"), "namespace": "shop"},
                    "data": {"level": "info"}
                }),
            )
        })
        .collect();
    let set: Vec<serde_json::Value> = (0..count)
        .map(|index| {
            serde_json::json!({
                "file": format!("envs/prod/settings-{index:02}.yaml"),
                "path": "/data/level",
                "value": "debug"
            })
        })
        .collect();
    let scenario = serde_json::json!({
        "version": 1,
        "title": "A large commit",
        "repository": {"files": files},
        "script": [{"at": 1, "do": "commit", "author": "bob", "message": "Debug everything", "set": set}]
    });
    world(&scenario.to_string())
}

#[wasm_bindgen_test]
async fn a_commit_s_long_list_of_changes_shows_twenty_then_a_button_for_the_rest() {
    let root = mount_world(&world_with_a_large_commit(25));
    rendered().await;
    let log = region(&root, "Git log").unwrap();
    let large = &all(&log, ".timeline-commit")[0];
    assert_eq!(
        texts(large, ".timeline-commit-message"),
        ["Debug everything"]
    );
    let shown = texts(large, ".timeline-changes li code");
    assert_eq!(shown.len(), 20);
    assert!(
        shown[0].starts_with("prod: changed ConfigMap/shop/settings-00"),
        "{}",
        shown[0]
    );
    button(large, "Show 5 more changes").unwrap().click();
    rendered().await;
    let shown = texts(large, ".timeline-changes li code");
    assert_eq!(shown.len(), 25);
    assert!(shown[24].contains("settings-24"), "{}", shown[24]);
    assert!(button(large, "Show 5 more changes").is_none());
    // The files the commit changed are a list of their own, with a button of its own.
    assert_eq!(texts(large, ".timeline-files li code").len(), 20);
    button(large, "Show 5 more file changes").unwrap().click();
    rendered().await;
    let files = texts(large, ".timeline-files li code");
    assert_eq!(files.len(), 25);
    assert!(files[24].contains("settings-24"), "{}", files[24]);
    assert!(button(large, "Show 5 more file changes").is_none());
}
