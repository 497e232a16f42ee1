//! The agent over time: polling and webhooks, its health and alerts, self-heal,
//! auto-sync, pruning in waves, a sync's retries, and deletions that wait for a person.

mod common;

use common::events::{has, lines};
use common::worlds::{commit, world};

use gitops_testing::everywhere;

use gitops_world::agent::AgentHealth;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

everywhere! {
    fn the_agent_polls_every_n_steps_or_hears_a_webhook() {
        let change = commit(1, json!({"web": {"image": "web:2", "replicas": 2}}));
        let polling = world(json!({"pollEvery": 3}), json!([change]));
        assert!(has(&polling, "3 agent: updated web in prod at /image (web:1 → web:2)"), "{:#?}", lines(&polling));
        let hooked = world(json!({"pollEvery": 3, "webhook": true}), json!([change]));
        assert!(has(&hooked, "2 agent: prod: fetched revision"), "{:#?}", lines(&hooked));
        assert!(has(&hooked, "a webhook said Git moved"));
    }

    fn an_invalid_manifest_is_merged_but_nothing_happens_and_the_agent_says_so() {
        let good = commit(1, json!({"web": {"image": "web:2", "replicas": 2}}));
        let broken = json!({"at": 3, "do": "commit", "author": "bob", "message": "Scale web", "write": {"envs/prod/manifests.json": "{\"web\": {\"replicas\": 3"}});
        let world = world(json!({"pollEvery": 1}), json!([good, broken]));
        assert!(has(&world, "4 agent: prod: cannot use revision"), "{:#?}", lines(&world));
        assert!(has(&world, "4 alert: the agent is Degraded"));
        let agent = world.agent.as_ref().unwrap();
        assert_eq!(agent.health, AgentHealth::Degraded);
        assert!(agent.last_error.as_deref().unwrap().contains("EOF while parsing"));
        let application = &agent.applications["prod"];
        assert_ne!(application.synced_revision.as_deref(), Some(world.repository.head().id.as_str()), "sync stays on the old revision");
        assert_eq!(world.clusters["prod"].actual().get("web").unwrap()["image"], "web:2");
        let summary = world.summary();
        assert_eq!(format!("{:?}", summary.status["prod"].sync), "Unknown");
    }

    fn a_fixed_manifest_clears_the_alert() {
        let broken = json!({"at": 1, "do": "commit", "author": "bob", "message": "Break", "write": {"envs/prod/manifests.json": "{"}});
        let fixed = commit(3, json!({"web": {"image": "web:3", "replicas": 2}}));
        let world = world(json!({"pollEvery": 1}), json!([broken, fixed]));
        assert!(has(&world, "4 alert: resolved: the agent is Healthy again"), "{:#?}", lines(&world));
        assert!(has(&world, "4 agent: updated web in prod at /image (web:1 → web:3)"));
        assert_eq!(world.agent.as_ref().unwrap().health, AgentHealth::Healthy);
    }

    fn an_agent_without_access_reports_it() {
        let change = commit(2, json!({"web": {"image": "web:2", "replicas": 2}}));
        let revoke = json!({"at": 1, "do": "revoke-access"});
        let world = world(json!({"pollEvery": 1}), json!([revoke, change]));
        assert!(has(&world, "2 agent: prod: cannot read the state repository: access denied"));
        assert!(has(&world, "alert: the agent is Degraded"));
        assert_eq!(world.clusters["prod"].actual().get("web").unwrap()["image"], "web:1");
    }

    fn a_stopped_agent_misses_changes_and_fixes_them_all_when_it_returns() {
        let script = json!([
            {"at": 1, "do": "stop-agent"},
            {"at": 2, "do": "edit-cluster", "by": "bob", "key": "web", "path": "/replicas", "value": 9},
            {"at": 3, "do": "edit-cluster", "by": "bob", "key": "web", "path": "/image", "value": "web:debug"},
            {"at": 5, "do": "start-agent"},
        ]);
        let world = world(json!({"pollEvery": 1}), script);
        assert!(!has(&world, "3 agent:") && !has(&world, "4 agent:"));
        assert!(has(&world, "6 agent: web in prod drifted at /image (web:debug → web:1), /replicas (9 → 2); reverting"), "{:#?}", lines(&world));
    }

    fn without_self_heal_drift_is_reported_once_and_left() {
        let edit = json!({"at": 2, "do": "edit-cluster", "by": "bob", "key": "web", "path": "/replicas", "value": 9});
        let world = world(json!({"pollEvery": 1, "selfHeal": false}), json!([edit]));
        assert_eq!(lines(&world).iter().filter(|line| line.contains("prod is OutOfSync: web drifted at /replicas (9 → 2)")).count(), 1);
        assert!(has(&world, "self-heal is off, so it reports the change and leaves it"));
        assert_eq!(world.clusters["prod"].actual().get("web").unwrap()["replicas"], 9);
    }

    fn a_pruned_namespace_takes_what_is_in_it_and_the_agent_says_so() {
        let scenario = json!({
            "desired": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept", "namespace": "billing"}}],
            "actual": [
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept", "namespace": "billing"}},
                {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}},
                {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "shop",
                    "annotations": {"argocd.argoproj.io/sync-options": "Prune=false"}}},
            ],
            "options": {"prune": true, "pollEvery": 1},
            "steps": 2,
        });
        let world = World::run(&Scenario::parse("test.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, "deleted Namespace/shop from prod, and with it everything in it: StatefulSet/shop/db"), "{:#?}", lines(&world));
        let left: Vec<&str> = world.clusters["prod"].actual().objects().keys().map(|key| &**key).collect();
        assert_eq!(left, ["ConfigMap/billing/kept"]);
    }

    fn ignore_extraneous_keeps_self_heal_from_pruning_until_a_sync_runs_for_something_else() {
        let config = |name: &str, annotations: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "shop", "annotations": annotations}, "data": {"level": "info"}});
        let scenario = json!({
            "repository": {"files": {"envs/prod/settings.json": config("settings", json!({}))}},
            "clusters": {"prod": [config("settings", json!({})), config("generated", json!({"argocd.argoproj.io/compare-options": "IgnoreExtraneous"}))]},
            "options": {"prune": true, "pollEvery": 1},
            "script": [{"at": 5, "do": "commit", "author": "alice", "message": "More logs", "write": {"envs/prod/settings.json": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "shop"}, "data": {"level": "debug"}}}}],
            "steps": 8,
        });
        let scenario = Scenario::parse("test.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}"));
        let mut world = World::new(&scenario);
        for _ in 0..4 {
            world.next_step();
        }
        assert!(world.clusters["prod"].actual().get("ConfigMap/shop/generated").is_some(), "self-heal leaves it: the application is Synced: {:#?}", lines(&world));
        assert_eq!(world.summary().status["prod"].sync.to_string(), "Synced");
        assert!(has(&world, "prod is Synced: not in Git: ConfigMap/shop/generated"), "{:#?}", lines(&world));
        assert!(has(&world, "IgnoreExtraneous, which leaves the application Synced"), "{:#?}", lines(&world));
        assert!(!has(&world, "prod is OutOfSync"), "{:#?}", lines(&world));
        for _ in 4..8 {
            world.next_step();
        }
        assert!(has(&world, "deleted ConfigMap/shop/generated from prod"), "the sync for the new commit prunes it: {:#?}", lines(&world));
    }

    fn an_object_that_names_no_namespace_lands_in_the_destination_namespace() {
        let config: Value = serde_json::from_str(include_str!("../../core/tests/fixtures/argo-cd/diff/elasticsearch-config.json")).unwrap();
        let live: Value = serde_json::from_str(include_str!("../../core/tests/fixtures/argo-cd/diff/elasticsearch-live.json")).unwrap();
        let scenario = |options: Value| {
            let text = json!({
                "repository": {"files": {"envs/prod/elasticsearch.json": config}},
                "clusters": {"prod": [live]},
                "options": options,
                "steps": 2,
            });
            World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let theirs = scenario(json!({"namespace": "elasticsearch4", "autoSync": false}));
        assert_eq!(theirs.summary().status["prod"].sync.to_string(), "Synced", "Argo CD's own fixture is in sync in its destination: {:#?}", lines(&theirs));
        let default = scenario(json!({"autoSync": false}));
        assert_eq!(default.summary().status["prod"].sync.to_string(), "OutOfSync", "in default it is another object");
        let synced = scenario(json!({"namespace": "search"}));
        assert!(synced.clusters["prod"].actual().get("StatefulSet/search/elasticsearch4-data").is_some(), "{:#?}", lines(&synced));
    }

    fn the_agent_prunes_in_mirrored_waves_and_first_in_each_wave() {
        let object = |kind: &str, name: &str, wave: i64, options: Option<&str>| {
            let mut annotations = json!({"argocd.argoproj.io/sync-wave": wave.to_string()});
            if let Some(options) = options {
                annotations["argocd.argoproj.io/sync-options"] = json!(options);
            }
            json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name, "namespace": "shop", "annotations": annotations}})
        };
        let run = |desired: Value, actual: Value| {
            let scenario = json!({"desired": desired, "actual": actual, "options": {"prune": true, "pollEvery": 1}, "steps": 6});
            let world = World::run(&Scenario::parse("test.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
            world
                .events
                .iter()
                .filter(|event| event.actor == "agent" && (event.what.starts_with("deleted") || event.what.starts_with("created")))
                .map(|event| format!("{} {}", event.step, event.what))
                .collect::<Vec<_>>()
        };
        // Prune waves -5 and 0 swap: the workload made last goes first.
        let mirrored = run(
            json!([object("ConfigMap", "settings-v2", 0, None), object("Service", "web-v2", 5, None)]),
            json!([object("ConfigMap", "settings-v1", -5, None), object("Service", "web-v1", 0, None)]),
        );
        assert_eq!(
            mirrored,
            [
                "0 deleted Service/shop/web-v1 from prod",
                "1 deleted ConfigMap/shop/settings-v1 from prod",
                "2 created ConfigMap/shop/settings-v2 in prod",
                "3 created Service/shop/web-v2 in prod",
            ]
        );
        // A rename in one wave: the old Service goes before the new one exists...
        let renamed = run(json!([object("Service", "web-v2", 0, None)]), json!([object("Service", "web-v1", 0, None)]));
        assert_eq!(renamed, ["0 deleted Service/shop/web-v1 from prod", "0 created Service/shop/web-v2 in prod"]);
        // ...unless it prunes last: then it goes in a wave after the new one.
        let kept_until_last = run(
            json!([object("Service", "web-v2", 0, None)]),
            json!([object("Service", "web-v1", 0, Some("PruneLast=true"))]),
        );
        assert_eq!(kept_until_last, ["0 created Service/shop/web-v2 in prod", "1 deleted Service/shop/web-v1 from prod"]);
    }

    fn without_auto_sync_a_person_syncs() {
        let change = commit(1, json!({"web": {"image": "web:2", "replicas": 2}}));
        let sync = json!({"at": 4, "do": "sync", "by": "carol"});
        let world = world(json!({"pollEvery": 1, "autoSync": false}), json!([change, sync]));
        assert!(has(&world, "auto-sync is off: it waits for a person to sync"));
        assert!(has(&world, "5 agent: updated web in prod at /image (web:1 → web:2); a person asked for a sync"), "{:#?}", lines(&world));
    }

    fn an_automatic_sync_does_not_prune_everything_unless_allowed() {
        let emptied = commit(1, json!({}));
        let sync = json!({"at": 3, "do": "sync", "by": "carol"});
        let refused = world(json!({"prune": true, "pollEvery": 1}), json!([emptied]));
        assert!(has(&refused, "2 agent: prod: skipped the automatic sync to"), "{:#?}", lines(&refused));
        assert!(has(&refused, "it would delete every object; Git declares nothing for it, prune is on and allowEmpty is off"));
        assert_eq!(lines(&refused).iter().filter(|line| line.contains("skipped the automatic sync")).count(), 1, "said once");
        assert!(refused.clusters["prod"].actual().get("web").is_some(), "web stays");

        let by_hand = world(json!({"prune": true, "pollEvery": 1}), json!([emptied, sync]));
        assert!(has(&by_hand, "4 agent: deleted web from prod"), "a person's sync is not refused: {:#?}", lines(&by_hand));
        let allowed = world(json!({"prune": true, "pollEvery": 1, "allowEmpty": true}), json!([emptied]));
        assert!(has(&allowed, "2 agent: deleted web from prod"), "{:#?}", lines(&allowed));
        let kept = world(json!({"prune": false, "pollEvery": 1}), json!([emptied]));
        assert!(!has(&kept, "skipped the automatic sync"), "without prune nothing would be deleted: {:#?}", lines(&kept));
    }

    fn a_missing_path_is_an_error_and_not_an_environment_that_declares_nothing() {
        let web = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 1}});
        let scenario = json!({
            "repository": {"files": {"envs/prod/web.yaml": web}},
            "options": {"pollEvery": 1, "prune": true, "allowEmpty": true},
            "script": [{"at": 2, "do": "commit", "author": "alice", "message": "Remove prod", "remove": ["envs/prod/web.yaml"]}],
            "steps": 5,
        });
        let world = World::run(&Scenario::parse("test.json", &scenario.to_string()).unwrap());
        assert!(has(&world, "3 agent: prod: cannot use revision"), "{:#?}", lines(&world));
        assert!(has(&world, "of envs/prod is invalid: envs/prod: the path does not exist at this revision"), "{:#?}", lines(&world));
        assert!(world.clusters["prod"].actual().get("Deployment/default/web").is_some(), "nothing is pruned: {:#?}", lines(&world));
        assert!(world.summary().status["prod"].error.as_deref().unwrap_or_default().contains("the path does not exist"));
    }

    fn nothing_syncs_while_git_and_the_cluster_are_in_different_forms() {
        use gitops_world::person::Interaction;
        let mut world = world(json!({"pollEvery": 1, "prune": true}), json!([]));
        let service = r#"[{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"}}]"#;
        assert_eq!(world.interact("prod", &Interaction::Actual(service.into())), Some(true), "a text of either form is taken");
        assert!(world.forms_differ("prod").unwrap().contains("Git holds named objects (the lesson's form) and the cluster holds Kubernetes objects"));
        assert!(!world.has_work("prod"), "a person cannot step");
        world.next_step();
        world.next_step();
        assert!(has(&world, "agent: prod: syncs nothing: Git holds named objects"), "{:#?}", lines(&world));
        assert_eq!(world.clusters["prod"].actual().len(), 1, "nothing was written across forms");
        assert_eq!(world.interact("prod", &Interaction::Desired(service.into())), Some(true));
        assert!(world.forms_differ("prod").is_some(), "a working copy is not Git");
        assert_eq!(world.interact("prod", &Interaction::Commit(String::new())), Some(true));
        assert!(world.forms_differ("prod").is_none(), "both in one form");
    }

    fn a_degraded_earlier_wave_fails_the_sync_which_is_retried_before_failed_previous_sync_attempt_holds() {
        // Argo CD's autoSync gives an automated sync RetryStrategy{Limit: 5}; NextRetryAt
        // waits 5 s, doubling, at most 3 min; the time moves a minute at a time.
        let deployment = |name: &str, wave: &str, image: &str| json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": wave}},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": name, "image": image}]}}},
        });
        let scenario = |options: Value, script: Value| {
            let text = json!({
                "registry": [{"tag": "registry.example/api:1", "crashes": true}, {"tag": "registry.example/api:2"}, {"tag": "registry.example/web:1"}],
                "repository": {"files": {
                    "envs/prod/api.json": deployment("api", "-1", "registry.example/api:1"),
                    "envs/prod/web.json": deployment("web", "1", "registry.example/web:1"),
                }},
                "options": options,
                "script": script,
                "steps": 13,
            });
            World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let failed = scenario(json!({"pollEvery": 1}), json!([]));
        assert!(has(&failed, "3 agent: prod: the sync to"), "{:#?}", lines(&failed));
        assert!(has(&failed, "failed: Deployment/shop/api is Degraded, so wave 1 never starts; retrying (1/5) at minute 4"));
        for (attempt, at) in [(2, 5), (3, 6), (4, 7), (5, 9)] {
            assert!(has(&failed, &format!("retrying ({attempt}/5) at minute {at}")), "{attempt}: {:#?}", lines(&failed));
        }
        assert!(has(&failed, "9 agent: prod: the sync to"));
        assert!(has(&failed, "never starts (retried 5 times); the agent does not sync this revision again by itself"));
        assert!(failed.clusters["prod"].actual().get("Deployment/shop/web").is_none(), "wave 1 never ran");
        assert!(!has(&failed, "agent: created Deployment/shop/web"), "{:#?}", lines(&failed));
        assert!(has(&failed, "prod is OutOfSync: missing Deployment/shop/web; the sync of this revision failed"));
        let application = &failed.agent.as_ref().unwrap().applications["prod"];
        assert_eq!(application.sync_error.as_deref(), Some("Deployment/shop/api is Degraded, so wave 1 never starts (retried 5 times)"));
        assert!(application.retry.is_none());

        let once = scenario(json!({"pollEvery": 1, "retry": {"limit": 0}}), json!([]));
        assert!(has(&once, "3 agent: prod: the sync to"), "{:#?}", lines(&once));
        assert!(!has(&once, "retrying"), "syncPolicy.retry with limit 0 retries nothing: {:#?}", lines(&once));

        let slow = scenario(json!({"pollEvery": 1, "retry": {"limit": 2, "backoff": {"duration": "2m", "factor": 3}}}), json!([]));
        assert!(has(&slow, "3 agent: prod: the sync to"));
        assert!(has(&slow, "retrying (1/2) at minute 5: a failed sync is tried again 120 s later (the option retry, Argo CD's syncPolicy.retry"), "{:#?}", lines(&slow));
        assert!(has(&slow, "retrying (2/2) at minute 8"), "6 min, at most 3: {:#?}", lines(&slow));
        assert!(has(&slow, "8 agent: prod: the sync to") && has(&slow, "(retried 2 times)"));

        let by_hand = scenario(json!({"pollEvery": 1}), json!([{"at": 10, "do": "sync", "by": "carol"}]));
        assert!(has(&by_hand, "11 agent: prod: the sync to"), "a person's sync tries again, and fails again: {:#?}", lines(&by_hand));
        assert!(!lines(&by_hand).iter().any(|line| line.starts_with("11 ") && line.contains("retrying")), "a person's sync is not retried");
        let by_hand_with_retry = scenario(json!({"pollEvery": 1, "retry": {"limit": 1}}), json!([{"at": 10, "do": "sync", "by": "carol"}]));
        assert!(has(&by_hand_with_retry, "11 agent: prod: the sync to"), "{:#?}", lines(&by_hand_with_retry));
        assert!(has(&by_hand_with_retry, "retrying (1/1) at minute 12"), "unless the Application's syncPolicy.retry says so: {:#?}", lines(&by_hand_with_retry));

        let fixed = scenario(json!({"pollEvery": 1}), json!([{"at": 5, "do": "commit", "author": "alice", "message": "Fix api",
            "write": {"envs/prod/api.json": deployment("api", "-1", "registry.example/api:2")}}]));
        assert!(has(&fixed, "retrying (5/5) at minute 9"), "the retries sync the revision that failed: {:#?}", lines(&fixed));
        assert!(has(&fixed, "10 agent: updated Deployment/shop/api in prod"), "then the new one: {:#?}", lines(&fixed));
        assert!(has(&fixed, "agent: created Deployment/shop/web in prod"), "{:#?}", lines(&fixed));
    }

    fn a_head_that_does_not_render_stops_every_sync_self_heal_included_until_git_is_fixed() {
        // Argo CD: the comparison fails (sync status Unknown) and autoSync skips an
        // application that is not OutOfSync (controller/appcontroller.go, autoSync).
        let script = json!([
            {"at": 1, "do": "commit", "author": "alice", "message": "Break it", "write": {"envs/prod/manifests.json": "web: {image: [unclosed"}},
            {"at": 3, "do": "edit-cluster", "by": "bob", "key": "web", "path": "/replicas", "value": 9},
            {"at": 5, "do": "commit", "author": "alice", "message": "Fix it", "write": {"envs/prod/manifests.json": {"web": {"image": "web:1", "replicas": 2}}}},
        ]);
        let world = world(json!({"pollEvery": 1}), script);
        assert!(has(&world, "agent: prod is Unknown: it syncs nothing, self-heal included, until Git is fixed"), "{:#?}", lines(&world));
        let healed_early = lines(&world).iter().any(|line| ["3 agent", "4 agent", "5 agent"].iter().any(|step| line.starts_with(step)));
        assert!(!healed_early, "no self-heal while Git is broken: {:#?}", lines(&world));
        assert!(has(&world, "6 agent: prod: reads Git again"), "{:#?}", lines(&world));
        assert!(has(&world, "6 agent: updated web in prod at /replicas (9 → 2)"), "{:#?}", lines(&world));
    }

    fn a_prune_that_needs_confirmation_holds_its_wave_and_the_later_ones_until_a_person_confirms() {
        // gitops-engine sync_context.go: objRequiresPruneConfirmation, "waiting for pruning confirmation".
        let deployment = |name: &str, wave: &str, options: &str| json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": wave, "argocd.argoproj.io/sync-options": options}},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": name, "image": format!("registry.example/{name}:1")}]}}},
        });
        let scenario = |confirm_at: Option<u32>| {
            let mut script = vec![json!({"at": 1, "do": "commit", "author": "alice", "message": "Retire old, add new",
                "remove": ["envs/prod/old.json"], "write": {"envs/prod/new.json": deployment("new", "1", "")}})];
            if let Some(at) = confirm_at {
                script.push(json!({"at": at, "do": "confirm-prune", "by": "carol"}));
            }
            let text = json!({
                "registry": [{"tag": "registry.example/old:1"}, {"tag": "registry.example/new:1"}],
                "repository": {"files": {"envs/prod/old.json": deployment("old", "0", "Prune=confirm")}},
                "options": {"prune": true, "pollEvery": 1},
                "script": script,
                "steps": 8,
            });
            World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let waiting = scenario(None);
        assert!(has(&waiting, "agent: prod: wave 0 waits for a person to confirm the deletion of Deployment/shop/old (Prune=confirm)"), "{:#?}", lines(&waiting));
        let cluster = waiting.clusters["prod"].actual();
        assert!(cluster.get("Deployment/shop/old").is_some() && cluster.get("Deployment/shop/new").is_none(), "the later wave waits too");

        let confirmed = scenario(Some(4));
        assert!(has(&confirmed, "4 carol: confirmed the deletion of Deployment/shop/old in prod"), "{:#?}", lines(&confirmed));
        assert!(has(&confirmed, "agent: deleted Deployment/shop/old from prod"), "{:#?}", lines(&confirmed));
        assert!(confirmed.clusters["prod"].actual().get("Deployment/shop/new").is_some(), "{:#?}", lines(&confirmed));
    }
}
