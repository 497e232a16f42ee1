//! Every preset ends as its explanation says, natively and in the browser;
//! the same scenario always gives the same events.

mod common;

use gitops_playground::core::health::Health;
use gitops_playground::core::report::{report, SyncStatus};
use gitops_playground::world::cluster::Running;
use gitops_playground::world::scenario::Scenario;
use gitops_playground::world::World;
use serde_json::json;

macro_rules! preset {
    ($file:literal) => {
        ($file, include_str!(concat!("../static/presets/", $file)))
    };
}

const PRESETS: [(&str, &str); 12] = [
    preset!("worked-example.json"),
    preset!("compromise-push.yaml"),
    preset!("compromise-pull.yaml"),
    preset!("rollback-by-revert.yaml"),
    preset!("autoscaler-flapping.yaml"),
    preset!("autoscaler-fixed.yaml"),
    preset!("prune-database.yaml"),
    preset!("prune-database-protected.yaml"),
    preset!("promotion.yaml"),
    preset!("mutable-tag.yaml"),
    preset!("digest-pinned.yaml"),
    preset!("synced-not-healthy.yaml"),
];

fn scenario(file: &str) -> Scenario {
    let (name, text) = PRESETS
        .iter()
        .find(|(name, _)| *name == file)
        .expect("a preset");
    Scenario::parse(name, text).unwrap_or_else(|error| panic!("{error}"))
}

fn run(file: &str) -> World {
    World::run(&scenario(file))
}

/// The events as `step actor: what; why` lines.
fn events(world: &World) -> Vec<String> {
    world
        .events
        .iter()
        .map(|event| format!("{} {event}", event.step))
        .collect()
}

fn has_event(world: &World, needle: &str) -> bool {
    events(world).iter().any(|line| line.contains(needle))
}

fn count_events(world: &World, needle: &str) -> usize {
    events(world)
        .iter()
        .filter(|line| line.contains(needle))
        .count()
}

fn running<'w>(world: &'w World, key: &str) -> &'w [Running] {
    world.clusters["prod"]
        .running()
        .get(key)
        .copied()
        .unwrap_or_default()
}

fn runs_malicious_code(world: &World) -> bool {
    running(world, "Deployment/shop/web")
        .iter()
        .any(|image| image.malicious)
}

fn status(world: &World) -> (SyncStatus, Health) {
    let summary = world.summary();
    let prod = &summary.status["prod"];
    (prod.sync, prod.health)
}

fn prod_actual(world: &World) -> serde_json::Value {
    world.clusters["prod"].actual().to_value()
}

everywhere! {
    fn every_preset_reads_and_says_what_it_shows() {
        for (name, text) in PRESETS {
            let scenario = Scenario::parse(name, text).unwrap_or_else(|error| panic!("{error}"));
            assert!(scenario.title.as_deref().is_some_and(|title| !title.is_empty()), "{name} has a title");
            assert!(scenario.explanation.as_deref().is_some_and(|text| text.len() > 80), "{name} explains itself");
            assert!(scenario.section.is_some(), "{name} names its lesson section");
        }
    }

    fn the_same_scenario_gives_the_same_events_every_time() {
        for (name, _) in PRESETS {
            let (first, second) = (run(name), run(name));
            assert_eq!(first.events, second.events, "{name}");
            assert_eq!(first.summary(), second.summary(), "{name}");
        }
    }

    fn the_worked_example_converges_and_heals() {
        let world = run("worked-example.json");
        assert!(has_event(&world, "0 agent: updated web in prod at /replicas (10 → 3)"));
        assert!(has_event(&world, "0 agent: deleted debug from prod"));
        assert!(has_event(&world, "3 bob: changed web in prod at /replicas (3 → 10)"));
        assert!(has_event(&world, "4 agent: web in prod drifted at /replicas (10 → 3); reverting; self-heal is on"));
        let summary = world.summary();
        assert_eq!(summary.actual["prod"], summary.desired["prod"]);
    }

    fn compromised_ci_in_the_push_model_ships_to_production() {
        let world = run("compromise-push.yaml");
        assert!(world.agent.is_none());
        assert!(runs_malicious_code(&world), "the attacker's image runs");
        assert_eq!(world.repository.log().count(), 1, "Git never recorded it");
        assert!(!serde_json::to_string(&world.repository.head().files).unwrap().contains("hotfix"));
        assert_eq!(status(&world).0, SyncStatus::OutOfSync, "the cluster differs from Git, and nothing reverts it");
    }

    fn compromised_ci_in_the_pull_model_cannot_reach_production() {
        let world = run("compromise-pull.yaml");
        assert!(has_event(&world, "3 ci: could not change Deployment/shop/web in prod; in pull mode CI holds no cluster credentials"));
        let pull_request = &world.repository.pull_requests()[0];
        assert!(pull_request.approvals.is_empty() && pull_request.merged_as.is_none(), "the pull request waits for review");
        assert!(has_event(&world, "6 agent: Deployment/shop/web in prod drifted at /spec/template/spec/containers/0/image"));
        assert!(!runs_malicious_code(&world), "the stolen-credentials change was reverted");
        assert_eq!(world.repository.log().count(), 1);
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn a_rollback_is_a_revert() {
        let world = run("rollback-by-revert.yaml");
        assert!(has_event(&world, "5 kubelet: Deployment/shop/web in prod is crash-looping"));
        assert!(has_event(&world, "6 alice: committed"));
        let log: Vec<&str> = world.repository.log().map(|commit| commit.message.as_str()).collect();
        assert_eq!(log, ["Revert \"Release web 2.1.0\"", "Release web 2.1.0", "Initial state"]);
        let images = running(&world, "Deployment/shop/web");
        assert_eq!(images[0].reference, "registry.example/web:2.0.0");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn an_autoscaler_and_the_reconciler_flap() {
        let world = run("autoscaler-flapping.yaml");
        assert!(count_events(&world, "autoscaler: set Deployment/shop/web in prod at /spec/replicas (2 → 5)") >= 5);
        assert!(count_events(&world, "agent: Deployment/shop/web in prod drifted at /spec/replicas (5 → 2); reverting") >= 5);
        let rules: Vec<&str> = world.summary().status["prod"].warnings.iter().map(|warning| warning.rule).collect();
        assert!(rules.contains(&"field-owned-by-controller"));
    }

    fn an_ignore_rule_ends_the_fight() {
        let world = run("autoscaler-fixed.yaml");
        assert_eq!(count_events(&world, "autoscaler: set"), 1);
        assert_eq!(count_events(&world, "reverting"), 0);
        assert_eq!(prod_actual(&world)[0]["spec"]["replicas"], json!(5));
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
        assert!(world.summary().status["prod"].warnings.iter().all(|warning| warning.rule != "field-owned-by-controller"));
    }

    fn a_directory_change_prunes_an_unprotected_database() {
        let scenario = scenario("prune-database.yaml");
        let (desired, actual) = scenario.initial();
        let warned = report(&desired, &actual, &scenario.options.reconcile()).warnings;
        assert!(warned.iter().any(|warning| warning.rule == "unprotected-prune" && warning.key == "StatefulSet/shop/db"));
        let world = World::run(&scenario);
        assert!(has_event(&world, "agent: deleted StatefulSet/shop/db from prod"));
        assert!(world.clusters["prod"].actual().get("StatefulSet/shop/db").is_none(), "the database is gone");
    }

    fn a_protected_database_survives_the_same_change() {
        let world = run("prune-database-protected.yaml");
        assert!(has_event(&world, "agent: kept StatefulSet/shop/db in prod, which Git no longer declares; protected by the annotation argocd.argoproj.io/sync-options: Prune=false"));
        assert!(world.clusters["prod"].actual().get("StatefulSet/shop/db").is_some());
        assert_eq!(status(&world).0, SyncStatus::OutOfSync, "someone notices the manifest left Git");
    }

    fn promotion_is_a_reviewed_pull_request() {
        let world = run("promotion.yaml");
        assert!(has_event(&world, "3 git: refused to merge pull request #1; pull request #1 changes prod and needs an approval by someone other than alice"));
        assert!(has_event(&world, "4 bob: approved pull request #1"));
        assert!(world.repository.pull_requests()[0].merged_as.is_some());
        let staging = world.clusters["staging"].running()["Deployment/shop/web"][0].digest.clone();
        assert_eq!(running(&world, "Deployment/shop/web")[0].digest, staging, "production runs what staging ran");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn a_mutable_tag_changes_what_runs_while_git_stays() {
        let world = run("mutable-tag.yaml");
        assert!(runs_malicious_code(&world));
        assert_eq!(world.repository.log().count(), 1);
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy), "the reconciler sees no difference");
    }

    fn a_digest_pin_keeps_what_runs() {
        let world = run("digest-pinned.yaml");
        assert!(has_event(&world, "3 kubelet: Deployment/shop/web in prod starts"));
        assert!(!runs_malicious_code(&world));
    }

    fn synced_is_not_healthy() {
        let world = run("synced-not-healthy.yaml");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Degraded));
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_index_lists_every_preset_file() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/static/presets");
    let index: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(format!("{directory}/index.json")).unwrap())
            .unwrap();
    let mut files: Vec<String> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name != "index.json")
        .collect();
    files.sort();
    let mut listed = index.clone();
    listed.sort();
    assert_eq!(listed, files);
    let tested: Vec<&str> = PRESETS.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        index, tested,
        "the tests cover the presets in the menu's order"
    );
}
