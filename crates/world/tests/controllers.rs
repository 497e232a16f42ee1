//! A controller that owns a field of an object (an autoscaler's replicas):
//! what it finds there first, and what it says when the object is not there.

mod common;

use common::events::{has, lines};

use gitops_testing::everywhere;

use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

/// A Deployment `name` that declares no replicas, as Git keeps one an autoscaler scales.
fn unscaled(name: &str) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": "shop"},
        "spec": {"selector": {"matchLabels": {"app": name}},
                 "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": name, "image": "registry.example/web:1"}]}}},
    })
}

/// The world of a scenario whose autoscaler sets `key`'s replicas to 6, after `steps` steps.
fn scaled(key: &str, cluster: Value, steps: u32) -> World {
    let text = json!({
        "repository": {"files": {"envs/prod/web.json": unscaled("web")}},
        "clusters": {"prod": cluster},
        "controllers": [{"name": "autoscaler", "key": key, "path": "/spec/replicas", "value": 6, "reason": "the load needs 6"}],
        "steps": steps,
    });
    World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
}

everywhere! {
    fn an_object_the_cluster_starts_with_holds_the_api_servers_defaults_so_the_autoscaler_scales_from_one() {
        // SetDefaults_Deployment: the API server stored the Deployment with replicas 1.
        let world = scaled("Deployment/shop/web", json!([unscaled("web")]), 1);
        assert!(has(&world, "0 autoscaler: set Deployment/shop/web in prod at /spec/replicas (1 → 6)"), "{:#?}", lines(&world));
        assert!(!has(&world, "absent → 6"), "{:#?}", lines(&world));
    }

    fn a_controller_whose_object_is_not_there_says_so_once_and_sets_its_field_once_it_is() {
        let world = scaled("Deployment/shop/api", json!([]), 3);
        let missing = "autoscaler: found no Deployment/shop/api in prod, whose /spec/replicas it sets";
        assert!(has(&world, &format!("0 {missing}")), "{:#?}", lines(&world));
        assert_eq!(lines(&world).iter().filter(|line| line.contains(missing)).count(), 1, "said once while it stays missing: {:#?}", lines(&world));

        let text = json!({
            "repository": {"files": {"envs/prod/web.json": unscaled("web")}},
            "controllers": [{"name": "autoscaler", "key": "Deployment/shop/api", "path": "/spec/replicas", "value": 6}],
            "script": [{"at": 2, "do": "commit", "author": "alice", "message": "Add api", "write": {"envs/prod/api.json": unscaled("api")}}],
            "options": {"pollEvery": 1},
            "steps": 4,
        });
        let world = World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, &format!("0 {missing}")), "{:#?}", lines(&world));
        assert!(has(&world, "autoscaler: set Deployment/shop/api in prod at /spec/replicas (1 → 6)"), "{:#?}", lines(&world));
    }
}
