//! Every preset ends as its explanation says, natively and in the browser;
//! the same scenario always gives the same events.

mod common;

use common::events::{has as has_event, lines as events};

use gitops_testing::everywhere;

use base64::Engine;
use gitops_core::health::Health;
use gitops_core::report::{report, SyncStatus};
use gitops_world::cluster::Running;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::json;

macro_rules! preset {
    ($file:literal) => {
        (
            $file,
            include_str!(concat!("../../../static/presets/", $file)),
        )
    };
}

const PRESETS: [(&str, &str); 27] = [
    preset!("worked-example.json"),
    preset!("compromise-push.yaml"),
    preset!("compromise-pull.yaml"),
    preset!("rollback-by-revert.yaml"),
    preset!("disaster-recovery.yaml"),
    preset!("autoscaler-flapping.yaml"),
    preset!("autoscaler-fixed.yaml"),
    preset!("prune-database.yaml"),
    preset!("prune-database-protected.yaml"),
    preset!("prune-database-confirm.yaml"),
    preset!("secrets-plaintext.yaml"),
    preset!("secrets-external.yaml"),
    preset!("promotion.yaml"),
    preset!("two-repositories.yaml"),
    preset!("branch-per-environment.yaml"),
    preset!("directories-per-environment.yaml"),
    preset!("kustomize-overlays.yaml"),
    preset!("kustomize-promotion.yaml"),
    preset!("mutable-tag.yaml"),
    preset!("digest-pinned.yaml"),
    preset!("synced-not-healthy.yaml"),
    preset!("level-triggered.yaml"),
    preset!("edge-triggered.yaml"),
    preset!("ordering-waves.yaml"),
    preset!("ordering-no-waves.yaml"),
    preset!("ordering-hooks.yaml"),
    preset!("monitoring.yaml"),
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

    fn an_autoscaler_and_the_reconciler_flap_and_self_heal_backs_off_as_argo_cds_does() {
        let world = run("autoscaler-flapping.yaml");
        let steps_of = |needle: &str| -> Vec<u32> {
            world.events.iter().filter(|event| format!("{event}").contains(needle)).map(|event| event.step).collect()
        };
        // selfHealRemainingBackoff: 0, 2, 6, 18 and 54 s end at the next step; 162 s
        // takes 3, and 300 s 5.
        assert_eq!(steps_of("agent: Deployment/shop/web in prod drifted at /spec/replicas (5 → 2); reverting"), [1, 2, 3, 4, 5, 8, 13], "{:#?}", events(&world));
        assert_eq!(steps_of("autoscaler: set Deployment/shop/web in prod at /spec/replicas (2 → 5)"), [0, 1, 2, 3, 4, 5, 8, 13]);
        assert!(has_event(&world, "6 agent: prod is OutOfSync: Deployment/shop/web drifted at /spec/replicas (5 → 2); self-heal backs off: revert 6 of this revision waits until step 8"), "{:#?}", events(&world));
        assert!(has_event(&world, "13 agent: Deployment/shop/web in prod drifted at /spec/replicas (5 → 2); reverting; self-heal is on: revert 7 of this revision, 300 s or more after the last sync"));
        let rules: Vec<&str> = world.summary().status["prod"].warnings.iter().map(|warning| warning.rule).collect();
        assert!(rules.contains(&"field-owned-by-controller"));
    }

    fn an_ignore_rule_ends_the_fight() {
        let world = run("autoscaler-fixed.yaml");
        assert_eq!(count_events(&world, "autoscaler: set"), 1, "{:#?}", events(&world));
        assert_eq!(count_events(&world, "reverting"), 0);
        assert_eq!(prod_actual(&world)[0]["spec"]["replicas"], json!(5));
        assert_eq!(prod_actual(&world)[0]["spec"]["template"]["spec"]["containers"][0]["image"], json!("registry.example/web:2.0.1"), "the release was synced");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
        assert!(world.summary().status["prod"].warnings.iter().all(|warning| warning.rule != "field-owned-by-controller" && warning.rule != "ignore-rule-selects-nothing"));

        // Without RespectIgnoreDifferences=true, Argo CD's sync of the release writes
        // Git's replicas too, and the autoscaler scales up again.
        let mut without = scenario("autoscaler-fixed.yaml");
        without.options.respect_ignore_differences = false;
        let world = World::run(&without);
        assert!(has_event(&world, "agent: updated Deployment/shop/web in prod"), "{:#?}", events(&world));
        assert_eq!(count_events(&world, "autoscaler: set"), 2, "{:#?}", events(&world));
        assert!(world.summary().status["prod"].warnings.iter().any(|warning| warning.message.contains("RespectIgnoreDifferences=true")));
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

    fn a_deletion_that_needs_confirmation_waits_for_a_person() {
        let world = run("prune-database-confirm.yaml");
        assert!(has_event(&world, "agent: prod: wave 0 waits for a person to confirm the deletion of StatefulSet/shop/db (Prune=confirm)"), "{:#?}", events(&world));
        assert!(world.clusters["prod"].actual().get("StatefulSet/shop/db").is_some());
        assert_eq!(status(&world).0, SyncStatus::OutOfSync);

        let mut confirmed = World::new(&scenario("prune-database-confirm.yaml"));
        for _ in 0..4 {
            confirmed.next_step();
        }
        assert_eq!(confirmed.interact("prod", &gitops_world::person::Interaction::ConfirmPrune), Some(true));
        confirmed.next_step();
        assert!(has_event(&confirmed, "you: confirmed the deletion of StatefulSet/shop/db in prod"), "{:#?}", events(&confirmed));
        assert!(has_event(&confirmed, "agent: deleted StatefulSet/shop/db from prod"), "{:#?}", events(&confirmed));
    }

    fn promotion_is_a_reviewed_pull_request() {
        let world = run("promotion.yaml");
        assert!(has_event(&world, "3 alice: could not merge pull request #1; the state repository refused: pull request #1 changes prod and needs an approval by someone other than alice"));
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

    fn a_level_triggered_agent_fixes_what_it_missed_in_one_pass() {
        let world = run("level-triggered.yaml");
        assert!(has_event(&world, "6 agent: updated Deployment/shop/web in prod at /spec/replicas (0 → 2), /spec/template/spec/containers/0/image"));
        assert_eq!(prod_actual(&world)[0]["spec"]["replicas"], json!(2));
        assert_eq!(running(&world, "Deployment/shop/web")[0].reference, "registry.example/web:2.1.0");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn an_edge_triggered_agent_never_notices_what_it_missed() {
        let world = run("edge-triggered.yaml");
        assert!(has_event(&world, "5 agent: the agent started again"));
        assert!(!events(&world).iter().any(|line| line.starts_with("6 agent") || line.starts_with("7 agent") || line.starts_with("8 agent")), "it stays idle");
        assert_eq!(prod_actual(&world)[0]["spec"]["replicas"], json!(0));
        assert_eq!(running(&world, "Deployment/shop/web")[0].reference, "registry.example/web:2.0.0");
        assert_eq!(status(&world).0, SyncStatus::OutOfSync);
    }

    fn waves_start_each_tier_when_the_one_before_is_healthy() {
        let world = run("ordering-waves.yaml");
        let created: Vec<String> = events(&world).into_iter().filter(|line| line.contains("agent: created")).collect();
        let order: Vec<&str> = created.iter().map(|line| line.split_whitespace().nth(3).unwrap()).collect();
        assert_eq!(order, ["Namespace/shop", "StatefulSet/shop/db", "Job/shop/migrate", "Deployment/shop/web"]);
        let steps: Vec<&str> = created.iter().map(|line| line.split_whitespace().next().unwrap()).collect();
        assert_eq!(steps, ["0", "0", "2", "4"], "each wave waits for the last one's health");
        assert!(has_event(&world, "1 agent: prod: wave 0 waits until StatefulSet/shop/db is Healthy (it is Progressing)"));
        assert_eq!(count_events(&world, "cannot start"), 0, "nothing starts before what it needs");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn without_waves_the_app_starts_before_its_database() {
        let world = run("ordering-no-waves.yaml");
        assert_eq!(count_events(&world, "0 agent: created"), 4, "everything at once");
        assert!(has_event(&world, "0 kubelet: Deployment/shop/web in prod cannot start: it needs StatefulSet/shop/db, which is not Healthy yet"));
        assert!(has_event(&world, "2 kubelet: Deployment/shop/web in prod is crash-looping"));
        assert!(has_event(&world, "4 kubelet: Deployment/shop/web in prod starts again"));
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy), "the same end state, reached the hard way");
    }

    fn a_pre_sync_hook_runs_the_migration_before_the_release_and_is_deleted_when_it_succeeds() {
        // gitops-engine's sync_context.go: the PreSync phase before the waves, a
        // generateName named at run time (getSyncTasks), HookSucceeded deleted once the
        // sync succeeded (deleteHooks); the hook is no resource (splitHooks).
        let world = run("ordering-hooks.yaml");
        let head = world.repository.head().id.clone();
        let migrate = format!("Job/shop/migrate-{head}-presync-5");
        assert!(has_event(&world, &format!("5 agent: created PreSync hook {migrate} in prod")), "{:#?}", events(&world));
        assert!(has_event(&world, &format!("6 agent: prod: PreSync waits until hook {migrate} completes (it is Progressing)")));
        assert!(has_event(&world, &format!("7 agent: prod: PreSync hook {migrate} completed")));
        let release = events(&world).iter().position(|line| line.starts_with("7 agent: updated Deployment/shop/web")).expect("web is updated");
        let completed = events(&world).iter().position(|line| line.contains("hook") && line.contains("completed")).unwrap();
        assert!(completed < release, "the migration completes before web is released");
        assert!(has_event(&world, &format!("7 agent: deleted PreSync hook {migrate} from prod; the sync succeeded and its hook-delete-policy is HookSucceeded")));
        assert!(world.clusters["prod"].actual().get(&migrate).is_none());
        assert_eq!(count_events(&world, "cannot start"), 0, "the migration ran against a running database");
        assert_eq!(running(&world, "Deployment/shop/web")[0].reference, "registry.example/web@sha256:7c4a8d09ca3762af61e59520943dc26494f8941b0d1e2f3a4b5c6d7e8f9a0b1c");
        assert!(!has_event(&world, "is OutOfSync"), "the hook is never Missing: {:#?}", events(&world));
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn a_lost_cluster_is_rebuilt_from_git_in_waves() {
        let scenario = scenario("disaster-recovery.yaml");
        let mut before = World::new(&scenario);
        while before.step < 6 {
            before.next_step();
        }
        let world = run("disaster-recovery.yaml");
        assert!(has_event(&world, "7 ops: the prod cluster is lost"));
        assert!(has_event(&world, "9 agent: prod: wave 0 waits until StatefulSet/shop/db is Healthy"));
        assert!(has_event(&world, "12 agent: created Deployment/shop/web in prod"));
        let summary = world.summary();
        assert_eq!(summary.status["prod"].sync, SyncStatus::Synced);
        assert_eq!(summary.status["prod"].health, Health::Healthy);
        assert_eq!(summary.running, before.summary().running, "the same workloads run the same images");
        assert_eq!(summary.desired, before.summary().desired);
    }

    fn a_plaintext_secret_is_warned_and_readable_from_git() {
        let world = run("secrets-plaintext.yaml");
        let rules: Vec<&str> = world.summary().status["prod"].warnings.iter().map(|warning| warning.rule).collect();
        assert!(rules.contains(&"plaintext-secret"));
        let password = base64::engine::general_purpose::STANDARD.decode("aHVudGVyMi1wcm9kdWN0aW9u").unwrap();
        assert_eq!(password, b"hunter2-production", "base64 is no protection");
        assert!(serde_json::to_string(&world.repository.head().files).unwrap().contains("aHVudGVyMi1wcm9kdWN0aW9u"));
    }

    fn a_secret_by_reference_never_passes_through_git_or_a_link() {
        let (name, text) = PRESETS.iter().find(|(name, _)| *name == "secrets-external.yaml").unwrap();
        let world = run(name);
        assert!(world.summary().status["prod"].warnings.iter().all(|warning| warning.rule != "plaintext-secret"));
        let secret = world.clusters["prod"].actual().get("Secret/shop/db-password").expect("the operator wrote the Secret").clone();
        let value = secret["data"]["password"].as_str().expect("a value").to_string();
        let decoded = String::from_utf8(base64::engine::general_purpose::STANDARD.decode(&value).unwrap()).unwrap();
        let session = gitops_world::share::Session::of_scenario(text);
        let link = gitops_world::share::encode(&session);
        let carried = serde_json::to_string(&gitops_world::share::decode(&link).unwrap()).unwrap();
        let history = serde_json::to_string(&world.repository.log().map(|commit| &commit.files).collect::<Vec<_>>()).unwrap();
        for place in [text.to_string(), carried, history] {
            assert!(!place.contains(&value) && !place.contains(&decoded), "the value stays out of Git and links");
        }
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn a_bot_proposes_a_digest_and_review_gates_production() {
        let world = run("two-repositories.yaml");
        assert!(has_event(&world, "2 ci: pushed"));
        assert!(has_event(&world, "3 image-updater: opened pull request #1: Update Deployment/shop/web in prod to registry.example/web@sha256:"));
        let pull_request = &world.repository.pull_requests()[0];
        assert_eq!(pull_request.approvals, ["riley"]);
        assert!(pull_request.merged_as.is_some());
        let pushed = world.registry.resolve("registry.example/web:2.1.0").unwrap().digest.clone();
        assert_eq!(running(&world, "Deployment/shop/web")[0].digest, Some(pushed), "production runs the built image");
        assert!(!events(&world).iter().any(|line| line.contains("ci: changed") || line.contains("image-updater: changed")), "neither CI nor the bot touched the cluster");
        let history = world.history();
        let builds: Vec<(&str, u32)> = history.registry.builds().iter().map(|image| (image.pushed_as.as_str(), image.step)).collect();
        assert_eq!(builds, [("registry.example/web:2.0.0", 0), ("registry.example/web:2.1.0", 2)], "the application repository's builds, oldest first");
        assert!(run("mutable-tag.yaml").history().registry.builds().is_empty(), "no build of CI's on screen, no application repository");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn merging_a_branch_deploys_everything_it_carries() {
        let world = run("branch-per-environment.yaml");
        assert!(has_event(&world, "5 alice: committed"));
        assert!(has_event(&world, "Merge branch staging into prod"));
        let web = &prod_actual(&world)[0];
        assert_eq!(web["spec"]["replicas"], json!(1), "staging's replica count came along");
        assert_eq!(web["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"], json!("debug"), "so did the experiment");
        assert!(web["spec"]["template"]["spec"]["containers"][0]["image"].as_str().unwrap().contains("9b3e5d7"));
        assert_eq!(world.repository.branches().len(), 2);
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn a_directory_promotion_carries_only_the_image() {
        let world = run("directories-per-environment.yaml");
        let web = &prod_actual(&world)[0];
        assert_eq!(web["spec"]["replicas"], json!(2));
        assert!(web["spec"]["template"]["spec"]["containers"][0].get("env").is_none(), "the experiment stayed in staging");
        assert!(web["spec"]["template"]["spec"]["containers"][0]["image"].as_str().unwrap().contains("9b3e5d7"));
        let changes = &world.repository.pull_requests()[0].changes;
        assert_eq!(changes.write.keys().collect::<Vec<_>>(), ["envs/prod/web.yaml"]);
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn a_base_change_renders_in_both_overlays_and_an_overlay_change_in_one() {
        let world = run("kustomize-overlays.yaml");
        let web = |environment: &str| world.clusters[environment].actual().get("Deployment/shop/web").cloned().unwrap_or_else(|| panic!("web in {environment}"));
        let (staging, prod) = (web("staging"), web("prod"));
        assert_eq!(prod["spec"]["replicas"], json!(3));
        assert_eq!(staging["spec"]["replicas"], json!(2));
        assert_eq!(prod["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/web:2.0.0");
        assert_eq!(staging["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/web:2.1.0");
        assert_eq!(prod["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"], "512Mi");
        assert!(staging["spec"]["template"]["spec"]["containers"][0].get("resources").is_none(), "the patch is prod's");
        for web in [&staging, &prod] {
            assert_eq!(web["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"], "json", "the base reached both");
        }
        assert_eq!(prod["spec"]["selector"]["matchLabels"], json!({"app": "web", "env": "prod"}));
        assert_eq!(prod["spec"]["template"]["metadata"]["labels"], json!({"app": "web", "env": "prod"}));
        assert_eq!(world.clusters["prod"].actual().get("Service/shop/web").unwrap()["spec"]["selector"], json!({"app": "web", "env": "prod"}));
        assert!(world.clusters["prod"].actual().objects().keys().all(|key| !key.starts_with("Kustomization")), "a kustomization is not applied");
        let log = world.summary().repository.log;
        let touched = |message: &str| -> Vec<String> {
            let entry = log.iter().find(|entry| entry.commit.message == message).expect("the commit");
            entry.changes.keys().cloned().collect()
        };
        assert_eq!(touched("Log as JSON everywhere"), ["prod", "staging"]);
        assert_eq!(touched("Two replicas in staging"), ["staging"]);
        for environment in ["staging", "prod"] {
            let status = &world.summary().status[environment];
            assert_eq!((status.sync, status.health), (SyncStatus::Synced, Health::Healthy), "{environment}");
        }
    }

    fn a_promotion_by_images_changes_one_line_of_the_overlay() {
        let world = run("kustomize-promotion.yaml");
        let changes = &world.repository.pull_requests()[0].changes;
        assert_eq!(changes.write.keys().collect::<Vec<_>>(), ["envs/prod/kustomization.yaml"]);
        assert!(has_event(&world, "4 alice: merged pull request #1"));
        let log = world.summary().repository.log;
        let merge = log.iter().find(|entry| entry.commit.message.starts_with("Merge pull request #1")).expect("the merge");
        let file_changes: Vec<(&str, &str)> = merge.files.iter().flat_map(|file| file.changes.iter().map(move |change| (file.path.as_str(), change.path.as_str()))).collect();
        assert_eq!(file_changes, [("envs/prod/kustomization.yaml", "/images/0/newTag")], "one line of the overlay");
        let rendered: Vec<(&str, &str)> = merge.changes["prod"].iter().flat_map(|diff| diff.changes.iter().map(move |change| (diff.key.as_str(), change.path.as_str()))).collect();
        assert_eq!(rendered, [("Deployment/shop/web", "/spec/template/spec/containers/0/image")], "one field of prod");
        assert!(!merge.changes.contains_key("staging"));
        let web = world.clusters["prod"].actual().get("Deployment/shop/web").unwrap().clone();
        assert_eq!(web["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/web:2.1.0");
        assert_eq!(web["spec"]["replicas"], json!(3));
        assert_eq!(web["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"], "512Mi");
        assert!(web["spec"]["template"]["spec"]["containers"][0].get("env").is_none(), "the debug patch stayed in staging");
        assert_eq!(running(&world, "Deployment/shop/web")[0].reference, "registry.example/web:2.1.0");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }

    fn a_broken_manifest_degrades_the_agent_and_fires_an_alert() {
        let scenario = scenario("monitoring.yaml");
        let mut world = World::new(&scenario);
        while world.step < 4 {
            world.next_step();
        }
        assert!(has_event(&world, "3 alert: the agent is Degraded: prod: revision"));
        let summary = world.summary();
        let prod = &summary.status["prod"];
        assert_ne!(prod.head, prod.synced_revision.clone().unwrap_or_default(), "sync stays on the old revision");
        let agent = summary.agent.expect("pull mode");
        assert!(agent.last_error.as_deref().unwrap_or_default().contains("envs/prod/web.yaml, line 12"));
        let world = run("monitoring.yaml");
        assert!(has_event(&world, "6 alert: resolved: the agent is Healthy again"));
        let log = world.summary().repository.log;
        let changes: Vec<(&str, &str)> = log.iter().flat_map(|entry| entry.changes.get("prod").into_iter().flatten()).map(|diff| (diff.change, diff.key.as_str())).collect();
        assert_eq!(changes, [("fixed", "envs/prod"), ("cannot read", "envs/prod/web.yaml")], "the log says what broke, not that web was removed");
        assert_eq!(status(&world), (SyncStatus::Synced, Health::Healthy));
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_index_lists_every_preset_file() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/presets");
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
