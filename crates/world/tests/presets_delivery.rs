//! The presets of how changes reach production end as their explanations say,
//! natively and in the browser: compromised CI in either model, rollbacks, promotion
//! and review, image tags and digests, secrets, and the repository's layouts.

mod common;

use common::events::{has as has_event, lines as events};
use common::presets::{prod_actual, run, running, runs_malicious_code, status, PRESETS};

use gitops_testing::everywhere;

use base64::Engine;
use gitops_core::health::Health;
use gitops_core::report::SyncStatus;
use serde_json::json;

everywhere! {
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

    fn promotion_is_a_reviewed_pull_request() {
        let world = run("promotion.yaml");
        assert!(has_event(&world, "3 alice: could not merge pull request #1; the state repository refused: pull request #1 changes prod and needs an approval by someone other than alice"));
        assert!(has_event(&world, "4 bob: approved pull request #1"));
        assert!(world.repository.pull_requests()[0].merged_as.is_some());
        let staging = world.clusters["staging"].running_of("Deployment/shop/web").unwrap()[0].digest.clone();
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
}
