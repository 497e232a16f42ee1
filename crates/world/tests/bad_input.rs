//! Bad input is reported with where and what, natively and in the browser.

mod common;

use gitops_testing::everywhere;

use gitops_core::text::typed;
use gitops_core::{ErrorKind, InputError, Options, State};
use gitops_world::person::ignore_rules;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::json;

fn state_error(text: &str) -> InputError {
    State::read("desired", text).expect_err("the text is not a valid state")
}

fn scenario_error(text: &str) -> InputError {
    Scenario::parse("lesson.json", text).expect_err("the text is not a valid scenario")
}

everywhere! {
    fn a_destination_namespace_kubernetes_would_refuse_says_where() {
        let error = scenario_error(r#"{"desired": {}, "options": {"namespace": "Shop_1"}}"#);
        assert_eq!(error.to_string(), "lesson.json at /options/namespace: `Shop_1` is no namespace: a name of at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit (RFC 1123)");
    }

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
        assert_eq!(error.to_string(), "desired: two objects have the key B/default/x (items 0 and 2)");
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
        assert_eq!(error.to_string(), "lesson.json at /desired: two objects have the key A/default/x (items 0 and 1)");
    }

    fn an_omitted_actual_is_an_empty_cluster_in_the_desired_form() {
        let scenario = Scenario::parse("lesson.json", r#"{"desired": [{"kind": "A", "metadata": {"name": "x"}}]}"#).unwrap();
        let (desired, actual) = scenario.initial();
        assert!(actual.is_empty());
        assert_eq!(actual.form(), desired.form());
        assert!(!scenario.options.prune);
    }

    fn a_yaml_stream_is_a_list_of_kubernetes_objects() {
        let state = State::read("desired", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\n").unwrap();
        let keys: Vec<&str> = state.objects().keys().map(|key| &**key).collect();
        assert_eq!(keys, ["Namespace/shop", "Service/shop/web"]);
    }

    fn a_yaml_error_names_the_document() {
        let error = state_error("kind: Service\nmetadata:\n  name: a\n---\nkind: Service\nmetadata: {}\n");
        assert_eq!(error.to_string(), "desired at /metadata: document 2: a Kubernetes object needs `metadata.name`");
        let error = state_error("kind: Service\nmetadata:\n  name: a\n---\nkind: Service\nmetadata:\n  name: a\n");
        assert_eq!(error.to_string(), "desired: two objects have the key Service/default/a (documents 1 and 2)");
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

    fn a_wrong_ignore_rule_in_options_is_named_by_its_number_and_line() {
        assert_eq!(
            ignore_rules("- {kind: Deployment}\n").unwrap_err(),
            "ignore rules, rule 1 (line 1): a rule needs `jsonPointers` (a list of JSON pointers) or `jqPathExpressions` (a list of jq paths)"
        );
        assert_eq!(
            ignore_rules("- /status\n- kind: X\n  jsonPointers: [/a]\n  bogus: 1\n").unwrap_err(),
            "ignore rules, rule 2 (line 2): unknown field `bogus`; an Argo CD rule has `group`, `kind`, `name`, `namespace`, `jsonPointers` and `jqPathExpressions`; a Flux rule has `paths` and `target`"
        );
        assert_eq!(
            ignore_rules("[\"/status\",\n {\"kind\": \"X\", \"jsonPointers\": \"/a\"}]").unwrap_err(),
            "ignore rules, rule 2 (line 2): `jsonPointers` is a list of JSON pointers; found a string"
        );
        assert_eq!(
            ignore_rules("- spec/replicas\n").unwrap_err(),
            "ignore rules, rule 1 (line 1): `spec/replicas` is not a JSON pointer: it should start with `/`"
        );
        assert_eq!(
            ignore_rules("- {group: apps, kind: Deployment, jsonPointers: [/spec/replicas], target: {kind: Deployment}}\n").unwrap_err(),
            "ignore rules, rule 1 (line 1): `target` is Flux's, beside `paths` (a Flux rule); an Argo CD rule has `group`, `kind`, `name`, `namespace`, `jsonPointers` and `jqPathExpressions`; a Flux rule has `paths` and `target`"
        );
        assert_eq!(
            ignore_rules("- 3\n").unwrap_err(),
            "ignore rules, rule 1 (line 1): a rule is a JSON pointer such as `/status`, an Argo CD `ignoreDifferences` entry (`group`, `kind`, `name`, `namespace`, and `jsonPointers` or `jqPathExpressions`), or a Flux `spec.ignore` entry (`paths`, and a `target`); found a number"
        );
    }

    fn an_argo_cd_json_pointer_with_a_star_is_refused_with_the_jq_path_to_write() {
        assert_eq!(
            ignore_rules("- /status\n- kind: Deployment\n  jsonPointers:\n    - /spec/template/spec/containers/*/image\n").unwrap_err(),
            "ignore rules, rule 2 (line 2): `jsonPointers` item 1 `/spec/template/spec/containers/*/image`: Argo CD reads a JSON pointer literally, \
             so `*` names only a field called `*` and the difference still shows; \
             to match every item write `jqPathExpressions: [\".spec.template.spec.containers[].image\"]`"
        );
        let suggested = "- kind: Deployment\n  jqPathExpressions: [\".spec.template.spec.containers[].image\"]\n";
        assert_eq!(ignore_rules(suggested).unwrap()[0].jq_path_expressions, [".spec.template.spec.containers[].image"]);
        assert_eq!(ignore_rules("- /spec/template/spec/containers/*/image\n").unwrap().len(), 1, "the shorthand keeps its `*`");
    }

    fn a_jq_path_the_playground_does_not_read_is_refused_by_name() {
        let error = ignore_rules("- kind: Deployment\n  jqPathExpressions:\n    - .spec.template.spec.initContainers[] | select(.name == \"istio-init\")\n").unwrap_err();
        assert!(
            error.starts_with("ignore rules, rule 1 (line 1): `jqPathExpressions` item 1 `.spec.template.spec.initContainers[] | select(.name == \"istio-init\")`: the playground reads jq paths only: "),
            "{error}"
        );
        assert!(error.ends_with("not pipes, `select()`, functions or `..` (`| select(.name == \"istio…` is not read)"), "{error}");
    }

    fn managed_fields_managers_are_refused_because_the_playground_has_no_managed_fields() {
        let error = scenario_error("desired: {web: {}}\noptions:\n  ignore:\n    - {kind: Deployment, managedFieldsManagers: [kube-controller-manager]}\n");
        assert_eq!(
            error.to_string(),
            "lesson.json at /options/ignore/0: `managedFieldsManagers` is Argo CD's (it ignores the fields those managers own), \
             and the playground does not model managed fields; name the fields with `jsonPointers` or `jqPathExpressions`"
        );
    }

    fn ignore_rules_that_are_not_a_list_say_what_they_are() {
        assert_eq!(
            ignore_rules("{\"a\": 1}").unwrap_err(),
            "ignore rules are a list of rules (JSON pointers, or objects with `jsonPointers`); found an object"
        );
        assert!(ignore_rules("/status").unwrap_err().ends_with("found a string"));
    }

    fn broken_ignore_rules_keep_their_line_and_column() {
        let error = ignore_rules("- /status\n- [/a\n").unwrap_err();
        assert!(error.starts_with("ignore rules, line 3, column 1: "), "{error}");
    }

    fn a_wrong_ignore_rule_in_a_scenario_is_located() {
        let error = scenario_error("desired: {web: {}}\noptions:\n  ignore:\n    - /status\n    - {kind: X, jsonPointers: [/a], bogus: 1}\n");
        assert_eq!(error.to_string(), "lesson.json at /options/ignore/1: unknown field `bogus`; an Argo CD rule has `group`, `kind`, `name`, `namespace`, `jsonPointers` and `jqPathExpressions`; a Flux rule has `paths` and `target`");
        let error = scenario_error("desired: {web: {}}\noptions:\n  ignore: {a: 1}\n");
        assert_eq!(error.to_string(), "lesson.json at /options/ignore: ignore rules are a list of rules (JSON pointers, or objects with `jsonPointers`); found an object");
        let error = scenario_error("desired: {web: {}}\noptions:\n  ignore: [{kind: Deployment}]\n");
        assert_eq!(error.to_string(), "lesson.json at /options/ignore/0: a rule needs `jsonPointers` (a list of JSON pointers) or `jqPathExpressions` (a list of jq paths)");
    }

    fn a_wrong_ignore_rule_in_the_core_options_is_located() {
        let options = json!({"ignore": [{"kind": "X", "jsonPointers": [7]}]});
        let error = typed::read::<Options>(options).unwrap_err();
        assert_eq!(error.pointer(), "/ignore/0");
        assert_eq!(error.message(), "`jsonPointers` item 1 is a JSON pointer (text); found a number");
        let error = typed::read::<Options>(json!({"ignore": 1})).unwrap_err();
        assert!(error.message().ends_with("found a number"), "{error}");
    }

    fn ignore_rules_still_read_both_shapes() {
        let rules = ignore_rules("- /status\n- {kind: Deployment, name: web, namespace: ~, jsonPointers: [/spec/replicas]}\n").unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[1].kind.as_deref(), Some("Deployment"));
        assert_eq!(rules[1].namespace, None);
        assert!(ignore_rules("  \n").unwrap().is_empty());
    }

    fn a_scenario_can_be_yaml() {
        let scenario = Scenario::parse("lesson.yaml", "desired:\n  web: {replicas: 2}\noptions:\n  prune: yes\n").unwrap();
        assert!(scenario.options.prune);
        assert_eq!(scenario.initial().0.get("web"), Some(&serde_json::json!({"replicas": 2})));
    }

    fn desired_and_actual_in_two_forms_are_refused_naming_both() {
        let error = scenario_error("desired:\n  a: {image: x}\nactual:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n");
        assert_eq!(error.pointer.as_deref(), Some("/actual"));
        assert_eq!(error.to_string(), "lesson.json at /actual: `desired` holds named objects (the lesson's form) and `actual` holds Kubernetes objects; a sync writes the desired objects into the actual state, so write both in one form: both as named objects, or both as Kubernetes objects (with apiVersion, kind and metadata)");
        let error = scenario_error(r#"{"repository": {"files": {"envs/prod/web.json": [{"kind": "A", "metadata": {"name": "x"}}]}}, "clusters": {"prod": {"x": {}}}}"#);
        assert_eq!(error.to_string(), "lesson.json at /clusters/prod: Git's `envs/prod/` holds Kubernetes objects and the prod cluster holds named objects (the lesson's form); a sync writes the desired objects into the actual state, so write both in one form: both as named objects, or both as Kubernetes objects (with apiVersion, kind and metadata)");
    }

    fn an_empty_actual_takes_the_form_of_desired() {
        for empty in ["[]", "{}", r#"{"apiVersion": "v1", "kind": "List", "items": []}"#] {
            let text = format!(r#"{{"desired": {{"a": {{"image": "x"}}}}, "actual": {empty}}}"#);
            let (desired, actual) = Scenario::parse("lesson.json", &text).unwrap().initial();
            assert_eq!(actual.form(), desired.form(), "{empty}");
            let run = gitops_core::sync(&desired, &actual, &Options::default());
            assert_eq!(run.actual.to_value(), json!({"a": {"image": "x"}}), "{empty}");
        }
        let kubernetes = r#"{"desired": [{"kind": "A", "metadata": {"name": "x"}}], "actual": {"apiVersion": "v1", "kind": "List", "items": [{"kind": "A", "metadata": {"name": "x"}}]}}"#;
        assert!(Scenario::parse("lesson.json", kubernetes).is_ok(), "a list and a List are one form");
    }

    fn a_set_on_a_file_no_commit_has_is_refused_at_its_field() {
        let text = "repository:\n  files:\n    envs/prod/web.yaml: {kind: Deployment, metadata: {name: web}, spec: {replicas: 2}}\nscript:\n  - at: 1\n    do: commit\n    author: bob\n    message: More replicas\n    set:\n      - {file: envs/prod/wbe.yaml, path: /spec/replicas, value: 3}\n";
        let error = scenario_error(text);
        assert_eq!(error.pointer.as_deref(), Some("/script/0/set/0/file"));
        assert_eq!(error.to_string(), "lesson.json at /script/0/set/0/file: no commit has a file envs/prod/wbe.yaml at minute 1: Git's first commit has envs/prod/web.yaml, and the script writes no such file before; name one of them, or `write` the file first");
        let written_first = text.replace("  - at: 1\n", "  - at: 0\n    do: commit\n    author: bob\n    message: A second file\n    write:\n      envs/prod/wbe.yaml: {kind: Deployment, metadata: {name: wbe}}\n  - at: 1\n");
        assert!(Scenario::parse("lesson.yaml", &written_first).is_ok(), "a file the script wrote before may be set");
    }

    fn a_cluster_of_an_environment_git_does_not_declare_is_refused() {
        let error = scenario_error(r#"{"repository": {"files": {"envs/prod/web.json": {"web": {"image": "x"}}}}, "clusters": {"production": {"web": {"image": "x"}}}}"#);
        assert_eq!(error.pointer.as_deref(), Some("/clusters/production"));
        assert_eq!(error.to_string(), "lesson.json at /clusters/production: Git declares no environment production: its environments are prod, each a directory under `envs/` (or `environments`); a cluster is an environment's, so name it after one of them");
    }

    fn a_set_on_a_yaml_text_file_edits_it_and_the_agent_applies_it() {
        let text = "repository:\n  files:\n    envs/prod/web.yaml: |\n      # the web tier\n      kind: Deployment\n      metadata: {name: web, namespace: shop}\n      spec: {replicas: 2}\nscript:\n  - at: 1\n    do: commit\n    author: bob\n    message: More replicas\n    set:\n      - {file: envs/prod/web.yaml, path: /spec/replicas, value: 3}\n";
        let scenario = Scenario::parse("lesson.yaml", text).unwrap();
        let world = World::run(&scenario);
        let said: Vec<String> = world.events.iter().map(|event| format!("{}: {}", event.actor, event.what)).collect();
        assert!(said.iter().any(|line| line.starts_with("bob: committed")), "{said:#?}");
        assert!(!said.iter().any(|line| line.contains("could not")), "{said:#?}");
        let head = &world.repository.head().files["envs/prod/web.yaml"];
        let written = head.as_str().expect("still a text file");
        assert!(written.contains("replicas: 3"), "{written}");
        let replicas = world.clusters["prod"].actual().get("Deployment/shop/web").and_then(|web| web.pointer("/spec/replicas").cloned());
        assert_eq!(replicas, Some(json!(3)), "the agent applied the edit");
    }

    fn states_written_as_text_read_as_the_panes_read_them() {
        let text = "repository:\n  files:\n    envs/prod/web.yaml: |\n      kind: ConfigMap\n      metadata: {name: web}\n      data: {a: '1'}\nclusters:\n  prod: |\n    # what the cluster holds\n    - {kind: ConfigMap, metadata: {name: web}, data: {a: '2'}}\n";
        let scenario = Scenario::parse("lesson.yaml", text).unwrap();
        let (desired, actual) = scenario.initial();
        let keys: Vec<String> = desired.objects().keys().map(|key| key.to_string()).collect();
        assert_eq!(keys, ["ConfigMap/default/web"]);
        assert_eq!(desired.get(&keys[0]).unwrap()["data"]["a"], "1");
        assert_eq!(actual.get(&keys[0]).unwrap()["data"]["a"], "2");
        let (git, cluster) = scenario.author_texts("prod");
        assert!(git.unwrap().starts_with("kind: ConfigMap"));
        assert!(cluster.unwrap().starts_with("# what the cluster holds"));

        let error = scenario_error("desired: |\n  web: {replicas: 2}\n  web: {replicas: 3}\n");
        assert_eq!(error.pointer.as_deref(), Some("/desired"), "{error}");
        assert_eq!(error.to_string(), "lesson.json at /desired: line 2, column 1 of its text: the field `web` appears twice in one mapping");
    }
}
