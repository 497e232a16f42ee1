//! A repository laid out as `flux bootstrap` lays it out, run by Flux's agent
//! (`repository/flux.rs`, `agent/flux.rs`): the Kustomization objects in an
//! environment's directory are the agent's settings, each builds its path with
//! its own options, `dependsOn` holds one until another is Ready, and `wait`
//! makes Ready wait for the health of what was applied.

mod common;

use common::events::{has, lines};
use common::presets::{run, scenario};

use gitops_testing::everywhere;

use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

fn kustomization(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization", "metadata": {"name": name, "namespace": "flux-system"}, "spec": spec})
}

fn settings(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"level": "info"}})
}

/// A repository whose `clusters/prod` holds these files, and `apps/` an app's settings.
fn laid_out(clusters: Value, script: Value, steps: u32) -> Result<World, String> {
    let mut files = json!({"apps/prod/settings.yaml": settings("settings"), "apps/prod/extra.yaml": settings("extra")});
    for (path, content) in clusters.as_object().unwrap() {
        files[format!("clusters/prod/{path}")] = content.clone();
    }
    let text = json!({
        "environments": {"prod": {"path": "clusters/prod"}},
        "repository": {"files": files},
        "options": {"agent": "flux", "application": "flux-system", "pollEvery": 1},
        "script": script,
        "steps": steps,
    });
    Scenario::parse("flux.json", &text.to_string()).map(|scenario| World::run(&scenario)).map_err(|error| error.to_string())
}

everywhere! {
    fn kustomizations_in_git_are_settings_each_applying_its_path_with_its_labels() {
        let world = run("flux-depends-on.yaml");
        let actual = world.clusters["prod"].actual();
        assert!(actual.objects().keys().all(|key| !key.starts_with("Kustomization/")), "the Kustomizations are not applied: {:?}", actual.objects().keys());
        let owner = |key: &str| actual.get(key).unwrap()["metadata"]["labels"]["kustomize.toolkit.fluxcd.io/name"].clone();
        assert_eq!(owner("StatefulSet/shop/db"), "infrastructure");
        assert_eq!(owner("Deployment/shop/web"), "apps", "web names no namespace: targetNamespace puts it in shop");
        let statuses = &world.agent.as_ref().unwrap().applications["prod"].kustomizations;
        let names: Vec<&str> = statuses.iter().map(|status| status.name.as_str()).collect();
        assert_eq!(names, ["flux-system", "infrastructure", "apps"], "the root, then each after what it depends on");
        assert_eq!(statuses[2].inventory, ["Deployment/shop/web"]);
        assert_eq!(statuses[1].inventory, ["Namespace/shop", "StatefulSet/shop/db"]);
        assert!(statuses.iter().all(|status| status.ready.reason == "ReconciliationSucceeded"), "{statuses:#?}");
        assert_eq!(format!("{:?}", world.summary().status["prod"].sync), "Synced");
    }

    fn depends_on_holds_apps_until_infrastructure_is_ready_with_wait() {
        let world = run("flux-depends-on.yaml");
        assert!(has(&world, "0 agent: prod: Kustomization flux-system/infrastructure is Ready=Unknown (Progressing: Running health checks"), "{:#?}", lines(&world));
        assert!(has(&world, "0 agent: prod: Kustomization flux-system/apps is Ready=False (DependencyNotReady: dependency 'flux-system/infrastructure' is not ready)"));
        let ready = lines(&world).iter().position(|line| line.starts_with("2 agent: prod: Kustomization flux-system/infrastructure is Ready=True")).expect("infrastructure is Ready at minute 2");
        let web = lines(&world).iter().position(|line| line.contains("created Deployment/shop/web")).expect("web is created");
        assert!(ready < web, "{:#?}", lines(&world));
        assert!(!has(&world, "cannot start"), "web starts once the database runs: {:#?}", lines(&world));
        assert!(has(&world, "7 agent: updated Deployment/shop/web in prod at /spec/template/spec/containers/0/image"));
        assert_eq!(scenario("flux-depends-on.yaml").options.agent, gitops_core::options::Agent::Flux);
    }

    fn the_kubectl_edit_preset_tells_flux_and_with_the_agent_switched_argo_cd() {
        let flux = run("flux-kubectl-edit.yaml");
        assert!(has(&flux, "10 agent: Deployment/shop/web in prod drifted at /metadata/labels/debug (true → absent), /spec/replicas (9 → 2); reverting"), "{:#?}", lines(&flux));
        assert!(!lines(&flux).iter().any(|line| ["7 agent", "8 agent", "9 agent"].iter().any(|step| line.starts_with(step))), "{:#?}", lines(&flux));
        assert!(has(&flux, "11 agent: Deployment/shop/web in prod drifted at /spec/replicas (4 → 2); reverting"), "carol's flux reconcile reverts the edit at once: {:#?}", lines(&flux));
        let mut argo = World::new(&scenario("flux-kubectl-edit.yaml"));
        argo.interact("prod", &gitops_world::person::Interaction::Agent(gitops_core::options::Agent::ArgoCd));
        while argo.step < 14 || !argo.started {
            argo.next_step();
        }
        assert!(has(&argo, "7 agent: Deployment/shop/web in prod drifted at /spec/replicas (9 → 2); reverting"), "{:#?}", lines(&argo));
        assert_eq!(argo.clusters["prod"].actual().get("Deployment/shop/web").unwrap()["metadata"]["labels"]["debug"], "true", "Argo CD's apply keeps a label Git never set");
    }

    fn a_kustomization_prunes_what_it_applied_and_git_no_longer_declares() {
        let apps = kustomization("apps", json!({"interval": "5m", "path": "./apps/prod", "prune": true}));
        let emptied = json!({"at": 2, "do": "commit", "author": "alice", "message": "Drop extra", "write": {"apps/prod/extra.yaml": "[]"}});
        let world = laid_out(json!({"apps.yaml": apps}), json!([emptied]), 4).unwrap();
        assert!(has(&world, "3 agent: deleted ConfigMap/default/extra from prod"), "{:#?}", lines(&world));
        assert!(world.clusters["prod"].actual().get("ConfigMap/default/settings").is_some());
    }

    fn wait_fails_the_health_check_after_its_timeout() {
        let apps = kustomization("apps", json!({"interval": "10m", "path": "./apps/prod", "wait": true, "timeout": "2m", "retryInterval": "3m"}));
        let crashing = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web:broken"}]}}}});
        let text = json!({
            "environments": {"prod": {"path": "clusters/prod"}},
            "registry": [{"tag": "registry.example/web:broken", "crashes": true}],
            "repository": {"files": {"clusters/prod/apps.yaml": apps, "apps/prod/web.yaml": crashing}},
            "options": {"agent": "flux", "application": "flux-system", "pollEvery": 1},
            "steps": 6,
        });
        let world = World::run(&Scenario::parse("flux.json", &text.to_string()).unwrap());
        assert!(has(&world, "Kustomization flux-system/apps is Ready=False (HealthCheckFailed:"), "{:#?}", lines(&world));
        assert!(has(&world, "it tries again in 3 min (retryInterval)"), "{:#?}", lines(&world));
    }

    fn a_suspended_kustomization_applies_nothing() {
        let apps = kustomization("apps", json!({"interval": "5m", "path": "./apps/prod", "suspend": true}));
        let world = laid_out(json!({"apps.yaml": apps}), json!([]), 3).unwrap();
        assert!(world.clusters["prod"].actual().objects().is_empty(), "{:#?}", lines(&world));
    }

    fn kustomizations_that_do_not_read_say_where() {
        let no_interval = kustomization("apps", json!({"path": "./apps/prod"}));
        let world = laid_out(json!({"apps.yaml": no_interval}), json!([]), 1).unwrap();
        assert!(has(&world, "Kustomization apps: spec.interval is required (`interval: 10m`)"), "{:#?}", lines(&world));
        let twice = json!({
            "apps.yaml": kustomization("apps", json!({"interval": "5m", "path": "./apps/prod"})),
            "again.yaml": kustomization("again", json!({"interval": "5m", "path": "./apps/prod"})),
        });
        let world = laid_out(twice, json!([]), 1).unwrap();
        let wrong_type = kustomization("apps", json!({"interval": "5m", "path": "./apps/prod", "prune": "yes"}));
        let world_wrong = laid_out(json!({"apps.yaml": wrong_type}), json!([]), 1).unwrap();
        assert!(has(&world_wrong, "Kustomization apps: prune is true or false, found \"yes\""), "{:#?}", lines(&world_wrong));
        assert!(has(&world, "ConfigMap/default/extra is applied by two Kustomizations, again and apps"), "{:#?}", lines(&world));
        assert!(world.clusters["prod"].actual().objects().is_empty());
    }
}

everywhere! {
    fn a_kustomizations_spec_ignore_leaves_the_autoscalers_field_to_it() {
        let world = run("flux-autoscaler-ignore.yaml");
        assert!(!lines(&world).iter().any(|line| line.contains("drifted")), "{:#?}", lines(&world));
        let web = world.clusters["prod"].actual().get("Deployment/shop/web").unwrap().clone();
        assert_eq!(web["spec"]["replicas"], 5, "the release keeps the autoscaler's value");
        assert_eq!(web["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/web:2.0.1");
        assert_eq!(format!("{:?}", world.summary().status["prod"].sync), "Synced", "the page compares as the agent does");
        let ignore = &world.reconcile_options("prod").ignore;
        assert_eq!(ignore.len(), 1, "apps' spec.ignore, for the page's comparison: {ignore:?}");
    }

    fn a_rule_of_spec_ignore_in_another_tools_form_says_where() {
        let apps = kustomization("apps", json!({"interval": "1m", "path": "./apps/prod", "ignore": [{"group": "apps", "kind": "Deployment", "jsonPointers": ["/spec/replicas"]}]}));
        let world = laid_out(json!({"apps.yaml": apps}), json!([]), 1).unwrap();
        let error = world.desired_state("prod").unwrap_err().to_string();
        assert!(error.contains("/spec/ignore/0") && error.contains("Kustomization apps: a rule of spec.ignore has `paths` and a `target`"), "{error}");
    }
}

everywhere! {
    fn prune_disabled_keeps_the_database_out_of_the_garbage_collection_and_says_so() {
        let flux = run("flux-prune-disabled.yaml");
        assert!(flux.clusters["prod"].actual().get("StatefulSet/shop/db").is_some(), "{:#?}", lines(&flux));
        assert!(has(&flux, "3 agent: StatefulSet/shop/db in prod skipped: garbage collection leaves it (kustomize.toolkit.fluxcd.io/prune: disabled)"), "{:#?}", lines(&flux));
        let statuses = &flux.agent.as_ref().unwrap().applications["prod"].kustomizations;
        assert_eq!(statuses[0].inventory, ["Deployment/shop/web"], "Flux no longer manages the database");
        assert_eq!(format!("{:?}", flux.summary().status["prod"].sync), "Synced");
        let mut argo = World::new(&scenario("flux-prune-disabled.yaml"));
        argo.interact("prod", &gitops_world::person::Interaction::Agent(gitops_core::options::Agent::ArgoCd));
        while argo.step < 5 || !argo.started {
            argo.next_step();
        }
        assert!(argo.clusters["prod"].actual().get("StatefulSet/shop/db").is_none(), "Argo CD reads no Flux mark and prunes: {:#?}", lines(&argo));
    }
}
