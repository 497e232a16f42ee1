//! Argo CD's own objects in Git declaring the environments (the app-of-apps
//! pattern): Applications, and an ApplicationSet's Git directory generator,
//! read as Argo CD reads them (`scenario/applications.rs`).

mod common;

use common::events::{has, lines};
use gitops_testing::everywhere;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

const SETTINGS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n";

fn world(files: Value, steps: u32) -> World {
    let mut all = json!({"envs/staging/settings.yaml": SETTINGS, "envs/prod/settings.yaml": SETTINGS});
    all.as_object_mut().unwrap().extend(files.as_object().unwrap().clone());
    let text = json!({"repository": {"files": all}, "applications": "apps", "options": {"pollEvery": 1}, "steps": steps});
    World::run(&Scenario::parse("apps.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
}

fn application(name: &str, sync_policy: &str) -> String {
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: {name}\n  namespace: argocd\nspec:\n  project: default\n  \
         source:\n    repoURL: https://git.example/shop.git\n    path: envs/{name}\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: shop-{name}\n{sync_policy}"
    )
}

everywhere! {
    fn each_application_in_git_is_an_environment_with_its_path_destination_and_sync_policy() {
        let world = world(json!({
            "apps/staging.yaml": application("staging", "  syncPolicy:\n    automated:\n      prune: true\n      selfHeal: true\n"),
            "apps/prod.yaml": application("prod", ""),
        }), 3);
        assert_eq!(world.clusters.keys().collect::<Vec<_>>(), ["prod", "staging"]);
        assert!(world.clusters["staging"].actual().get("ConfigMap/shop-staging/settings").is_some(), "automated, in its destination namespace: {:#?}", lines(&world));
        assert!(world.clusters["prod"].actual().is_empty(), "no automated sync policy: a person syncs it: {:#?}", lines(&world));
        assert_eq!(world.summary().status["prod"].sync.to_string(), "OutOfSync");
        assert!(has(&world, "prod is OutOfSync"), "{:#?}", lines(&world));
    }

    fn an_application_sets_git_directories_make_one_application_per_directory() {
        let set = "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: shop\n  namespace: argocd\nspec:\n  generators:\n  - git:\n      \
            repoURL: https://git.example/shop.git\n      revision: HEAD\n      directories:\n      - path: envs/*\n      - path: envs/legacy\n        exclude: true\n  \
            template:\n    metadata:\n      name: '{{path.basename}}'\n    spec:\n      project: default\n      source:\n        repoURL: https://git.example/shop.git\n        \
            path: '{{path}}'\n      destination:\n        server: https://kubernetes.default.svc\n        namespace: '{{path.basename}}'\n      syncPolicy:\n        automated: {}\n";
        let world = world(json!({"apps/shop.yaml": set, "envs/legacy/settings.yaml": SETTINGS}), 2);
        assert_eq!(world.clusters.keys().collect::<Vec<_>>(), ["prod", "staging"], "envs/legacy is excluded");
        for environment in ["prod", "staging"] {
            assert!(world.clusters[environment].actual().get(&format!("ConfigMap/{environment}/settings")).is_some(), "{environment}: {:#?}", lines(&world));
        }
    }

    fn an_application_that_does_not_read_says_where() {
        let text = json!({"repository": {"files": {"apps/prod.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: prod}\nspec: {source: {repoURL: x}}\n", "envs/prod/settings.yaml": SETTINGS}}, "applications": "apps"});
        let error = Scenario::parse("apps.json", &text.to_string()).unwrap_err();
        assert_eq!(error.to_string(), "apps at /Application/default/prod/spec/source/path: the playground reads an Application's `source.path` in its one repository");
        let both = json!({"repository": {"files": {"envs/prod/settings.yaml": SETTINGS}}, "applications": "apps", "environments": {"prod": {}}});
        assert!(Scenario::parse("apps.json", &both.to_string()).unwrap_err().to_string().contains("not both"));
    }
}
