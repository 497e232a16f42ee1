//! The presets of how reconciling works end as their explanations say, natively and
//! in the browser: self-heal and drift, an autoscaler's fight, pruning a database,
//! level and edge triggers, waves and hooks, recovery, monitoring and health.

mod common;

use common::events::{has as has_event, lines as events};
use common::presets::{count_events, prod_actual, run, running, scenario, status};

use gitops_testing::everywhere;

use gitops_core::health::Health;
use gitops_core::report::{report, SyncStatus};
use gitops_world::World;
use serde_json::json;

everywhere! {
    fn the_worked_example_converges_and_heals() {
        let world = run("worked-example.json");
        assert!(has_event(&world, "0 agent: updated web in prod at /replicas (10 → 3)"));
        assert!(has_event(&world, "0 agent: deleted debug from prod"));
        assert!(has_event(&world, "3 bob: changed web in prod at /replicas (3 → 10)"));
        assert!(has_event(&world, "4 agent: web in prod drifted at /replicas (10 → 3); reverting; self-heal is on"));
        let summary = world.summary();
        assert_eq!(summary.actual["prod"], summary.desired["prod"]);
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
        assert!(has_event(&world, "6 agent: prod is OutOfSync: Deployment/shop/web drifted at /spec/replicas (5 → 2); self-heal backs off: revert 6 of this revision waits until minute 8"), "{:#?}", events(&world));
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
