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
    scripted(files, json!([]), steps)
}

fn scripted(files: Value, script: Value, steps: u32) -> World {
    let mut all = json!({"envs/staging/settings.yaml": SETTINGS, "envs/prod/settings.yaml": SETTINGS});
    all.as_object_mut().unwrap().extend(files.as_object().unwrap().clone());
    let text = json!({"repository": {"files": all}, "applications": "apps", "options": {"pollEvery": 1}, "script": script, "steps": steps});
    World::run(&Scenario::parse("apps.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
}

const AUTOMATED: &str = "  syncPolicy:\n    automated:\n      prune: true\n";

fn application_set(sync_policy: &str) -> String {
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: shop\n  namespace: argocd\nspec:\n{sync_policy}  generators:\n  - git:\n      \
         repoURL: https://git.example/shop.git\n      revision: HEAD\n      directories:\n      - path: envs/*\n  template:\n    metadata:\n      name: '{{{{path.basename}}}}'\n    \
         spec:\n      project: default\n      source:\n        repoURL: https://git.example/shop.git\n        path: '{{{{path}}}}'\n      destination:\n        \
         server: https://kubernetes.default.svc\n        namespace: '{{{{path.basename}}}}'\n      syncPolicy:\n        automated: {{}}\n"
    )
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

    fn a_directory_gone_from_an_application_sets_generator_deletes_its_application_and_what_it_managed() {
        let remove = json!([{"at": 3, "do": "commit", "author": "alice", "message": "retire staging", "remove": ["envs/staging/settings.yaml"]}]);
        let world = scripted(json!({"apps/shop.yaml": application_set("")}), remove.clone(), 6);
        assert!(world.clusters["staging"].actual().get("ConfigMap/staging/settings").is_none(), "{:#?}", lines(&world));
        assert!(has(&world, "staging: no Application in Git declares it at revision"), "{:#?}", lines(&world));
        assert!(has(&world, "its resources finalizer deletes what it managed: ConfigMap/staging/settings"), "{:#?}", lines(&world));
        assert!(world.agent.as_ref().unwrap().applications["staging"].deleted, "the agent no longer syncs it");
        assert!(world.clusters["prod"].actual().get("ConfigMap/prod/settings").is_some(), "prod is still generated");
        let add = json!([{"at": 2, "do": "commit", "author": "alice", "message": "add qa", "write": {"envs/qa/settings.yaml": SETTINGS}}]);
        let world = scripted(json!({"apps/shop.yaml": application_set("")}), add, 4);
        assert!(has(&world, "qa: an Application Git declares at revision"), "{:#?}", lines(&world));
        assert!(has(&world, "the playground's environments are those its scenario starts with"), "{:#?}", lines(&world));
        assert!(!world.clusters.contains_key("qa"));

        let empty_finalizers = application_set("").replace("      name: '{{path.basename}}'\n", "      name: '{{path.basename}}'\n      finalizers: []\n");
        assert!(empty_finalizers.contains("finalizers: []"));
        let world = scripted(json!({"apps/shop.yaml": empty_finalizers}), remove.clone(), 6);
        assert!(world.clusters["staging"].actual().get("ConfigMap/staging/settings").is_none(), "an empty list is no finalizers: {:#?}", lines(&world));

        let preserve = "  syncPolicy:\n    preserveResourcesOnDeletion: true\n";
        let world = scripted(json!({"apps/shop.yaml": application_set(preserve)}), remove, 6);
        assert!(world.clusters["staging"].actual().get("ConfigMap/staging/settings").is_some(), "preserveResourcesOnDeletion: {:#?}", lines(&world));
        assert!(has(&world, "its Application has no resources-finalizer.argocd.argoproj.io, so what it managed stays"), "{:#?}", lines(&world));
    }

    fn an_application_removed_from_the_root_keeps_its_resources_unless_its_finalizer_says_and_delete_false_keeps_one() {
        let finalizer = "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: staging\n  finalizers:\n  - resources-finalizer.argocd.argoproj.io\n";
        let with_finalizer = application("staging", AUTOMATED).replacen("apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: staging\n", finalizer, 1);
        let kept = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n  annotations:\n    argocd.argoproj.io/sync-options: Delete=false\n";
        let remove = json!([{"at": 3, "do": "commit", "author": "alice", "message": "drop staging", "remove": ["apps/staging.yaml"]}]);
        let files = json!({"apps/staging.yaml": with_finalizer, "apps/prod.yaml": application("prod", AUTOMATED), "envs/staging/keep.yaml": kept});
        let world = scripted(files, remove.clone(), 6);
        let staging = world.clusters["staging"].actual();
        assert!(staging.get("ConfigMap/shop-staging/settings").is_none(), "{:#?}", lines(&world));
        assert!(staging.get("ConfigMap/shop-staging/keep").is_some(), "Delete=false keeps it: {:#?}", lines(&world));
        assert!(has(&world, "1 kept (Delete=false"), "{:#?}", lines(&world));

        let files = json!({"apps/staging.yaml": application("staging", AUTOMATED), "apps/prod.yaml": application("prod", AUTOMATED)});
        let world = scripted(files, remove, 6);
        assert!(world.clusters["staging"].actual().get("ConfigMap/shop-staging/settings").is_some(), "no finalizer: {:#?}", lines(&world));
    }

    fn an_application_changed_in_git_syncs_by_its_new_settings() {
        let turn_on = json!([{"at": 2, "do": "commit", "author": "alice", "message": "automate prod", "write": {"apps/prod.yaml": application("prod", AUTOMATED)}}]);
        let world = scripted(json!({"apps/prod.yaml": application("prod", ""), "apps/staging.yaml": application("staging", "")}), turn_on, 6);
        assert!(has(&world, "prod: its Application changed in Git at revision"), "{:#?}", lines(&world));
        assert!(has(&world, "(syncPolicy.automated); it syncs by it from now on"), "{:#?}", lines(&world));
        assert!(world.clusters["prod"].actual().get("ConfigMap/shop-prod/settings").is_some(), "automated now: {:#?}", lines(&world));
        assert!(world.clusters["staging"].actual().is_empty(), "staging still waits for a person");
    }

    fn a_wave_of_child_applications_waits_for_the_waves_before_only_with_their_health_check() {
        let in_wave = |name: &str, wave: &str| {
            let annotated = format!("  name: {name}\n  annotations:\n    argocd.argoproj.io/sync-wave: \"{wave}\"\n");
            application(name, AUTOMATED).replacen(&format!("  name: {name}\n"), &annotated, 1)
        };
        let web = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  \
            template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: registry.example/web:1.0\n";
        let run = |staging: &str, registry: Value, check: bool, steps: u32| {
            let files = json!({"envs/staging/settings.yaml": SETTINGS, "envs/prod/settings.yaml": SETTINGS, "envs/staging/web.yaml": staging,
                "apps/staging.yaml": in_wave("staging", "0"), "apps/prod.yaml": in_wave("prod", "1")});
            let text = json!({"repository": {"files": files}, "applications": "apps", "registry": registry, "steps": steps,
                "options": {"pollEvery": 1, "applicationHealthCheck": check}});
            World::run(&Scenario::parse("apps.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let images = json!([{"tag": "registry.example/web:1.0"}]);
        let created = |world: &World| world.clusters["prod"].actual().get("ConfigMap/shop-prod/settings").is_some();

        let world = run(web, images.clone(), false, 0);
        assert!(created(&world), "no health of its own: wave 1 does not wait: {:#?}", lines(&world));
        assert_eq!(world.summary().status["staging"].health.to_string(), "Progressing", "{:#?}", lines(&world));

        let world = run(web, images.clone(), true, 0);
        assert!(!created(&world), "with the check, wave 1 waits: {:#?}", lines(&world));
        assert!(has(&world, "the root Application creates the Application of staging (wave 0)"), "{:#?}", lines(&world));
        assert!(world.agent.as_ref().unwrap().applications["prod"].pending);
        let world = run(web, images.clone(), true, 8);
        assert!(has(&world, "the root Application waits at wave 1: staging's Application is Progressing"), "{:#?}", lines(&world));
        assert!(created(&world), "staging became Healthy, so wave 1 was created: {:#?}", lines(&world));
        assert!(has(&world, "the root Application creates the Application of prod (wave 1)"), "{:#?}", lines(&world));

        let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n    image: registry.example/web:9.9\n";
        let world = run(pod, images, true, 8);
        assert!(has(&world, "the root Application's sync failed at wave 1: staging's Application is Degraded"), "{:#?}", lines(&world));
        assert!(!created(&world), "{:#?}", lines(&world));

        let alone = json!({"repository": {"files": {"envs/prod/settings.yaml": SETTINGS}}, "options": {"applicationHealthCheck": true}});
        let error = Scenario::parse("apps.json", &alone.to_string()).unwrap_err().to_string();
        assert!(error.starts_with("apps.json at /options/applicationHealthCheck: it needs a top-level `applications`"), "{error}");
    }
}
