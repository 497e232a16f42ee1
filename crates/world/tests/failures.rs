//! Syncs that fail: an update the API server refuses (and the options that
//! recreate the object instead), the retries of a failed automated sync,
//! and self-heal's backoff.

mod common;

use common::events::{has, lines};

use gitops_testing::everywhere;

use gitops_world::agent::waves::Hold;
use gitops_world::person::Interaction;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

const REFUSED: &str = r#"Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web-v2"}}: field is immutable"#;

/// A Deployment `web` selecting `app`, with these annotations.
fn web(app: &str, annotations: Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop", "annotations": annotations},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": app}},
                 "template": {"metadata": {"labels": {"app": app}}, "spec": {"containers": [{"name": "web", "image": "registry.example/web:1"}]}}},
    })
}

fn settings(level: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "shop"}, "data": {"level": level}})
}

fn worker() -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "worker", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "1"}},
        "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "worker", "image": "registry.example/web:1"}]}}},
    })
}

/// A release at step 2 that renames web's selector (`web-v2`, with these
/// annotations) and changes the settings in the same wave; a worker waits
/// in wave 1.
fn release(options: Value, annotations: Value, steps: u32) -> World {
    let text = json!({
        "registry": [{"tag": "registry.example/web:1"}],
        "repository": {"files": {
            "envs/prod/web.json": web("web", json!({})),
            "envs/prod/settings.json": settings("info"),
        }},
        "options": options,
        "script": [{"at": 2, "do": "commit", "author": "alice", "message": "Release web v2", "write": {
            "envs/prod/web.json": web("web-v2", annotations),
            "envs/prod/settings.json": settings("debug"),
            "envs/prod/worker.json": worker(),
        }}],
        "steps": steps,
    });
    World::run(
        &Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")),
    )
}

fn count(world: &World, needle: &str) -> usize {
    lines(world)
        .iter()
        .filter(|line| line.contains(needle))
        .count()
}

fn live<'w>(world: &'w World, key: &str) -> &'w Value {
    world.clusters["prod"]
        .actual()
        .get(key)
        .unwrap_or_else(|| panic!("{key} is there"))
}

everywhere! {
    fn a_refused_update_fails_the_sync_once_its_wave_ran_as_argo_cds_client_side_dry_run_misses_it() {
        let world = release(json!({"pollEvery": 1}), json!({}), 12);
        assert!(has(&world, &format!("3 agent: prod: the API server refused: {REFUSED}")), "{:#?}", lines(&world));
        assert!(has(&world, "3 agent: updated ConfigMap/shop/settings in prod"), "the rest of its wave is applied");
        assert!(has(&world, &format!("3 agent: prod: the sync to {} failed: one or more objects failed to apply, reason: {REFUSED}; retrying (1/5) at minute 4", world.repository.head().id)), "{:#?}", lines(&world));
        assert_eq!(count(&world, "the API server refused"), 6, "the first attempt and five retries: {:#?}", lines(&world));
        assert!(has(&world, "9 agent: prod: the sync to") && has(&world, "(retried 5 times); the agent does not sync this revision again"));
        assert_eq!(live(&world, "Deployment/shop/web")["spec"]["selector"], json!({"matchLabels": {"app": "web"}}), "nothing of it is written");
        assert!(world.clusters["prod"].actual().get("Deployment/shop/worker").is_none(), "the next wave never starts");
        let application = &world.agent.as_ref().unwrap().applications["prod"];
        assert_eq!(application.sync_error.as_deref(), Some(format!("one or more objects failed to apply, reason: {REFUSED} (retried 5 times)").as_str()));
        assert!(has(&world, "prod is OutOfSync: Deployment/shop/web drifted at"), "{:#?}", lines(&world));
    }

    fn force_deletes_and_creates_what_the_api_server_refuses_to_update() {
        for (options, annotations, option) in [
            (json!({}), json!({"argocd.argoproj.io/sync-options": "Force=true"}), "argocd.argoproj.io/sync-options: Force=true (kubectl apply --force"),
            (json!({}), json!({"kustomize.toolkit.fluxcd.io/force": "enabled"}), "kustomize.toolkit.fluxcd.io/force: enabled"),
            (json!({"force": true}), json!({}), "force is on (Flux's spec.force"),
        ] {
            let mut with = json!({"pollEvery": 1});
            with.as_object_mut().unwrap().extend(options.as_object().unwrap().clone());
            let world = release(with, annotations, 8);
            assert!(has(&world, "3 agent: recreated Deployment/shop/web in prod: deleted it and created it again"), "{option}: {:#?}", lines(&world));
            assert!(has(&world, option) && has(&world, &format!("the API server refuses the update: {REFUSED}")), "{:#?}", lines(&world));
            assert!(!has(&world, "failed"), "{:#?}", lines(&world));
            let web = live(&world, "Deployment/shop/web");
            assert_eq!(web["spec"]["selector"], json!({"matchLabels": {"app": "web-v2"}}));
            assert_eq!(web["metadata"]["generation"], json!(1), "a new object");
            assert!(has(&world, "agent: created Deployment/shop/worker in prod"), "the sync goes on: {:#?}", lines(&world));
        }
        let replaced = release(json!({"pollEvery": 1}), json!({"argocd.argoproj.io/sync-options": "Replace=true"}), 6);
        assert!(has(&replaced, &format!("the API server refused: {REFUSED}")), "kubectl replace is refused alike: {:#?}", lines(&replaced));
    }

    fn a_person_stepping_a_refused_update_stops_with_the_api_servers_message() {
        let text = json!({
            "repository": {"files": {"envs/prod/web.json": web("web-v2", json!({}))}},
            "clusters": {"prod": [web("web", json!({}))]},
            "options": {"autoSync": false},
        });
        let mut world = World::new(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        world.next_step();
        assert_eq!(
            world.step_hold("prod"),
            Some(Hold::Refused { key: "Deployment/shop/web".into(), message: REFUSED.into() })
        );
        assert_eq!(world.interact("prod", &Interaction::Step), None, "nothing to apply");
        world.perform(&gitops_world::script::ScriptedAction::ApplyNext { by: "you".into(), environment: "prod".into() });
        assert!(has(&world, "you: asked the agent for the next operation of prod's sync"), "{:#?}", lines(&world));
        assert!(has(&world, &format!("agent: could not apply update Deployment/shop/web to prod; the API server refused: {REFUSED}")), "{:#?}", lines(&world));
        assert_eq!(live(&world, "Deployment/shop/web")["spec"]["selector"], json!({"matchLabels": {"app": "web"}}));

        let forced = text.to_string().replace(r#""annotations":{}"#, r#""annotations":{"argocd.argoproj.io/sync-options":"Force=true"}"#);
        let mut world = World::new(&Scenario::parse("test.json", &forced).unwrap_or_else(|error| panic!("{error}")));
        world.next_step();
        assert_eq!(world.step_hold("prod"), None);
        assert!(world.apply_next_by_hand("prod").is_some());
        assert!(has(&world, "agent: recreated Deployment/shop/web in prod: deleted it and created it again"), "{:#?}", lines(&world));
    }

    fn an_edge_triggered_agent_meets_the_refusal_too() {
        let world = release(json!({"trigger": "edge"}), json!({}), 4);
        assert!(has(&world, &format!("3 agent: prod: the API server refused: {REFUSED}")), "{:#?}", lines(&world));
        assert_eq!(live(&world, "Deployment/shop/web")["spec"]["selector"], json!({"matchLabels": {"app": "web"}}));
    }

    fn ci_in_push_mode_applies_the_rest_and_fails_at_a_refused_update() {
        let world = release(json!({"mode": "push"}), json!({}), 3);
        assert!(has(&world, &format!("ci: the deploy of {} to prod failed: the API server refused: {REFUSED}; kubectl apply applied the rest: updated ConfigMap/shop/settings, created Deployment/shop/worker", world.repository.head().id)), "{:#?}", lines(&world));
    }

    fn self_heal_backs_off_as_argo_cds_controller_does_and_a_new_revision_starts_again() {
        // selfHealRemainingBackoff with the default backoff: 0, 2 s, 6 s, 18 s, 54 s,
        // 162 s, then 300 s after the last sync; the time moves a minute at a time.
        let text = json!({
            "registry": [{"tag": "registry.example/web:1"}],
            "repository": {"files": {"envs/prod/web.json": web("web", json!({}))}},
            "controllers": [{"name": "autoscaler", "key": "Deployment/shop/web", "path": "/spec/replicas", "value": 5, "reason": "load"}],
            "options": {"pollEvery": 1},
            "script": [{"at": 14, "do": "commit", "author": "alice", "message": "Label web", "set": [
                {"file": "envs/prod/web.json", "path": "/metadata/labels", "value": {"team": "shop"}}]}],
            "steps": 16,
        });
        let world = World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let reverts: Vec<u32> = world.events.iter().filter(|event| event.what.contains("drifted at /spec/replicas (5 → 1); reverting")).map(|event| event.step).collect();
        assert_eq!(reverts, [1, 2, 3, 4, 5, 8, 13, 16], "{:#?}", lines(&world));
        assert!(has(&world, "6 agent: prod is OutOfSync: Deployment/shop/web drifted at /spec/replicas (5 → 1); self-heal backs off: revert 6 of this revision waits until minute 8 (162 s after the last sync"), "{:#?}", lines(&world));
        assert!(has(&world, "15 agent: updated Deployment/shop/web in prod"), "the new revision syncs at once: {:#?}", lines(&world));
        let mut until = text.clone();
        until["steps"] = json!(10);
        until["script"] = json!([]);
        let held = World::run(&Scenario::parse("test.json", &until.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert_eq!(held.agent.as_ref().unwrap().applications["prod"].self_heal_at, Some(13), "the Agent panel says until when");
    }

    fn a_retry_duration_that_does_not_read_is_refused_with_its_place() {
        let text = json!({"desired": {}, "options": {"retry": {"limit": 2, "backoff": {"duration": "soon"}}}});
        let error = Scenario::parse("lesson.json", &text.to_string()).expect_err("refused").to_string();
        assert!(error.contains("/options/retry/backoff/duration"), "{error}");
        assert!(error.contains("unable to parse soon as a duration"), "{error}");
    }

    fn an_unquoted_sync_wave_is_argo_cds_comparison_error_and_the_api_servers_refusal_under_flux() {
        let scenario = |agent: &str| {
            let text = json!({
                "repository": {"files": {"envs/prod/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\n  annotations:\n    argocd.argoproj.io/sync-wave: -1\ndata: {level: info}\n"}},
                "options": {"pollEvery": 1, "agent": agent},
                "steps": 3,
            });
            World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let argo = scenario("argocd");
        assert!(has(&argo, "ConfigMap/shop/settings at /metadata/annotations/\"argocd.argoproj.io/sync-wave\": failed to set app instance tracking info on manifest: failed to get annotations for /v1, Kind=ConfigMap shop/settings: .metadata.annotations accessor error: contains non-string value in the map under key \"argocd.argoproj.io/sync-wave\": -1 is of the type int64, expected string"), "{:#?}", lines(&argo));
        assert!(argo.clusters["prod"].actual().is_empty(), "nothing is synced, not wave 0 in silence");
        let status = &argo.summary().status["prod"];
        assert_eq!(status.sync.to_string(), "Unknown");
        let flux = scenario("flux");
        assert!(has(&flux, "ConfigMap/shop/settings dry-run failed: ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string"), "{:#?}", lines(&flux));
        assert!(flux.clusters["prod"].actual().is_empty());
        let warnings = &flux.summary().status["prod"].warnings;
        assert!(warnings.iter().any(|warning| warning.rule == "value-not-a-string" && warning.message.starts_with("`/metadata/annotations/argocd.argoproj.io~1sync-wave` is YAML's number `-1`")), "{warnings:#?}");
    }
}
