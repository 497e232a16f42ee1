//! Flux's kustomize-controller as the world's agent (`agent/flux.rs`): it
//! reconciles at its interval, when its source moves, or when a person runs
//! `flux reconcile`; it always heals; it applies the whole build at once, or
//! nothing when a dry run fails, and tries again after `retryInterval`; and
//! who writes a field is recorded in `managedFields`.

mod common;

use common::events::{has, lines};

use gitops_testing::everywhere;

use gitops_core::options::Agent;
use gitops_world::person::Interaction;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

const WEB: &str = "Deployment/shop/web";

fn web(replicas: Option<u32>, app: &str) -> Value {
    let mut web = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {"selector": {"matchLabels": {"app": app}},
                 "template": {"metadata": {"labels": {"app": app}}, "spec": {"containers": [{"name": "web", "image": "registry.example/web:1"}]}}},
    });
    if let Some(replicas) = replicas {
        web["spec"]["replicas"] = json!(replicas);
    }
    web
}

fn settings(level: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "shop"}, "data": {"level": level}})
}

/// A Flux world whose Git holds `web` and the settings, with these options
/// (Flux's agent, every 5 minutes, unless they say otherwise), a controller
/// or none, and a script.
fn flux_world(web: Value, options: Value, controllers: Value, script: Value, steps: u32) -> World {
    let mut all = json!({"agent": "flux", "pollEvery": 5});
    for (name, value) in options.as_object().unwrap() {
        all[name] = value.clone();
    }
    let text = json!({
        "registry": [{"tag": "registry.example/web:1"}],
        "repository": {"files": {"envs/prod/web.json": web, "envs/prod/settings.json": settings("info")}},
        "controllers": controllers,
        "options": all,
        "script": script,
        "steps": steps,
    });
    World::run(&Scenario::parse("flux.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
}

fn live<'w>(world: &'w World, key: &str) -> &'w Value {
    world.clusters["prod"].actual().get(key).unwrap_or_else(|| panic!("{key} is there"))
}

/// Each manager of `object`'s fields, with its operation and subresource.
fn managers(object: &Value) -> Vec<String> {
    object["metadata"]["managedFields"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .map(|entry| {
                    let subresource = entry["subresource"].as_str().map(|name| format!(" /{name}")).unwrap_or_default();
                    format!("{} {}{subresource}", entry["manager"].as_str().unwrap(), entry["operation"].as_str().unwrap())
                })
                .collect()
        })
        .unwrap_or_default()
}

fn agent_steps(world: &World) -> Vec<u32> {
    world.events.iter().filter(|event| event.actor == "agent").map(|event| event.step).collect()
}

fn kubectl_edits() -> Value {
    json!([
        {"at": 6, "do": "edit-cluster", "by": "bob", "key": WEB, "path": "/spec/replicas", "value": 9},
        {"at": 6, "do": "edit-cluster", "by": "bob", "key": WEB, "path": "/metadata/labels/debug", "value": "true"},
    ])
}

everywhere! {
    fn a_kubectl_edit_is_reverted_at_the_kustomizations_interval_and_its_label_removed() {
        let edited = flux_world(web(Some(2), "web"), json!({}), json!([]), kubectl_edits(), 8);
        assert_eq!(live(&edited, WEB)["spec"]["replicas"], 9, "nothing watches the cluster between reconciles");
        assert_eq!(managers(live(&edited, WEB)), ["kustomize-controller Apply", "kubectl-edit Update"]);

        let reconciled = flux_world(web(Some(2), "web"), json!({}), json!([]), kubectl_edits(), 10);
        assert!(has(&reconciled, "10 agent: Deployment/shop/web in prod drifted at /metadata/labels/debug (true → absent), /spec/replicas (9 → 2); reverting"), "{:#?}", lines(&reconciled));
        assert!(has(&reconciled, "its interval of 5 min has passed"));
        assert!(!agent_steps(&reconciled).iter().any(|step| (6..10).contains(step)), "{:#?}", lines(&reconciled));
        let web = live(&reconciled, WEB);
        assert_eq!(web["metadata"]["labels"].get("debug"), None, "Flux's cleanup hands kubectl-edit's fields to itself, then drops the label");
        assert_eq!(managers(web), ["kustomize-controller Apply"]);
    }

    fn flux_has_no_self_heal_switch() {
        let world = flux_world(web(Some(2), "web"), json!({"selfHeal": false}), json!([]), kubectl_edits(), 10);
        assert_eq!(live(&world, WEB)["spec"]["replicas"], 2, "{:#?}", lines(&world));
    }

    fn auto_sync_off_is_a_suspended_kustomization() {
        let mut script = kubectl_edits();
        script.as_array_mut().unwrap().push(json!({"at": 7, "do": "reconcile", "by": "carol"}));
        let text = json!({
            "repository": {"files": {"envs/prod/web.json": web(Some(2), "web")}},
            "clusters": {"prod": [web(Some(2), "web")]},
            "options": {"agent": "flux", "pollEvery": 5, "autoSync": false},
            "script": script,
            "steps": 12,
        });
        let world = World::run(&Scenario::parse("flux.json", &text.to_string()).unwrap());
        assert!(has(&world, "7 agent: prod: Kustomization flux-system/playground is suspended: nothing reconciles"), "{:#?}", lines(&world));
        assert_eq!(live(&world, WEB)["spec"]["replicas"], 9, "{:#?}", lines(&world));
    }

    fn a_person_can_ask_for_a_reconcile_now() {
        let mut script = kubectl_edits();
        script.as_array_mut().unwrap().push(json!({"at": 7, "do": "reconcile", "by": "carol"}));
        let world = flux_world(web(Some(2), "web"), json!({}), json!([]), script, 9);
        assert!(has(&world, "7 carol: ran `flux reconcile kustomization playground --with-source` for prod"), "{:#?}", lines(&world));
        assert!(has(&world, "7 agent: Deployment/shop/web in prod drifted"), "flux reconcile waits for the reconcile it asks for: {:#?}", lines(&world));
        assert!(!has(&world, "8 agent: Deployment/shop/web in prod drifted"), "{:#?}", lines(&world));
        assert!(has(&world, "a person ran `flux reconcile kustomization`"));
    }

    fn objects_at_the_start_are_as_flux_left_them() {
        let text = json!({
            "repository": {"files": {"envs/prod/settings.json": settings("info")}},
            "clusters": {"prod": [settings("info")]},
            "options": {"agent": "flux"},
        });
        let scenario = Scenario::parse("flux.json", &text.to_string()).unwrap();
        let settings = scenario.cluster_at_start("prod").unwrap().get("ConfigMap/shop/settings").unwrap().clone();
        assert_eq!(settings["metadata"]["labels"]["kustomize.toolkit.fluxcd.io/name"], "playground");
        assert_eq!(settings["metadata"]["annotations"].get("argocd.argoproj.io/tracking-id"), None);
        assert_eq!(managers(&settings), ["kustomize-controller Apply"]);
        let world = World::run(&scenario);
        assert!(!has(&world, "updated ConfigMap/shop/settings"), "in sync from the start: {:#?}", lines(&world));
    }

    fn with_replicas_in_git_flux_takes_the_field_back_from_the_autoscaler_at_each_interval() {
        let autoscaler = json!([{"name": "autoscaler", "environment": "prod", "key": WEB, "path": "/spec/replicas", "value": 5, "reason": "load"}]);
        let world = flux_world(web(Some(2), "web"), json!({}), autoscaler, json!([]), 14);
        let reverts: Vec<u32> = world.events.iter().filter(|event| event.what.contains("drifted at /spec/replicas (5 → 2)")).map(|event| event.step).collect();
        assert_eq!(reverts, [5, 10], "{:#?}", lines(&world));
        assert!(has(&world, "5 agent: kustomize-controller took /spec/replicas of Deployment/shop/web from kube-controller-manager"), "{:#?}", lines(&world));
        assert_eq!(managers(live(&world, WEB)), ["kustomize-controller Apply", "kube-controller-manager Update /scale"]);
    }

    fn without_replicas_in_git_the_autoscaler_keeps_the_field() {
        let autoscaler = json!([{"name": "autoscaler", "environment": "prod", "key": WEB, "path": "/spec/replicas", "value": 5, "reason": "load"}]);
        let world = flux_world(web(None, "web"), json!({}), autoscaler, json!([]), 14);
        assert!(!has(&world, "drifted"), "{:#?}", lines(&world));
        assert_eq!(live(&world, WEB)["spec"]["replicas"], 5);
    }

    fn replicas_dropped_from_git_while_flux_alone_owns_them_is_defaulted_to_one_until_the_autoscaler_sets_it() {
        // The autoscaler wants what Git says (its minimum), so it writes nothing and
        // kustomize-controller owns `replicas` alone when Git drops the field.
        let autoscaler = json!([{"name": "autoscaler", "environment": "prod", "key": WEB, "path": "/spec/replicas", "value": 2, "reason": "its minimum"}]);
        let drop_replicas = json!({"at": 2, "do": "commit", "author": "alice", "message": "Let the autoscaler own replicas", "write": {"envs/prod/web.json": web(None, "web")}});
        let world = flux_world(web(Some(2), "web"), json!({"pollEvery": 1}), autoscaler, json!([drop_replicas]), 6);
        assert!(has(&world, "3 agent: updated Deployment/shop/web in prod at /spec/replicas (2 → 1)"), "{:#?}", lines(&world));
        assert!(has(&world, "3 autoscaler: set Deployment/shop/web in prod at /spec/replicas (1 → 2)"), "{:#?}", lines(&world));
        assert!(!lines(&world).iter().any(|line| line.starts_with("4 ") || line.starts_with("5 ") || line.starts_with("6 ")), "the autoscaler owns the field from then on: {:#?}", lines(&world));
        assert_eq!(managers(live(&world, WEB)), ["kustomize-controller Apply", "kube-controller-manager Update /scale"]);
    }

    fn a_dry_run_that_fails_applies_nothing_and_is_tried_again_after_the_retry_interval() {
        let release = json!({"at": 1, "do": "commit", "author": "alice", "message": "Rename web's selector", "write": {
            "envs/prod/web.json": web(Some(2), "web-v2"),
            "envs/prod/settings.json": settings("debug"),
        }});
        let world = flux_world(web(Some(2), "web"), json!({"pollEvery": 1, "retryInterval": 3}), json!([]), json!([release]), 9);
        assert!(has(&world, "2 agent: prod: Kustomization flux-system/playground is Ready=False (ReconciliationFailed: Deployment/shop/web dry-run failed"), "{:#?}", lines(&world));
        assert!(has(&world, "it tries again in 3 min (retryInterval)"));
        assert_eq!(live(&world, "ConfigMap/shop/settings")["data"]["level"], "info", "Flux applies nothing of a stage whose dry run fails");
        let status = world.agent.as_ref().unwrap().applications["prod"].kustomizations[0].clone();
        assert_eq!(status.ready.reason, "ReconciliationFailed");
        assert_eq!(status.last_attempted_revision.as_deref(), Some(format!("main@sha1:{}", world.repository.head().id).as_str()));
        assert_ne!(status.last_applied_revision, status.last_attempted_revision);
        assert_eq!(status.next_at, 11, "tried at 2, 5 and 8; next at 11");

        let forced = flux_world(web(Some(2), "web"), json!({"pollEvery": 1, "force": true}), json!([]), json!([release]), 3);
        assert!(has(&forced, "2 agent: recreated Deployment/shop/web in prod"), "{:#?}", lines(&forced));
        assert_eq!(live(&forced, "ConfigMap/shop/settings")["data"]["level"], "debug");
    }

    fn a_build_that_fails_is_ready_false_and_the_cluster_keeps_the_last_applied_revision() {
        let broken = json!({"at": 1, "do": "commit", "author": "bob", "message": "Break it", "write": {"envs/prod/settings.json": "{"}});
        let world = flux_world(web(Some(2), "web"), json!({"pollEvery": 1}), json!([]), json!([broken]), 3);
        assert!(has(&world, "2 agent: prod: Kustomization flux-system/playground is Ready=False (BuildFailed:"), "{:#?}", lines(&world));
        let status = world.agent.as_ref().unwrap().applications["prod"].kustomizations[0].clone();
        assert_eq!(status.inventory, ["ConfigMap/shop/settings", WEB]);
    }

    fn choosing_flux_before_the_start_tells_the_same_story_as_a_flux_scenario() {
        let text = json!({
            "registry": [{"tag": "registry.example/web:1"}],
            "repository": {"files": {"envs/prod/web.json": web(Some(2), "web"), "envs/prod/settings.json": settings("info")}},
            "clusters": {"prod": [web(Some(2), "web"), settings("debug")]},
            "options": {"pollEvery": 5},
            "script": kubectl_edits(),
            "steps": 10,
        });
        let argo = Scenario::parse("argo.json", &text.to_string()).unwrap();
        let mut flux = argo.clone();
        flux.options.agent = Agent::Flux;
        let told_by_flux = World::run(&flux);

        let mut chosen = World::new(&argo);
        assert_eq!(chosen.interact("prod", &Interaction::Agent(Agent::Flux)), Some(true));
        while chosen.step < 10 || !chosen.started {
            chosen.next_step();
        }
        assert_eq!(lines(&chosen), lines(&told_by_flux));
        assert_eq!(chosen.clusters["prod"].actual(), told_by_flux.clusters["prod"].actual());
        assert!(has(&chosen, "0 agent: updated ConfigMap/shop/settings in prod at /data/level (debug → info)"), "{:#?}", lines(&chosen));
        assert!(has(&chosen, "10 agent: Deployment/shop/web in prod drifted"));

        let mut back = World::new(&flux);
        back.interact("prod", &Interaction::Agent(Agent::ArgoCd));
        back.next_step();
        let web = back.clusters["prod"].actual().get(WEB).unwrap();
        assert!(web["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"].is_string(), "{web}");
        assert!(web["metadata"].get("managedFields").is_none());
    }

    fn a_new_agent_after_the_start_finds_the_objects_as_the_other_tool_left_them() {
        let text = json!({
            "repository": {"files": {"envs/prod/settings.json": settings("info")}},
            "options": {"pollEvery": 1},
            "steps": 4,
        });
        let mut world = World::new(&Scenario::parse("argo.json", &text.to_string()).unwrap());
        world.next_step();
        world.next_step();
        let by_argo = world.clusters["prod"].actual().get("ConfigMap/shop/settings").unwrap().clone();
        assert!(by_argo["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"].is_string());
        world.interact("prod", &Interaction::Agent(Agent::Flux));
        world.next_step();
        let by_flux = world.clusters["prod"].actual().get("ConfigMap/shop/settings").unwrap();
        assert_eq!(by_flux["metadata"]["labels"]["kustomize.toolkit.fluxcd.io/name"], "playground");
        assert_eq!(managers(by_flux), ["before-first-apply Update", "kustomize-controller Apply"], "the API server's first apply leaves what it found to `before-first-apply`: {by_flux}");
        assert!(by_flux["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"].is_string());
        assert!(has(&world, "2 agent: prod: Kustomization flux-system/playground is Ready=True"), "{:#?}", lines(&world));
        world.next_step();
        let next = world.clusters["prod"].actual().get("ConfigMap/shop/settings").unwrap();
        assert_eq!(next["metadata"].get("annotations"), None, "Flux's cleanup hands `before-first-apply` to itself, then drops Argo CD's mark: {next}");
        assert_eq!(managers(next), ["kustomize-controller Apply"]);
    }
}

everywhere! {
    fn argo_cd_with_server_side_apply_takes_a_kubectl_edit_back_and_leaves_its_label() {
        let world = flux_world(web(Some(2), "web"), json!({"agent": "argocd", "serverSideApply": true, "pollEvery": 1}), json!([]), kubectl_edits(), 8);
        assert!(has(&world, "7 agent: Deployment/shop/web in prod drifted at /spec/replicas (9 → 2); reverting"), "{:#?}", lines(&world));
        let web = live(&world, WEB);
        assert_eq!(web["spec"]["replicas"], 2);
        assert_eq!(web["metadata"]["labels"]["debug"], "true", "Argo CD hands nothing of kubectl's to itself");
        assert_eq!(managers(web), ["argocd-controller Apply", "kubectl-edit Update"]);
    }
}
