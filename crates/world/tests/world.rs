//! The simulated world over time: the agent's policy and failures, push
//! mode, and clear errors for bad scenario files.

mod common;

use common::events::{has, lines};

use gitops_testing::everywhere;

use gitops_core::error::ErrorKind;
use gitops_world::agent::AgentHealth;
use gitops_world::scenario::Scenario;
use gitops_world::script::ScriptedAction;
use gitops_world::World;
use serde_json::{json, Value};

/// A one-environment world in the lesson's form, with the given options and script.
fn world(options: Value, script: Value) -> World {
    let scenario = json!({
        "desired": {"web": {"image": "web:1", "replicas": 2}},
        "actual": {"web": {"image": "web:1", "replicas": 2}},
        "options": options,
        "script": script,
        "steps": 8,
    });
    World::run(
        &Scenario::parse("test.json", &scenario.to_string())
            .unwrap_or_else(|error| panic!("{error}")),
    )
}

fn commit(at: u32, content: Value) -> Value {
    json!({"at": at, "do": "commit", "author": "alice", "message": "Change web", "write": {"envs/prod/manifests.json": content}})
}

fn scenario_error(text: &str) -> String {
    Scenario::parse("lesson.json", text)
        .expect_err("the scenario is bad")
        .to_string()
}

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

    fn an_edit_by_hand_that_changes_nothing_says_so_and_one_of_a_whole_object_names_no_path() {
        let script = json!([
            {"at": 1, "do": "edit-cluster", "by": "bob", "key": "web", "path": "/replicas", "value": 2},
            {"at": 2, "do": "edit-cluster", "by": "bob", "key": "debug", "path": "", "value": {"image": "busybox"}},
        ]);
        let world = world(json!({"pollEvery": 1, "selfHeal": false, "prune": false}), script);
        assert!(has(&world, "1 bob: set web in prod at /replicas to 2, as it already was"), "{:#?}", lines(&world));
        assert!(has(&world, "2 bob: changed debug in prod (absent → "), "{:#?}", lines(&world));
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

    fn push_mode_deploys_on_commit_and_never_heals() {
        let change = commit(1, json!({"web": {"image": "web:2", "replicas": 2}}));
        let edit = json!({"at": 3, "do": "edit-cluster", "by": "bob", "key": "web", "path": "/replicas", "value": 9});
        let world = world(json!({"mode": "push"}), json!([change, edit]));
        assert!(world.agent.is_none());
        assert!(has(&world, "1 ci: applied revision"));
        assert_eq!(world.clusters["prod"].actual().get("web").unwrap()["replicas"], 9, "nothing reverts an out-of-band change");
    }

    fn ci_says_what_each_deploy_changed() {
        let change = commit(1, json!({"web": {"image": "web:2", "replicas": 2}, "api": {"image": "api:1"}}));
        let changed = world(json!({"mode": "push"}), json!([change]));
        assert!(has(&changed, "1 ci: applied revision") && has(&changed, "to prod: created api, updated web"), "{:#?}", lines(&changed));
        let unchanged = world(json!({"mode": "push"}), json!([]));
        assert!(has(&unchanged, "0 ci: applied revision") && has(&unchanged, "to prod (no changes)"), "{:#?}", lines(&unchanged));
    }

    fn choosing_who_deploys_takes_effect_at_once() {
        use gitops_world::person::Interaction;
        use gitops_world::scenario::Mode;
        let scenario = |mode: &str| {
            let text = json!({
                "desired": {"web": {"image": "web:1", "replicas": 2}},
                "actual": {"web": {"image": "web:1", "replicas": 2}},
                "options": {"mode": mode, "pollEvery": 1, "selfHeal": true},
                "steps": 4,
            });
            Scenario::parse("test.json", &text.to_string()).unwrap()
        };
        let mut pushed = World::new(&scenario("pull"));
        pushed.next_step();
        assert!(pushed.agent.is_some());
        pushed.interact("prod", &Interaction::Mode(Mode::Push));
        assert!(pushed.agent.is_none(), "push mode has no agent");
        pushed.interact("prod", &Interaction::Actual(r#"{"web": {"image": "web:1", "replicas": 9}}"#.into()));
        pushed.next_step();
        pushed.next_step();
        assert_eq!(pushed.clusters["prod"].actual().get("web").unwrap()["replicas"], 9, "no agent heals in push mode");
        pushed.interact("prod", &Interaction::Desired(r#"{"web": {"image": "web:2", "replicas": 2}}"#.into()));
        assert!(has(&pushed, "ci: applied revision"), "CI deploys the commit: {:#?}", lines(&pushed));

        let mut pulled = World::new(&scenario("push"));
        pulled.next_step();
        pulled.interact("prod", &Interaction::Mode(Mode::Pull));
        let before = pulled.events.len();
        pulled.interact("prod", &Interaction::Desired(r#"{"web": {"image": "web:2", "replicas": 2}}"#.into()));
        assert!(pulled.events[before..].iter().all(|event| event.actor != "ci"), "in pull mode CI only commits: {:#?}", lines(&pulled));
        pulled.next_step();
        assert!(has(&pulled, "1 agent: updated web in prod at /image (web:1 → web:2)"), "the new agent syncs: {:#?}", lines(&pulled));
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

    fn an_environment_is_read_from_its_declared_path() {
        let web = |replicas: u32| json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": replicas}});
        let scenario = json!({
            "environments": {"staging": {"path": "./apps/staging/"}, "prod": {"path": "apps/prod"}},
            "repository": {"files": {"apps/staging/web.yaml": web(1), "apps/prod/web.yaml": web(3), "envs/qa/web.yaml": web(2)}},
            "options": {"pollEvery": 1},
            "steps": 2,
        });
        let world = World::run(&Scenario::parse("test.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert_eq!(world.clusters.keys().collect::<Vec<_>>(), ["prod", "staging"], "envs/qa is no environment once environments are declared");
        assert_eq!(world.source_of("staging"), "apps/staging");
        assert_eq!(world.clusters["prod"].actual().get("Deployment/default/web").unwrap()["spec"]["replicas"], 3);
        assert_eq!(world.clusters["staging"].actual().get("Deployment/default/web").unwrap()["spec"]["replicas"], 1);
        for (environments, pointer, message) in [
            (json!({"prod": {"path": "/apps/prod"}}), "/environments/prod/path", "is absolute"),
            (json!({"prod": {"path": "apps/../prod"}}), "/environments/prod/path", "is not a directory of the repository"),
            (json!({"prod": {"path": "apps/qa"}}), "/environments/prod/path", "so prod's path does not exist"),
            (json!({"prod": {"where": "apps/prod"}}), "/environments/prod/where", "unknown field `where`"),
            (json!({"prod": {"path": 3}}), "/environments/prod/path", "a path is text"),
        ] {
            let mut bad = scenario.clone();
            bad["environments"] = environments;
            let error = Scenario::parse("test.json", &bad.to_string()).expect_err("bad");
            assert_eq!(error.pointer.as_deref(), Some(pointer), "{error}");
            assert!(error.message.contains(message), "{error}");
        }
        let mut branches = json!({"repository": {"branches": {"prod": {}}}, "options": {"layout": "branches"}});
        let error = Scenario::parse("test.json", &branches.to_string()).expect_err("an empty branch");
        assert_eq!(error.pointer.as_deref(), Some("/repository/branches/prod"), "{error}");
        assert!(error.message.contains("no file of the first commit is under app/ of branch prod"), "{error}");
        branches["environments"] = json!({"prod": {"path": "apps/prod"}});
        let error = Scenario::parse("test.json", &branches.to_string()).expect_err("paths with branches");
        assert_eq!(error.pointer.as_deref(), Some("/environments"), "{error}");
    }

    fn time_goes_on_after_the_script_for_a_while() {
        use gitops_world::person::Interaction;
        use gitops_world::scenario::MAX_STEPS_AFTER_SCRIPT;
        let text = json!({"desired": {"web": {"image": "web:1"}}, "actual": {"web": {"image": "web:1"}}, "options": {"pollEvery": 1}, "steps": 2});
        let mut world = World::run(&Scenario::parse("test.json", &text.to_string()).unwrap());
        assert!(!world.script_left());
        world.interact("prod", &Interaction::Desired(r#"{"web": {"image": "web:2"}}"#.into()));
        assert_eq!(world.interact("prod", &Interaction::Advance), Some(true));
        assert!(has(&world, "3 agent: updated web in prod at /image (web:1 → web:2)"), "a commit after the script is synced: {:#?}", lines(&world));
        while world.can_advance() {
            world.interact("prod", &Interaction::Advance);
        }
        assert_eq!(world.step, 2 + MAX_STEPS_AFTER_SCRIPT);
        assert_eq!(world.interact("prod", &Interaction::Advance), None, "time stops somewhere");
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
        assert!(world.forms_differ("prod").is_none(), "both in one form");
    }

    fn ci_deploys_nothing_while_git_and_the_cluster_are_in_different_forms() {
        use gitops_world::person::Interaction;
        let service = r#"[{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"}}]"#;
        let mut pushed = world(json!({"mode": "push"}), json!([]));
        pushed.interact("prod", &Interaction::Actual(service.into()));
        pushed.interact("prod", &Interaction::Desired(r#"{"web": {"image": "web:2"}}"#.into()));
        assert!(has(&pushed, "ci: did not deploy"), "CI writes nothing across forms: {:#?}", lines(&pushed));
        assert_eq!(pushed.clusters["prod"].actual().len(), 1);
    }

    fn a_degraded_earlier_wave_fails_the_sync_which_is_retried_before_failed_previous_sync_attempt_holds() {
        // Argo CD's autoSync gives an automated sync RetryStrategy{Limit: 5}; NextRetryAt
        // waits 5 s, doubling, at most 3 min; a step is a minute.
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

    fn a_person_applying_the_next_operation_waits_for_the_earlier_wave_as_the_agent_does() {
        // gitops-engine's sync_context.go runs the waves of a sync started by hand as it
        // runs an automated one's: wave 1 does not start while wave -1 is Progressing.
        let deployment = |name: &str, wave: &str| json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": wave}},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": name, "image": format!("registry.example/{name}:1")}]}}},
        });
        let text = json!({
            "registry": [{"tag": "registry.example/api:1"}, {"tag": "registry.example/web:1"}],
            "repository": {"files": {
                "envs/prod/api.json": deployment("api", "-1"),
                "envs/prod/web.json": deployment("web", "1"),
            }},
            "options": {"autoSync": false},
            "script": [
                {"at": 1, "do": "apply-next", "by": "carol"},
                {"at": 1, "do": "apply-next", "by": "carol"},
                {"at": 4, "do": "apply-next", "by": "carol"},
            ],
            "steps": 5,
        });
        let world = World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, "1 carol: applied create Deployment/shop/api to prod"), "{:#?}", lines(&world));
        assert!(has(&world, "1 carol: could not apply create Deployment/shop/web to prod; wave 1 waits until Deployment/shop/api is Healthy"), "{:#?}", lines(&world));
        assert!(has(&world, "4 carol: applied create Deployment/shop/web to prod"), "{:#?}", lines(&world));
    }

    fn a_cron_job_keeps_the_empty_status_it_starts_with_and_holds_no_later_wave_back() {
        let cron_job = json!({
            "apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "report", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "-1"}},
            "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
                "restartPolicy": "OnFailure", "containers": [{"name": "report", "image": "registry.example/report:1"}],
            }}}}},
        });
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "1"}},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web:1"}]}}},
        });
        let text = json!({
            "registry": [{"tag": "registry.example/report:1"}, {"tag": "registry.example/web:1"}],
            "repository": {"files": {"envs/prod/report.json": cron_job, "envs/prod/web.json": web}},
            "options": {"pollEvery": 1},
            "steps": 6,
        });
        let world = World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let actual = world.clusters["prod"].actual();
        assert_eq!(actual.get("CronJob/shop/report").unwrap()["status"], json!({}));
        assert!(actual.get("Deployment/shop/web").is_some(), "wave 1 ran: {:#?}", lines(&world));
        let summary = world.summary();
        assert_eq!(format!("{:?}", summary.status["prod"].health), "Healthy");
    }

    fn without_a_registry_list_every_image_is_there_and_time_degrades_nothing() {
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web:2.0.1"}]}}},
        });
        let text = json!({"desired": [web], "actual": [], "steps": 6});
        let world = World::run(&Scenario::parse("plain.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Healthy", "{:#?}", lines(&world));
        assert!(has(&world, "kubelet: Deployment/shop/web in prod starts registry.example/web:2.0.1 (sha256:"), "{:#?}", lines(&world));
        assert!(!lines(&world).join("\n").contains("registry has no"), "{:#?}", lines(&world));
    }

    fn an_image_the_registry_lacks_is_never_pulled_and_is_not_a_crash_loop() {
        let pod = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"restartPolicy": "Always", "containers": [{"name": "web", "image": "registry.example/web:9.9"}]},
        });
        let text = json!({
            "registry": [{"tag": "registry.example/web:1"}],
            "desired": [pod],
            "actual": [],
            "steps": 4,
        });
        let world = World::run(&Scenario::parse("missing.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let all = lines(&world).join("\n");
        assert!(
            has(&world, "kubelet: Pod/shop/web in prod cannot pull registry.example/web:9.9: ErrImagePull, the registry has no such image"),
            "{all}"
        );
        assert!(!all.contains("crash"), "{all}");
        let status = &world.clusters["prod"].actual().get("Pod/shop/web").unwrap()["status"];
        assert_eq!(status["phase"], "Pending");
        assert_eq!(status["containerStatuses"][0]["state"]["waiting"]["reason"], "ImagePullBackOff");
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Degraded", "gitops-engine's getCorev1PodHealth: a waiting reason ending in BackOff");
    }

    fn a_deployment_of_a_missing_image_waits_in_image_pull_back_off_past_its_deadline() {
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web:9.9"}]}}},
        });
        let text = json!({"registry": [], "desired": [web], "actual": [], "steps": 5});
        let world = World::run(&Scenario::parse("missing.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, "kubelet: Deployment/shop/web in prod waits in ImagePullBackOff: no pod became available"), "{:#?}", lines(&world));
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Degraded");
    }

    fn a_digest_that_is_not_ascii_is_stored_and_its_pods_wait_in_invalid_image_name() {
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web@sha256:ab€€4a1c7f0d9b3e5d7"}]}}},
        });
        let text = json!({"desired": [web], "actual": [], "steps": 4});
        let world = World::run(&Scenario::parse("digest.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let all = lines(&world).join("\n");
        let stored = &world.clusters["prod"].actual().get("Deployment/shop/web").expect("the API server stores it")["spec"]["template"]["spec"]["containers"][0]["image"];
        assert_eq!(stored, "registry.example/web@sha256:ab€€4a1c7f0d9b3e5d7", "{all}");
        assert!(
            has(&world, r#"kubelet: Deployment/shop/web in prod cannot start: InvalidImageName, the image reference does not parse: "registry.example/web@sha256:ab€€4a1c7f0d9b3e5d7" (invalid reference format)"#),
            "{all}"
        );
        assert!(has(&world, "kubelet: Deployment/shop/web in prod waits in InvalidImageName: no pod became available"), "{all}");
        assert!(!all.contains("ErrImagePull") && !all.contains("crash"), "{all}");
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Degraded", "past its progress deadline");
    }

    fn a_pod_of_an_image_reference_that_does_not_parse_is_pending_not_degraded() {
        let pod = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"restartPolicy": "Always", "containers": [{"name": "web", "image": "registry.example/Web:1"}]},
        });
        let text = json!({"desired": [pod], "actual": [], "steps": 4});
        let world = World::run(&Scenario::parse("invalid.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let waiting = &world.clusters["prod"].actual().get("Pod/shop/web").unwrap()["status"]["containerStatuses"][0]["state"]["waiting"];
        assert_eq!(waiting["reason"], "InvalidImageName");
        assert_eq!(
            waiting["message"],
            r#"Failed to apply default image tag "registry.example/Web:1": couldn't parse image name "registry.example/Web:1": invalid reference format: repository name must be lowercase"#
        );
        assert_eq!(
            format!("{:?}", world.summary().status["prod"].health),
            "Progressing",
            "gitops-engine's getCorev1PodHealth: InvalidImageName neither starts with Err nor ends with Error or BackOff, and the pod is Pending"
        );
        assert!(world.clusters["prod"].running()["Pod/shop/web"][0].digest.is_none(), "nothing is pulled");
    }

    fn a_disruption_budget_counts_the_pods_it_selects_and_fails_on_a_count_it_cannot_read() {
        let budget = |name: &str, min_available: Value| json!({
            "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": name, "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "-1"}},
            "spec": {"minAvailable": min_available, "selector": {"matchLabels": {"app": "web"}}},
        });
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "1"}},
            "spec": {"replicas": 2, "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "registry.example/web:1"}]}}},
        });
        let run = |budget: Value| {
            let text = json!({
                "registry": [{"tag": "registry.example/web:1"}],
                "repository": {"files": {"envs/prod/budget.json": budget, "envs/prod/web.json": web}},
                "options": {"pollEvery": 1},
                "steps": 6,
            });
            World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let world = run(budget("web", json!(1)));
        let status = &world.clusters["prod"].actual().get("PodDisruptionBudget/shop/web").unwrap()["status"];
        assert_eq!(status["expectedPods"], 2, "{status}");
        assert_eq!(status["currentHealthy"], 2);
        assert_eq!(status["desiredHealthy"], 1);
        assert_eq!(status["disruptionsAllowed"], 1);
        assert_eq!(status["conditions"][0]["reason"], "SufficientPods");
        assert!(world.clusters["prod"].actual().get("Deployment/shop/web").is_some(), "wave 1 ran: {:#?}", lines(&world));
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Healthy");

        let world = run(budget("half", json!("half")));
        assert!(has(&world, "disruption-controller: cannot count the pods of PodDisruptionBudget/shop/half in prod; invalid value for IntOrString: invalid type: string is not a percentage"), "{:#?}", lines(&world));
        let status = &world.clusters["prod"].actual().get("PodDisruptionBudget/shop/half").unwrap()["status"];
        assert_eq!(status["conditions"][0]["reason"], "SyncFailed", "{status}");
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Degraded");
    }

    fn an_external_secret_the_operator_cannot_fill_is_degraded() {
        let external = |remote_ref: Value| json!({
            "apiVersion": "external-secrets.io/v1", "kind": "ExternalSecret",
            "metadata": {"name": "db", "namespace": "shop"},
            "spec": {"secretStoreRef": {"kind": "ClusterSecretStore", "name": "vault"},
                     "data": [{"secretKey": "password", "remoteRef": remote_ref}]},
        });
        let run = |external: Value| {
            let text = json!({"repository": {"files": {"envs/prod/db.json": external}}, "options": {"pollEvery": 1}, "steps": 3});
            World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let health = |world: &World| format!("{:?}", world.summary().status["prod"].health);
        let filled = run(external(json!({"key": "shop/prod/db"})));
        assert_eq!(health(&filled), "Healthy", "{:#?}", lines(&filled));
        let broken = run(external(json!({"property": "password"})));
        assert_eq!(health(&broken), "Degraded", "{:#?}", lines(&broken));
        assert!(has(&broken, "external-secrets: could not get secret data from provider for ExternalSecret/shop/db in prod; /spec/data/0 names no secretKey or no remoteRef.key"));
        assert!(broken.clusters["prod"].actual().get("Secret/shop/db").is_none());
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

    fn a_refused_action_says_why() {
        let script = json!([
            {"at": 1, "do": "revert", "author": "alice", "commit": "HEAD"},
            {"at": 1, "do": "merge", "by": "alice", "pullRequest": 7},
            {"at": 1, "do": "edit-cluster", "by": "bob", "key": "nope", "path": "/replicas", "value": 1},
            {"at": 1, "do": "promote", "author": "alice", "key": "nope", "from": "prod", "to": "prod"},
            {"at": 1, "do": "restart", "key": "nope"},
        ]);
        let world = world(json!({}), script);
        assert!(has(&world, "could not revert HEAD; "));
        assert!(has(&world, "could not merge pull request #7; the state repository refused: there is no pull request #7"));
        assert!(has(&world, "could not edit nope in prod; nope is not in the prod cluster"));
        assert!(has(&world, "could not promote nope from prod to prod; nope is not in envs/prod"));
        assert!(has(&world, "kubelet: nothing to restart: nope is not in prod; the prod cluster has no object nope at this step"), "{:#?}", lines(&world));
    }

    fn a_bad_script_is_located() {
        let text = r#"{"desired": {}, "script": [{"at": 1, "do": "commit", "author": "a", "message": "m"}, {"at": 2, "do": "comit"}]}"#;
        let error = scenario_error(text);
        assert!(error.starts_with("lesson.json at /script/1: unknown variant `comit`"), "{error}");
        let error = scenario_error(r#"{"desired": {}, "script": [{"do": "stop-agent"}]}"#);
        assert!(error.contains("each action needs `at`"), "{error}");
        let error = scenario_error(r#"{"desired": {}, "options": {"pollEvery": 0}}"#);
        assert_eq!(error, "lesson.json at /options/pollEvery: the agent polls every 1 step or more");
        let error = scenario_error(r#"{"desired": {}, "options": {"mode": "teleport"}}"#);
        assert!(error.starts_with("lesson.json at /options/mode: unknown variant `teleport`"), "{error}");
    }

    fn a_bad_repository_file_is_located() {
        let text = r#"{"repository": {"files": {"envs/prod/web.yaml": "web: [1,"}}}"#;
        let error = Scenario::parse("lesson.json", text).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Shape);
        assert_eq!(error.pointer.as_deref(), Some("/repository/files/envs~1prod~1web.yaml"));
        let text = r#"{"repository": {"files": {"README.md": "hi"}}}"#;
        assert!(scenario_error(text).contains("no environment is declared"));
        let text = r#"{"desired": {}, "repository": {"files": {}}}"#;
        assert!(scenario_error(text).contains("not both"));
    }

    fn a_person_can_step_a_sync_one_operation_at_a_time() {
        let scenario = Scenario::parse("lesson.json", include_str!("../../../static/presets/worked-example.json")).unwrap();
        let mut world = World::new(&scenario);
        let apply = ScriptedAction::ApplyNext { by: "you".into(), environment: "prod".into() };
        world.perform(&apply);
        world.perform(&apply);
        world.perform(&apply);
        let steps: Vec<String> = world.events.iter().map(|event| event.to_string()).collect();
        assert_eq!(
            steps,
            [
                "you: applied delete debug to prod; a sync run one operation at a time",
                "you: applied update web to prod; a sync run one operation at a time",
                "you: nothing to apply to prod; the cluster already matches Git",
            ]
        );
        assert!(!world.started, "no step of the world ran");
    }

    fn a_person_can_replace_the_cluster_and_the_agent_heals_it() {
        let scenario = Scenario::parse("lesson.json", include_str!("../../../static/presets/worked-example.json")).unwrap();
        let mut world = World::new(&scenario);
        world.next_step();
        let edit = ScriptedAction::SetCluster { by: "you".into(), environment: "prod".into(), state: json!({"web": {"image": "evil"}}) };
        world.perform(&edit);
        assert!(world.events.last().unwrap().to_string().starts_with("you: changed the prod cluster by hand: removed api, changed web"));
        world.next_step();
        assert!(world.events.iter().any(|event| event.step == 1 && event.what == "created api in prod"));
        assert_eq!(world.clusters["prod"].actual().to_value(), world.summary().desired["prod"]);
    }

    fn a_hand_edit_of_thousands_of_objects_names_ten_and_counts_the_rest() {
        let scenario = Scenario::parse("lesson.json", include_str!("../../../static/presets/worked-example.json")).unwrap();
        let mut world = World::new(&scenario);
        world.next_step();
        let objects: serde_json::Map<String, serde_json::Value> =
            (0..2_000).map(|index| (format!("service-{index:04}"), json!({"replicas": 1}))).collect();
        let pasted = gitops_core::State::from_value("a", serde_json::Value::Object(objects.clone())).unwrap();
        let mut set = world.clone();
        world.edit_actual("you", "prod", &pasted);
        let typed = &world.events.last().unwrap().what;
        // 2,002 changes: api and web removed, 2,000 objects added.
        assert_eq!(typed, "changed the prod cluster by hand: removed api, added service-0000, added service-0001, added service-0002, \
                           added service-0003, added service-0004, added service-0005, added service-0006, added service-0007, \
                           added service-0008, and 1992 more");
        set.perform(&ScriptedAction::SetCluster { by: "you".into(), environment: "prod".into(), state: serde_json::Value::Object(objects) });
        assert_eq!(&set.events.last().unwrap().what, typed, "a script's hand edit reads the same");
    }

    fn typing_in_the_page_is_one_commit_and_one_hand_edit_per_burst() {
        let scenario = Scenario::parse("lesson.json", include_str!("../../../static/presets/worked-example.json")).unwrap();
        let mut world = World::new(&scenario);
        world.next_step();
        for text in ["{\"web\": {\"replicas\": 1}}", "{\"web\": {\"replicas\": 12}}", "web:\n  replicas: 4\n"] {
            world.edit_desired("you", "prod", text);
        }
        assert_eq!(world.repository.log().count(), 2, "the burst amended its own commit");
        assert_eq!(world.repository.head().files.keys().collect::<Vec<_>>(), ["envs/prod/manifests.yaml"]);
        let commits: Vec<String> = world.events.iter().filter(|e| e.actor == "you").map(|e| e.what.clone()).collect();
        assert_eq!(commits, [format!("committed {}: Edit envs/prod in the playground", world.repository.head().id)]);

        let first = gitops_core::State::read("a", "{\"web\": {\"replicas\": 4}, \"x\": {}}").unwrap();
        let second = gitops_core::State::read("a", "{\"web\": {\"replicas\": 4}, \"y\": {}}").unwrap();
        world.edit_actual("you", "prod", &first);
        world.edit_actual("you", "prod", &second);
        let hand: Vec<String> = world.events.iter().filter(|e| e.what.contains("by hand")).map(|e| e.what.clone()).collect();
        assert_eq!(hand, ["changed the prod cluster by hand: removed api, changed web, added y"]);
        world.next_step();
        world.edit_desired("you", "prod", "{}");
        assert_eq!(world.repository.log().count(), 3, "a new burst after time moved");
    }

    fn with_a_branch_per_environment_typing_commits_to_that_branch() {
        let scenario = Scenario::parse("lesson.yaml", include_str!("../../../static/presets/branch-per-environment.yaml")).unwrap();
        let mut world = World::new(&scenario);
        world.next_step();
        let main = world.repository.head().id.clone();
        world.edit_desired("you", "staging", "{\"web\": {\"replicas\": 1}}");
        world.edit_desired("you", "staging", "{\"web\": {\"replicas\": 4}}");
        assert_eq!(world.repository.head().id, main, "main did not move");
        let staging = &world.repository.branches()["staging"];
        assert_eq!(staging.len(), 2, "one commit for the burst, on staging");
        assert_eq!(staging[1].files.keys().collect::<Vec<_>>(), ["app/manifests.json"]);
        assert_eq!(world.desired_state("staging").unwrap().get("web"), Some(&json!({"replicas": 4})));
        assert_eq!(world.repository.branches()["prod"].len(), 1, "prod's branch is untouched");
        world.next_step();
        assert!(has(&world, "1 agent: staging: fetched revision"));
        let error = scenario_error(r#"{"repository": {"branches": {"prod": {"web.yaml": {}}}}, "options": {"layout": "branches"}}"#);
        assert!(error.contains("/repository/branches/prod/web.yaml") && error.contains("`app/web.yaml`"), "{error}");
        let error = scenario_error(r#"{"repository": {"branches": {"prod": {"app/web.yaml": {}}}}}"#);
        assert!(error.contains("need `options.layout: branches`"), "{error}");
        let error = scenario_error(r#"{"repository": {"files": {"envs/prod/web.yaml": {}}}, "options": {"layout": "branches"}}"#);
        assert!(error.contains("no environment is declared"), "{error}");
    }

    fn a_script_reads_back_what_it_writes() {
        let scenario = Scenario::parse("lesson.yaml", include_str!("../../../static/presets/promotion.yaml")).unwrap();
        let written = serde_json::to_value(&scenario.script).unwrap();
        assert_eq!(written[0], json!({"at": 2, "do": "promote", "author": "alice", "key": "Deployment/shop/web", "from": "staging", "to": "prod"}));
        let read: Vec<gitops_world::script::ScriptStep> = serde_json::from_value(written).unwrap();
        assert_eq!(read, scenario.script);
        let stop = json!([{"at": 1, "do": "stop-agent"}]);
        let read: Vec<gitops_world::script::ScriptStep> = serde_json::from_value(stop.clone()).unwrap();
        assert_eq!(serde_json::to_value(&read).unwrap(), stop);
        let error = scenario_error(r#"{"desired": {}, "script": [{"at": 1, "do": "stop-agent", "why": "x"}]}"#);
        assert!(error.contains("/script/0"), "{error}");
    }

    fn a_scenario_cannot_run_forever() {
        assert_eq!(scenario_error(r#"{"desired": {}, "steps": 4000000000}"#), "lesson.json at /steps: a scenario runs at most 10000 steps");
        assert!(scenario_error(r#"{"desired": {}, "script": [{"at": 4294967295, "do": "stop-agent"}]}"#).contains("at most 10000 steps"));
    }

    fn what_a_script_cannot_do_is_refused_before_it_runs() {
        let web = r#""desired": {"web": {"image": "web:1"}}"#;
        let error = |rest: &str| scenario_error(&format!("{{{web}, {rest}}}"));
        assert_eq!(
            error(r#""steps": 6, "script": [{"at": 20, "do": "restart", "key": "web"}]"#),
            "lesson.json at /script/0/at: this action is at step 20, after the last step the scenario runs (`steps: 6`), so it would never happen; move it to step 6 or earlier, or raise `steps`"
        );
        assert_eq!(
            error(r#""script": [{"at": 1, "do": "stop-agent"}, {"at": 100000000, "do": "start-agent"}]"#),
            "lesson.json at /script/1/at: this action is at step 100000000, but a scenario runs at most 10000 steps"
        );
        let nowhere = "there is no environment `staging` in this scenario; it has prod. Name one of those, or declare `staging` with files under `envs/staging/` (or a cluster under `clusters`)";
        for (action, field) in [
            (r#"{"at": 1, "do": "restart", "environment": "staging", "key": "web"}"#, "environment"),
            (r#"{"at": 1, "do": "sync", "by": "bob", "environment": "staging"}"#, "environment"),
            (r#"{"at": 1, "do": "lose-cluster", "environment": "staging"}"#, "environment"),
            (r#"{"at": 1, "do": "edit-cluster", "by": "bob", "environment": "staging", "key": "web", "path": "/image", "value": 1}"#, "environment"),
            (r#"{"at": 1, "do": "promote", "author": "a", "key": "web", "from": "staging", "to": "prod"}"#, "from"),
        ] {
            assert_eq!(error(&format!(r#""script": [{action}]"#)), format!("lesson.json at /script/0/{field}: {nowhere}"));
        }
        assert_eq!(
            error(r#""controllers": [{"name": "hpa", "environment": "staging", "key": "web", "path": "/replicas", "value": 5}]"#),
            format!("lesson.json at /controllers/0/environment: {nowhere}")
        );
        assert_eq!(
            error(r#""controllers": [{"name": "hpa", "key": "web", "path": "replicas", "value": 5}]"#),
            "lesson.json at /controllers/0/path: `replicas` is not a JSON pointer: it should start with `/` (write `/replicas`)"
        );
        assert_eq!(
            error(r#""script": [{"at": 1, "do": "set-controller", "name": "hpa", "value": 3}]"#),
            "lesson.json at /script/0/name: there is no controller `hpa`; this scenario has none (declare it under `controllers`)"
        );
        assert_eq!(
            error(r#""script": [{"at": 1, "do": "commit", "author": "a", "message": "m", "set": [{"file": "envs/prod/manifests.json", "path": "web/image", "value": 2}]}]"#),
            "lesson.json at /script/0/set/0/path: `web/image` is not a JSON pointer: it should start with `/` (write `/web/image`)"
        );
    }

    fn an_environment_the_script_itself_creates_in_git_may_be_promoted_to() {
        let scenario = json!({
            "desired": {"web": {"image": "web:1"}},
            "script": [
                {"at": 1, "do": "commit", "author": "a", "message": "Add qa", "write": {"envs/qa/web.json": {"web": {"image": "web:0"}}}},
                {"at": 2, "do": "promote", "author": "a", "key": "web", "from": "prod", "to": "qa"},
            ],
        });
        let world = World::run(&Scenario::parse("lesson.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, "opened pull request #1: Promote web to qa"), "{:#?}", lines(&world));
    }
}
