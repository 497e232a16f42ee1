//! A desired state typed in the page, committed: each object goes back into the file
//! that declares it, so a commit changes only the files whose objects changed.

use gitops_core::state::render::{render, Format};
use gitops_testing::everywhere;
use gitops_world::repository::Files;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

/// Exercise 4's world: web, db and worker, each in a file of its own.
fn three_files() -> World {
    let scenario = Scenario::parse("exercise.yaml", include_str!("../../../static/exercises/protect-database.yaml")).unwrap();
    World::new(&scenario)
}

/// The environment's desired state as the page shows it, as YAML.
fn shown(world: &World) -> String {
    render(&world.desired_state("prod").unwrap(), Format::Yaml).text
}

/// The paths the last commit wrote or removed, as `+path` and `-path`.
fn last_commit(world: &World) -> Vec<String> {
    let log: Vec<_> = world.repository.log().collect();
    let (after, before): (&Files, &Files) = (&log[0].files, &log[1].files);
    let mut changed: Vec<String> = after
        .iter()
        .filter(|(path, content)| before.get(*path) != Some(content))
        .map(|(path, _)| format!("+{path}"))
        .collect();
    changed.extend(before.keys().filter(|path| !after.contains_key(*path)).map(|path| format!("-{path}")));
    changed
}

everywhere! {
    fn an_annotation_typed_on_the_database_writes_its_file_alone() {
        let mut world = three_files();
        let text = shown(&world).replacen(
            "labels:\n    app.kubernetes.io/component: database",
            "labels:\n    app.kubernetes.io/component: database\n  annotations:\n    argocd.argoproj.io/sync-options: Prune=false",
            1,
        );
        assert_ne!(text, shown(&world), "the annotation is typed");
        world.edit_desired("you", "prod", &text);
        assert_eq!(last_commit(&world), ["+envs/prod/db.yaml"]);
        let db = &world.repository.head().files["envs/prod/db.yaml"];
        assert_eq!(db["kind"], "StatefulSet", "still one object, as the file had it");
        assert_eq!(db["metadata"]["annotations"], json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        assert_eq!(shown(&world), text, "Git renders to what was typed");
    }

    fn an_object_typed_away_takes_its_file_and_a_new_one_gets_a_file_named_after_it() {
        let mut world = three_files();
        let without_worker: String = {
            let state = world.desired_state("prod").unwrap();
            let mut state = state.clone();
            state.remove("Deployment/shop/worker");
            render(&state, Format::Yaml).text
        };
        world.edit_desired("you", "prod", &without_worker);
        assert_eq!(last_commit(&world), ["-envs/prod/worker.yaml"]);

        let cache = "---\napiVersion: v1\nkind: Service\nmetadata: {name: cache, namespace: shop}\nspec: {ports: [{port: 6379}]}\n";
        world.next_step();
        world.edit_desired("you", "prod", &format!("{without_worker}{cache}"));
        assert_eq!(last_commit(&world), ["+envs/prod/cache.yaml"]);
        let written = world.repository.head().files["envs/prod/cache.yaml"].as_str().unwrap().to_string();
        assert!(written.starts_with("apiVersion: v1\nkind: Service"), "{written}");
        assert!(world.desired_state("prod").unwrap().get("Service/shop/cache").is_some());
    }

    fn a_file_of_several_objects_is_written_again_whole_and_the_others_are_left() {
        let files = json!({
            "envs/prod/apps.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: \"1\"}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {x: \"1\"}\n",
            "envs/prod/other.json": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}],
        });
        let scenario = Scenario::parse("s.json", &json!({"version": 1, "repository": {"files": files}}).to_string()).unwrap();
        let mut world = World::new(&scenario);
        let text = shown(&world).replacen("x: \"1\"", "x: \"2\"", 1);
        world.edit_desired("you", "prod", &text);
        assert_eq!(last_commit(&world), ["+envs/prod/apps.yaml"]);
        let apps = world.repository.head().files["envs/prod/apps.yaml"].as_str().unwrap().to_string();
        assert!(apps.contains("x: \"2\"") && apps.contains("name: b"), "{apps}");
        assert_eq!(world.repository.head().files["envs/prod/other.json"], files["envs/prod/other.json"]);
        assert_eq!(shown(&world), text);
    }

    fn a_text_in_another_form_than_the_files_is_the_directorys_one_file() {
        let mut world = three_files();
        world.edit_desired("you", "prod", "{\"web\": {\"replicas\": 1}}");
        assert_eq!(
            last_commit(&world),
            ["+envs/prod/manifests.json", "-envs/prod/db.yaml", "-envs/prod/web.yaml", "-envs/prod/worker.yaml"],
            "the lesson's form cannot say which file each object came from"
        );
        assert_eq!(world.repository.head().files["envs/prod/manifests.json"], Value::String("{\"web\": {\"replicas\": 1}}".into()));
    }
}
