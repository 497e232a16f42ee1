//! Bad input is reported with where and what, natively and in the browser.

mod common;

use gitops_playground::core::{ErrorKind, InputError, State};
use gitops_playground::world::scenario::Scenario;
use gitops_playground::world::World;
use serde_json::json;

fn state_error(text: &str) -> InputError {
    State::parse("desired", text).expect_err("the text is not a valid state")
}

fn scenario_error(text: &str) -> InputError {
    Scenario::parse("lesson.json", text).expect_err("the text is not a valid scenario")
}

everywhere! {
    fn text_that_is_not_json_gives_its_line_and_column() {
        let error = state_error("{\n  \"web\": {\"replicas\" 3}\n}");
        assert_eq!(error.kind, ErrorKind::Syntax);
        assert_eq!(error.to_string(), "desired, line 2, column 22: expected `:`");
    }

    fn a_state_of_the_wrong_shape_names_the_pane_and_what_was_expected() {
        let error = state_error("42");
        assert_eq!(error.kind, ErrorKind::Shape);
        assert!(error.to_string().starts_with("desired: a state is an object of named objects"), "{error}");
        assert!(error.to_string().ends_with("found a number"), "{error}");
    }

    fn a_named_object_that_is_not_an_object_names_its_field() {
        let error = state_error(r#"{"web": {"replicas": 3}, "api": "api:1.0"}"#);
        assert_eq!(error.to_string(), "desired at /api: `api` should be an object, found a string");
    }

    fn a_kubernetes_object_without_a_name_is_located() {
        let error = state_error(r#"[{"kind": "Service", "metadata": {"name": "a"}}, {"kind": "Service", "metadata": {}}]"#);
        assert_eq!(error.pointer.as_deref(), Some("/1/metadata"));
        assert_eq!(error.to_string(), "desired at /1/metadata: a Kubernetes object needs `metadata.name`");
    }

    fn a_kubernetes_object_without_a_kind_is_located() {
        let error = state_error(r#"{"kind": "List", "items": [{"metadata": {"name": "a"}}]}"#);
        assert_eq!(error.to_string(), "desired at /items/0: a Kubernetes object needs `kind`");
    }

    fn a_namespace_that_is_not_a_string_is_located() {
        let error = state_error(r#"[{"kind": "Service", "metadata": {"name": "a", "namespace": 7}}]"#);
        assert_eq!(error.pointer.as_deref(), Some("/0/metadata/namespace"));
    }

    fn two_objects_with_the_same_key_name_that_key() {
        let error = state_error(
            r#"[{"kind": "Service", "metadata": {"name": "web", "namespace": "shop"}},
                {"kind": "Service", "metadata": {"name": "api", "namespace": "shop"}},
                {"kind": "Service", "metadata": {"name": "web", "namespace": "shop"}}]"#,
        );
        assert_eq!(error.kind, ErrorKind::DuplicateKey);
        assert_eq!(error.key.as_deref(), Some("Service/shop/web"));
        assert_eq!(error.to_string(), "desired: two objects have the key Service/shop/web (items 0 and 2)");
    }

    fn of_several_repeated_keys_the_one_repeated_first_in_the_text_is_named() {
        let error = state_error(
            r#"[{"kind": "B", "metadata": {"name": "x"}}, {"kind": "A", "metadata": {"name": "y"}},
                {"kind": "B", "metadata": {"name": "x"}}, {"kind": "A", "metadata": {"name": "y"}},
                {"kind": "A", "metadata": {"name": "y"}}]"#,
        );
        assert_eq!(error.to_string(), "desired: two objects have the key B/x (items 0 and 2)");
    }

    fn a_name_written_twice_in_the_lesson_form_is_caught() {
        let error = state_error("{\"web\": {},\n \"web\": {}}");
        assert_eq!(error.line, Some(2));
        assert!(error.message.contains("`web` appears twice"), "{error}");
    }

    fn deep_nesting_is_an_error_not_a_crash() {
        let text = format!("{}{}", "{\"a\":".repeat(5000), "}".repeat(5000));
        assert!(state_error(&text).message.contains("nested too deeply"));
    }

    fn a_scenario_error_names_the_file_and_the_field() {
        let error = scenario_error(r#"{"desired": {"web": {}}, "actual": [{"kind": "Pod"}]}"#);
        assert_eq!(error.to_string(), "lesson.json at /actual/0: this Pod has no `metadata`, so it has no name");
        let error = scenario_error(r#"{"desired": {}, "options": {"prune": "yes"}}"#);
        assert_eq!(error.pointer.as_deref(), Some("/options/prune"));
        assert!(error.message.contains("expected a boolean"), "{error}");
        let error = scenario_error(r#"{"desired": {}, "options": {"prunee": true}}"#);
        assert!(error.message.contains("unknown field `prunee`"), "{error}");
    }

    fn a_scenario_needs_desired_and_knows_its_fields() {
        assert_eq!(scenario_error(r#"{"actual": {}}"#).to_string(), "lesson.json: a scenario needs `desired`, the state Git declares (or a `repository`)");
        let error = scenario_error(r#"{"desired": {}, "actaul": {}}"#);
        assert_eq!(error.pointer.as_deref(), Some("/actaul"));
        let error = scenario_error(r#"{"version": 9, "desired": {}}"#);
        assert_eq!(error.to_string(), "lesson.json at /version: this playground reads scenario version 1; found 9");
    }

    fn a_duplicate_in_a_scenario_names_the_key_and_the_state() {
        let error = scenario_error(r#"{"desired": [{"kind": "A", "metadata": {"name": "x"}}, {"kind": "A", "metadata": {"name": "x"}}]}"#);
        assert_eq!(error.kind, ErrorKind::DuplicateKey);
        assert_eq!(error.to_string(), "lesson.json at /desired: two objects have the key A/x (items 0 and 1)");
    }

    fn an_omitted_actual_is_an_empty_cluster_in_the_desired_form() {
        let scenario = Scenario::parse("lesson.json", r#"{"desired": [{"kind": "A", "metadata": {"name": "x"}}]}"#).unwrap();
        let (desired, actual) = scenario.initial();
        assert!(actual.is_empty());
        assert_eq!(actual.form(), desired.form());
        assert!(!scenario.options.prune);
    }

    fn a_yaml_stream_is_a_list_of_kubernetes_objects() {
        let state = State::parse("desired", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n").unwrap();
        let keys: Vec<&str> = state.objects().keys().map(|key| &**key).collect();
        assert_eq!(keys, ["Namespace/shop", "Service/shop/web"]);
    }

    fn a_yaml_error_names_the_document() {
        let error = state_error("kind: Service\nmetadata:\n  name: a\n---\nkind: Service\nmetadata: {}\n");
        assert_eq!(error.to_string(), "desired at /metadata: document 2: a Kubernetes object needs `metadata.name`");
        let error = state_error("kind: Service\nmetadata:\n  name: a\n---\nkind: Service\nmetadata:\n  name: a\n");
        assert_eq!(error.to_string(), "desired: two objects have the key Service/a (documents 1 and 2)");
    }

    fn broken_yaml_gives_its_line_and_column() {
        let error = state_error("web:\n  replicas: 3\n  image: [web:1\n");
        assert_eq!(error.kind, ErrorKind::Syntax);
        assert!(error.line.is_some() && error.column.is_some(), "{error}");
    }

    fn a_write_through_a_path_thousands_of_fields_deep_is_refused_not_a_crash() {
        let path = "/a".repeat(10_000);
        let scenario = json!({
            "desired": {"web": {"replicas": 1}},
            "actual": {"web": {"replicas": 1}},
            "controllers": [{"name": "autoscaler", "key": "web", "path": path, "value": 1}],
            "script": [
                {"at": 1, "do": "edit-cluster", "by": "bob", "key": "web", "path": path, "value": 1},
                {"at": 1, "do": "commit", "author": "alice", "message": "Deep",
                 "set": [{"file": "envs/prod/manifests.json", "path": path, "value": 1}]},
            ],
            "steps": 2,
        });
        let world = World::run(&Scenario::parse("lesson.json", &scenario.to_string()).unwrap());
        for refused in ["could not edit web in prod", "could not commit \"Deep\""] {
            let event = world.events.iter().find(|event| event.what == refused).expect(refused);
            assert!(event.why.ends_with("a path goes through at most 128"), "{event}");
        }
    }

    fn a_scenario_can_be_yaml() {
        let scenario = Scenario::parse("lesson.yaml", "desired:\n  web: {replicas: 2}\noptions:\n  prune: yes\n").unwrap();
        assert!(scenario.options.prune);
        assert_eq!(scenario.initial().0.get("web"), Some(&serde_json::json!({"replicas": 2})));
    }
}
