//! Kustomize overlays as the lesson lays a repository out: a shared base
//! and an overlay per environment, rendered as Argo CD and Flux render
//! them; what is not modelled refused by name; promotion and the image
//! bot editing an overlay's `images:`; environments at declared paths.

mod common;

use common::events::{has, lines};

use gitops_testing::everywhere;

use gitops_world::repository::{desired_state, Files};
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

fn files(entries: Value) -> Files {
    serde_json::from_value(entries).expect("files")
}

fn deployment(name: &str, image: &str) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": name, "image": image, "envFrom": [{"configMapRef": {"name": "settings"}}]}]}
            }
        }
    })
}

fn base() -> Value {
    json!({
        "base/kustomization.yaml": {"resources": ["web.yaml", "service.yaml", "settings.yaml"]},
        "base/web.yaml": deployment("web", "registry.example/web:2.0.0"),
        "base/service.yaml": {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]}},
        "base/settings.yaml": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"LOG_LEVEL": "info"}},
    })
}

/// The base with `overlay` as `envs/prod/kustomization.yaml`, and `more` files.
fn tree(overlay: Value, more: Value) -> Files {
    let mut tree = files(base());
    tree.insert("envs/prod/kustomization.yaml".into(), overlay);
    tree.extend(files(more));
    tree
}

fn render(tree: &Files) -> Value {
    desired_state(&mut gitops_core::Workspace::new(), tree, "envs/prod")
        .unwrap_or_else(|error| panic!("{error}"))
        .to_value()
}

fn object<'v>(rendered: &'v Value, kind: &str, name: &str) -> &'v Value {
    rendered
        .as_array()
        .and_then(|items| {
            items
                .iter()
                .find(|item| item["kind"] == kind && item["metadata"]["name"] == name)
        })
        .unwrap_or_else(|| panic!("no {kind} {name} in {rendered:#}"))
}

fn error(tree: &Files) -> String {
    desired_state(&mut gitops_core::Workspace::new(), tree, "envs/prod")
        .expect_err("the build fails")
        .to_string()
}

everywhere! {
    fn an_overlay_renders_its_base_with_its_namespace_prefix_labels_images_and_replicas() {
        let overlay = json!({
            "apiVersion": "kustomize.config.k8s.io/v1beta1",
            "kind": "Kustomization",
            "resources": ["../../base"],
            "namespace": "shop",
            "namePrefix": "prod-",
            "commonLabels": {"env": "prod"},
            "labels": [{"pairs": {"team": "shop"}}],
            "commonAnnotations": {"owner": "alice"},
            "images": [{"name": "registry.example/web", "newTag": "2.1.0"}],
            "replicas": [{"name": "web", "count": 3}],
        });
        let rendered = render(&tree(overlay, json!({})));
        assert_eq!(rendered.as_array().unwrap().len(), 3, "the kustomization itself is not an object: {rendered:#}");
        let web = object(&rendered, "Deployment", "prod-web");
        assert_eq!(web["metadata"]["namespace"], "shop");
        assert_eq!(web["metadata"]["labels"], json!({"app": "web", "env": "prod", "team": "shop"}));
        assert_eq!(web["metadata"]["annotations"], json!({"owner": "alice"}));
        assert_eq!(web["spec"]["selector"]["matchLabels"], json!({"app": "web", "env": "prod"}), "commonLabels select, labels do not");
        assert_eq!(web["spec"]["template"]["metadata"]["labels"], json!({"app": "web", "env": "prod"}));
        assert_eq!(web["spec"]["template"]["metadata"]["annotations"], json!({"owner": "alice"}));
        assert_eq!(web["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/web:2.1.0");
        assert_eq!(web["spec"]["replicas"], 3, "replicas name the workload by its name in the base");
        assert_eq!(web["spec"]["template"]["spec"]["containers"][0]["envFrom"][0]["configMapRef"]["name"], "prod-settings", "a reference follows the renamed object");
        let service = object(&rendered, "Service", "prod-web");
        assert_eq!(service["spec"]["selector"], json!({"app": "web", "env": "prod"}));
        assert_eq!(service["metadata"]["namespace"], "shop");
    }

    fn bases_is_the_older_spelling_of_resources_and_files_come_before_directories_in_no_order() {
        let overlay = json!({"bases": ["../../base"], "resources": ["extra.yaml"], "images": [{"name": "registry.example/web", "digest": "sha256:abc"}]});
        let rendered = render(&tree(overlay, json!({"envs/prod/extra.yaml": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "extra"}}})));
        assert_eq!(rendered.as_array().unwrap().len(), 4);
        assert_eq!(object(&rendered, "Deployment", "web")["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/web@sha256:abc", "a digest replaces the tag");
    }

    fn a_reference_to_an_object_outside_the_build_keeps_its_name() {
        let mut web = deployment("web", "web:1");
        web["spec"]["template"]["spec"]["containers"][0]["envFrom"][0]["configMapRef"]["name"] = json!("shared");
        let tree = files(json!({
            "envs/prod/kustomization.yaml": {"resources": ["web.yaml", "autoscaler.yaml"], "nameSuffix": "-v2"},
            "envs/prod/web.yaml": web,
            "envs/prod/autoscaler.yaml": {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "web"}, "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}}},
        }));
        let rendered = render(&tree);
        let web = object(&rendered, "Deployment", "web-v2");
        assert_eq!(web["spec"]["template"]["spec"]["containers"][0]["envFrom"][0]["configMapRef"]["name"], "shared");
        assert_eq!(object(&rendered, "HorizontalPodAutoscaler", "web-v2")["spec"]["scaleTargetRef"]["name"], "web-v2");
    }

    fn a_strategic_merge_patch_merges_containers_by_name_and_a_custom_resource_is_merge_patched() {
        let patch = json!({
            "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"template": {"spec": {"containers": [
                {"name": "proxy", "image": "envoy:1"},
                {"name": "web", "env": [{"name": "LOG_LEVEL", "value": "debug"}]}
            ]}}}
        });
        let overlay = json!({
            "resources": ["../../base", "queue.yaml"],
            "patches": [
                {"path": "web-patch.yaml"},
                {"patch": "apiVersion: example.io/v1\nkind: Queue\nmetadata: {name: jobs}\nspec:\n  workers: [b]\n  size: null\n"},
                {"patch": "- op: replace\n  path: /spec/ports/0/port\n  value: 8080\n", "target": {"kind": "Service", "name": "we.*"}},
                {"patch": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ignored}\ndata: {EXTRA: \"1\"}\n", "target": {"kind": "ConfigMap", "labelSelector": "!app"}},
            ],
        });
        let rendered = render(&tree(overlay, json!({
            "envs/prod/web-patch.yaml": patch,
            "envs/prod/queue.yaml": {"apiVersion": "example.io/v1", "kind": "Queue", "metadata": {"name": "jobs"}, "spec": {"workers": [{"name": "a"}], "size": 3, "keep": true}},
        })));
        let containers = &object(&rendered, "Deployment", "web")["spec"]["template"]["spec"]["containers"];
        assert_eq!(containers[0]["name"], "proxy", "kustomize puts the patch's new items first");
        assert_eq!(containers[1]["image"], "registry.example/web:2.0.0", "a container merged by name keeps its fields");
        assert_eq!(containers[1]["env"][0]["value"], "debug");
        let queue = object(&rendered, "Queue", "jobs");
        assert_eq!(queue["spec"], json!({"workers": ["b"], "keep": true}), "a custom resource's list is replaced and null deletes");
        assert_eq!(object(&rendered, "Service", "web")["spec"]["ports"][0]["port"], 8080);
        let settings = object(&rendered, "ConfigMap", "settings");
        assert_eq!(settings["data"], json!({"LOG_LEVEL": "info", "EXTRA": "1"}), "a targeted patch keeps the target's name");
    }

    fn directives_delete_an_item_or_a_whole_object() {
        let overlay = json!({
            "resources": ["../../base"],
            "patchesStrategicMerge": [
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - {name: web, $patch: delete}\n",
                "delete-service.yaml",
            ],
            "patchesJson6902": [{"target": {"version": "v1", "kind": "ConfigMap", "name": "settings"}, "patch": "[{\"op\": \"add\", \"path\": \"/data/MODE\", \"value\": \"fast\"}]"}],
        });
        let rendered = render(&tree(overlay, json!({"envs/prod/delete-service.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n$patch: delete\n"})));
        assert_eq!(object(&rendered, "Deployment", "web")["spec"]["template"]["spec"]["containers"], json!([]));
        assert!(rendered.as_array().unwrap().iter().all(|item| item["kind"] != "Service"), "{rendered:#}");
        assert_eq!(object(&rendered, "ConfigMap", "settings")["data"]["MODE"], "fast");
    }

    fn what_kustomize_does_that_is_not_modelled_is_refused_by_name() {
        for (field, value, what) in [
            ("configMapGenerator", json!([{"name": "settings", "literals": ["a=b"]}]), "generators"),
            ("secretGenerator", json!([{"name": "password"}]), "generators"),
            ("helmCharts", json!([{"name": "redis"}]), "Helm charts"),
            ("components", json!(["../component"]), "components"),
            ("replacements", json!([{"source": {}}]), "replacements"),
        ] {
            let message = error(&tree(json!({"resources": ["../../base"], field: value}), json!({})));
            assert!(message.starts_with(&format!("envs/prod/kustomization.yaml at /{field}: `{field}`: kustomize's {what} are not modelled")), "{message}");
        }
        let message = error(&tree(json!({"resources": ["../../base"], "kind": "Component"}), json!({})));
        assert!(message.contains("at /kind: kustomize's components are not modelled"), "{message}");
        let message = error(&tree(json!({"resources": ["https://github.com/example/base"]}), json!({})));
        assert!(message.contains("at /resources/0: `https://github.com/example/base` is a remote resource"), "{message}");
    }

    fn a_bad_kustomization_is_an_error_that_names_the_file_and_the_field() {
        let cases = [
            (json!({"resources": ["../../base", "missing.yaml"]}), "envs/prod/kustomization.yaml at /resources/1: `missing.yaml` does not exist"),
            (json!({"resources": ["../../base"], "resourcse": []}), "envs/prod/kustomization.yaml at /resourcse: unknown field `resourcse`, expected one of apiVersion, kind"),
            (json!({"resources": ["../../base"], "images": [{"name": "registry.example/web", "newTag": 2.1}]}), "envs/prod/kustomization.yaml at /images/0/newTag: should be a string, found a number"),
            (json!({"resources": ["../../base"], "replicas": [{"name": "api", "count": 2}]}), "envs/prod/kustomization.yaml at /replicas/0: resource with name api does not match"),
            (json!({"resources": ["../../base"], "patches": [{"patch": "[{\"op\": \"remove\", \"path\": \"/spec\"}]"}]}), "envs/prod/kustomization.yaml at /patches/0: must specify a target for a JSON patch"),
            (json!({"resources": ["../../base"], "patches": [{"patch": "[{\"op\": \"remove\", \"path\": \"/nothing\"}]", "target": {"kind": "Service"}}]}), "at /patches/0: the JSON patch's operation 0 fails on Service web"),
            (json!({"resources": ["../../base"], "patches": [{"patch": "apiVersion: v1\nkind: Secret\nmetadata: {name: web}\n"}]}), "at /patches/0: no resource matches strategic merge patch Secret web"),
            (json!({"resources": ["../../base", "../../base/web.yaml"]}), "at /resources/1: may not add resource with an already registered id: Deployment/default/web"),
            (json!({"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization"}), "envs/prod/kustomization.yaml: kustomization.yaml is empty"),
            (json!({"resources": ["../../envs"]}), "at /resources/0: `../../envs` is a directory without a kustomization.yaml"),
        ];
        for (overlay, expected) in cases {
            let message = error(&tree(overlay, json!({})));
            assert!(message.contains(expected), "{message}\nexpected: {expected}");
        }
        let mut looped = tree(json!({"resources": ["../../base"]}), json!({}));
        looped.insert("base/kustomization.yaml".into(), json!({"resources": ["web.yaml", "../envs/prod"]}));
        let message = error(&looped);
        assert!(message.contains("base/kustomization.yaml at /resources/1: `../envs/prod` makes a cycle of kustomizations: envs/prod → base → envs/prod"), "{message}");
        let mut twice = tree(json!({"resources": ["../../base"]}), json!({}));
        twice.insert("envs/prod/kustomization.yml".into(), json!({"resources": []}));
        assert!(error(&twice).contains("found multiple kustomization files under envs/prod"));
    }

    fn a_kustomization_error_in_a_scenario_is_located_at_the_file_and_field() {
        let scenario = json!({"repository": {"files": {
            "envs/prod/kustomization.yaml": {"resources": ["web.yaml"], "images": [{"name": "web", "newtag": "2"}]},
            "envs/prod/web.yaml": deployment("web", "web:1"),
        }}});
        let error = Scenario::parse("lesson.json", &scenario.to_string()).expect_err("bad");
        assert_eq!(error.pointer.as_deref(), Some("/repository/files/envs~1prod~1kustomization.yaml/images/0/newtag"), "{error}");
        assert!(error.message.contains("unknown field `newtag`, expected one of name, newName, newTag"), "{error}");
    }

    fn an_overlay_is_read_from_its_declared_path() {
        let scenario = json!({
            "environments": {"staging": {"path": "apps/staging/"}, "prod": {"path": "apps/prod"}},
            "repository": {"files": {
                "apps/base/kustomization.yaml": {"resources": ["web.yaml"]},
                "apps/base/web.yaml": deployment("web", "registry.example/web:2.0.0"),
                "apps/staging/kustomization.yaml": {"resources": ["../base"], "images": [{"name": "registry.example/web", "newTag": "2.1.0"}]},
                "apps/prod/kustomization.yaml": {"resources": ["../base"], "images": [{"name": "registry.example/web", "newTag": "2.0.0"}]},
            }},
            "options": {"pollEvery": 1},
            "steps": 2,
        });
        let world = World::run(&Scenario::parse("test.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert_eq!(world.clusters.keys().collect::<Vec<_>>(), ["prod", "staging"]);
        assert_eq!(world.source_of("staging"), "apps/staging");
        let image = |environment: &str| world.clusters[environment].actual().get("Deployment/default/web").unwrap()["spec"]["template"]["spec"]["containers"][0]["image"].clone();
        assert_eq!(image("staging"), "registry.example/web:2.1.0");
        assert_eq!(image("prod"), "registry.example/web:2.0.0");
        for (environments, pointer) in [
            (json!({"prod": {"path": "/apps/prod"}}), "/environments/prod/path"),
            (json!({"prod": {"path": "apps/../prod"}}), "/environments/prod/path"),
            (json!({"prod": {"path": "apps/qa"}}), "/environments/prod/path"),
            (json!({"prod": {"where": "apps/prod"}}), "/environments/prod"),
        ] {
            let mut bad = scenario.clone();
            bad["environments"] = environments;
            let error = Scenario::parse("test.json", &bad.to_string()).expect_err("bad");
            assert!(error.pointer.as_deref().is_some_and(|at| at.starts_with(pointer)), "{error}");
        }
    }

    fn the_log_shows_what_a_base_change_renders_to_in_each_environment() {
        let scenario = json!({
            "repository": {"files": {
                "base/kustomization.yaml": {"resources": ["web.yaml"]},
                "base/web.yaml": deployment("web", "web:1"),
                "envs/staging/kustomization.yaml": {"resources": ["../../base"]},
                "envs/prod/kustomization.yaml": {"resources": ["../../base"], "namePrefix": "prod-"},
            }},
            "script": [{"at": 1, "do": "commit", "author": "alice", "message": "Base: web 2", "set": [{"file": "base/web.yaml", "path": "/spec/template/spec/containers/0/image", "value": "web:2"}]}],
            "steps": 2,
        });
        let world = World::run(&Scenario::parse("test.json", &scenario.to_string()).unwrap());
        let log = world.summary().repository.log;
        let changed: Vec<(&str, &str)> = log[0].changes.iter().flat_map(|(environment, diffs)| diffs.iter().map(move |diff| (environment.as_str(), diff.key.as_str()))).collect();
        assert_eq!(changed, [("prod", "Deployment/default/prod-web"), ("staging", "Deployment/default/web")]);
        let files: Vec<(&str, &str, Vec<&str>)> = log[0].files.iter().map(|file| (file.path.as_str(), file.change, file.changes.iter().map(|change| change.path.as_str()).collect())).collect();
        assert_eq!(files, [("base/web.yaml", "changed", vec!["/spec/template/spec/containers/0/image"])], "and the one file it changed");
    }
    fn a_promotion_changes_one_line_of_the_overlay_and_a_shared_base_needs_a_review() {
        let scenario = json!({
            "repository": {"files": {
                "base/kustomization.yaml": {"resources": ["web.yaml"]},
                "base/web.yaml": deployment("web", "registry.example/web:2.0.0"),
                "envs/staging/kustomization.yaml": {"resources": ["../../base"], "images": [{"name": "registry.example/web", "newTag": "2.1.0"}]},
                "envs/prod/kustomization.yaml": {"resources": ["../../base"], "replicas": [{"name": "web", "count": 2}], "images": [{"name": "registry.example/web", "newTag": "2.0.0"}]},
            }},
            "registry": [{"tag": "registry.example/web:2.0.0"}, {"tag": "registry.example/web:2.1.0"}],
            "options": {"pollEvery": 1},
            "script": [
                {"at": 1, "do": "promote", "author": "alice", "key": "Deployment/default/web", "from": "staging", "to": "prod"},
                {"at": 2, "do": "approve", "by": "bob", "pullRequest": 1},
                {"at": 2, "do": "merge", "by": "alice", "pullRequest": 1},
                {"at": 3, "do": "update-image", "by": "image-updater", "tag": "registry.example/web:2.1.0", "environment": "staging", "key": "Deployment/default/web"},
                {"at": 4, "do": "open-pull-request", "author": "carol", "title": "Base: two replicas", "set": [{"file": "base/web.yaml", "path": "/spec/replicas", "value": 2}]},
                {"at": 5, "do": "merge", "by": "carol", "pullRequest": 3},
            ],
            "steps": 7,
        });
        let world = World::run(&Scenario::parse("test.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, "1 alice: opened pull request #1: Promote Deployment/default/web to prod: registry.example/web:2.1.0"), "{:#?}", lines(&world));
        assert!(has(&world, "the `images:` of envs/prod/kustomization.yaml, the overlay of prod"));
        let promotion = &world.repository.pull_requests()[0].changes;
        assert_eq!(promotion.write.keys().collect::<Vec<_>>(), ["envs/prod/kustomization.yaml"]);
        let overlay = &promotion.write["envs/prod/kustomization.yaml"];
        assert_eq!(overlay["images"], json!([{"name": "registry.example/web", "newTag": "2.1.0"}]));
        assert_eq!(overlay["replicas"], json!([{"name": "web", "count": 2}]), "nothing else of the overlay changes");
        let running = &world.clusters["prod"].actual().get("Deployment/default/web").unwrap()["spec"]["template"]["spec"]["containers"][0]["image"];
        assert_eq!(running, "registry.example/web:2.1.0");
        let pinned = &world.repository.pull_requests()[1].changes.write["envs/staging/kustomization.yaml"]["images"];
        let digest = world.registry.resolve("registry.example/web:2.1.0").unwrap().digest.clone();
        assert_eq!(pinned, &json!([{"name": "registry.example/web", "digest": digest}]), "the bot writes the digest into `images:`");
        assert!(has(&world, "5 carol: could not merge pull request #3; the state repository refused: pull request #3 changes prod and needs an approval by someone other than carol"), "{:#?}", lines(&world));
    }
}
