//! Scenario files: bad ones located, what a script may do and is refused before it
//! runs, environments read from their declared paths, and time after the script.

mod common;

use common::events::{has, lines};
use common::worlds::{scenario_error, world};

use gitops_testing::everywhere;

use gitops_core::error::ErrorKind;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::json;

everywhere! {
    fn an_environment_is_read_from_its_declared_path() {
        let web = |replicas: u32| json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": replicas}});
        let scenario = json!({
            "environments": {"staging": {"path": "./apps/staging/"}, "prod": {"path": "apps/prod"}},
            "repository": {"files": {"apps/staging/web.yaml": web(1), "apps/prod/web.yaml": web(3), "envs/qa/web.yaml": web(2)}},
            "options": {"pollEvery": 1},
            "steps": 2,
        });
        let world = World::run(&Scenario::parse("test.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert_eq!(world.clusters.keys().collect::<Vec<_>>(), ["prod", "staging"], "envs/qa is no environment once environments are declared");
        assert_eq!(world.source_of("staging"), "apps/staging");
        assert_eq!(world.clusters["prod"].actual().get("Deployment/default/web").unwrap()["spec"]["replicas"], 3);
        assert_eq!(world.clusters["staging"].actual().get("Deployment/default/web").unwrap()["spec"]["replicas"], 1);
        for (environments, pointer, message) in [
            (json!({"prod": {"path": "/apps/prod"}}), "/environments/prod/path", "is absolute"),
            (json!({"prod": {"path": "apps/../prod"}}), "/environments/prod/path", "is not a directory of the repository"),
            (json!({"prod": {"path": "apps/qa"}}), "/environments/prod/path", "so prod's path does not exist"),
            (json!({"prod": {"where": "apps/prod"}}), "/environments/prod/where", "unknown field `where`"),
            (json!({"prod": {"path": 3}}), "/environments/prod/path", "a path is text"),
        ] {
            let mut bad = scenario.clone();
            bad["environments"] = environments;
            let error = Scenario::parse("test.json", &bad.to_string()).expect_err("bad");
            assert_eq!(error.pointer.as_deref(), Some(pointer), "{error}");
            assert!(error.message.contains(message), "{error}");
        }
        let mut branches = json!({"repository": {"branches": {"prod": {}}}, "options": {"layout": "branches"}});
        let error = Scenario::parse("test.json", &branches.to_string()).expect_err("an empty branch");
        assert_eq!(error.pointer.as_deref(), Some("/repository/branches/prod"), "{error}");
        assert!(error.message.contains("no file of the first commit is under app/ of branch prod"), "{error}");
        branches["environments"] = json!({"prod": {"path": "apps/prod"}});
        let error = Scenario::parse("test.json", &branches.to_string()).expect_err("paths with branches");
        assert_eq!(error.pointer.as_deref(), Some("/environments"), "{error}");
    }

    fn time_goes_on_after_the_script_for_a_while() {
        use gitops_world::person::Interaction;
        use gitops_world::scenario::MAX_STEPS_AFTER_SCRIPT;
        let text = json!({"desired": {"web": {"image": "web:1"}}, "actual": {"web": {"image": "web:1"}}, "options": {"pollEvery": 1}, "steps": 2});
        let mut world = World::run(&Scenario::parse("test.json", &text.to_string()).unwrap());
        assert!(!world.script_left());
        world.interact("prod", &Interaction::Desired(r#"{"web": {"image": "web:2"}}"#.into()));
        world.interact("prod", &Interaction::Commit(String::new()));
        assert_eq!(world.interact("prod", &Interaction::Advance), Some(true));
        assert!(has(&world, "3 agent: updated web in prod at /image (web:1 → web:2)"), "a commit after the script is synced: {:#?}", lines(&world));
        while world.can_advance() {
            world.interact("prod", &Interaction::Advance);
        }
        assert_eq!(world.step, 2 + MAX_STEPS_AFTER_SCRIPT);
        assert_eq!(world.interact("prod", &Interaction::Advance), None, "time stops somewhere");
    }

    fn a_refused_action_says_why() {
        let script = json!([
            {"at": 1, "do": "revert", "author": "alice", "commit": "HEAD"},
            {"at": 1, "do": "merge", "by": "alice", "pullRequest": 7},
            {"at": 1, "do": "edit-cluster", "by": "bob", "key": "nope", "path": "/replicas", "value": 1},
            {"at": 1, "do": "promote", "author": "alice", "key": "nope", "from": "prod", "to": "prod"},
            {"at": 1, "do": "restart", "key": "nope"},
        ]);
        let world = world(json!({}), script);
        assert!(has(&world, "could not revert HEAD; "));
        assert!(has(&world, "could not merge pull request #7; the state repository refused: there is no pull request #7"));
        assert!(has(&world, "could not edit nope in prod; nope is not in the prod cluster"));
        assert!(has(&world, "could not promote nope from prod to prod; nope is not in envs/prod"));
        assert!(has(&world, "kubelet: nothing to restart: nope is not in prod; the prod cluster has no object nope at this step"), "{:#?}", lines(&world));
    }

    fn a_bad_script_is_located() {
        let text = r#"{"desired": {}, "script": [{"at": 1, "do": "commit", "author": "a", "message": "m"}, {"at": 2, "do": "comit"}]}"#;
        let error = scenario_error(text);
        assert!(error.starts_with("lesson.json at /script/1: unknown variant `comit`"), "{error}");
        let error = scenario_error(r#"{"desired": {}, "script": [{"do": "stop-agent"}]}"#);
        assert!(error.contains("each action needs `at`"), "{error}");
        let error = scenario_error(r#"{"desired": {}, "options": {"pollEvery": 0}}"#);
        assert_eq!(error, "lesson.json at /options/pollEvery: the agent polls every 1 step or more");
        let error = scenario_error(r#"{"desired": {}, "options": {"mode": "teleport"}}"#);
        assert!(error.starts_with("lesson.json at /options/mode: unknown variant `teleport`"), "{error}");
    }

    fn each_action_says_which_field_it_lacks_does_not_know_or_reads_wrong() {
        let step = |action: &str| scenario_error(&format!(r#"{{"desired": {{}}, "script": [{action}]}}"#));
        assert_eq!(step(r#"{"at": 1, "do": "commit", "author": "a"}"#), "lesson.json at /script/0: missing field `message`");
        assert_eq!(step(r#"{"at": 1, "do": "approve", "by": "b", "title": "t"}"#), "lesson.json at /script/0: unknown field `title`, expected `by` or `pullRequest`");
        assert_eq!(step(r#"{"at": 1, "do": "stop-agent", "by": "b"}"#), "lesson.json at /script/0: unknown field `by`, there are no fields");
        assert_eq!(step(r#"{"at": 1, "do": "merge", "by": "b", "pullRequest": "one"}"#), "lesson.json at /script/0: `pullRequest`: invalid type: string \"one\", expected u32");
        assert_eq!(step(r#"{"at": 1, "do": "edit-cluster", "by": "b", "key": "k", "path": "/p"}"#), "lesson.json at /script/0: missing field `value`");
        let unknown = step(r#"{"at": 1, "do": "deploy"}"#);
        assert!(unknown.starts_with("lesson.json at /script/0: unknown variant `deploy`, expected one of `commit`, `revert`, `open-pull-request`"), "{unknown}");
        assert!(unknown.ends_with("`update-image`, `set-controller`"), "{unknown}");
    }

    fn the_repository_an_image_and_a_controller_say_which_field_they_lack_or_do_not_know() {
        assert_eq!(scenario_error(r#"{"repository": {"files": {}, "file": {}}}"#), "lesson.json at /repository: unknown field `file`, expected one of `author`, `message`, `files`, `branches`");
        assert_eq!(scenario_error(r#"{"repository": {"files": []}}"#), "lesson.json at /repository: `files`: invalid type: sequence, expected a map");
        assert_eq!(scenario_error(r#"{"desired": {}, "registry": [{"tag": "web:1"}, {"digest": "sha256:1"}]}"#), "lesson.json at /registry/1: missing field `tag`");
        let controller = r#"{"desired": {}, "controllers": [{"name": "autoscaler", "key": "web", "path": "/replicas", "value": 5}, {"name": "hpa", "key": "web", "value": 5}]}"#;
        assert_eq!(scenario_error(controller), "lesson.json at /controllers/1: missing field `path`");
    }

    fn an_action_reads_its_defaults_its_null_value_and_reconcile_as_sync() {
        let text = r#"{"desired": {}, "script": [
            {"at": 1, "do": "reconcile", "by": "carol"},
            {"at": 1, "do": "ci-apply", "key": "web", "path": "/spec/paused", "value": null},
            {"at": 1, "do": "push-image", "by": "ci", "tag": "web:2"}]}"#;
        let scenario = Scenario::parse("lesson.json", text).unwrap_or_else(|error| panic!("{error}"));
        let written = serde_json::to_value(&scenario.script).unwrap();
        assert_eq!(written, json!([
            {"at": 1, "do": "sync", "by": "carol", "environment": "prod"},
            {"at": 1, "do": "ci-apply", "environment": "prod", "key": "web", "path": "/spec/paused", "value": null},
            {"at": 1, "do": "push-image", "by": "ci", "tag": "web:2", "crashes": false, "malicious": false},
        ]));
    }

    fn a_bad_repository_file_is_located() {
        let text = r#"{"repository": {"files": {"envs/prod/web.yaml": "web: [1,"}}}"#;
        let error = Scenario::parse("lesson.json", text).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Shape);
        assert_eq!(error.pointer.as_deref(), Some("/repository/files/envs~1prod~1web.yaml"));
        let text = r#"{"repository": {"files": {"README.md": "hi"}}}"#;
        assert!(scenario_error(text).contains("no environment is declared"));
        let text = r#"{"desired": {}, "repository": {"files": {}}}"#;
        assert!(scenario_error(text).contains("not both"));
    }

    fn a_script_reads_back_what_it_writes() {
        let scenario = Scenario::parse("lesson.yaml", include_str!("../../../static/presets/promotion.yaml")).unwrap();
        let written = serde_json::to_value(&scenario.script).unwrap();
        assert_eq!(written[0], json!({"at": 2, "do": "promote", "author": "alice", "key": "Deployment/shop/web", "from": "staging", "to": "prod"}));
        let read: Vec<gitops_world::script::ScriptStep> = serde_json::from_value(written).unwrap();
        assert_eq!(read, scenario.script);
        let stop = json!([{"at": 1, "do": "stop-agent"}]);
        let read: Vec<gitops_world::script::ScriptStep> = serde_json::from_value(stop.clone()).unwrap();
        assert_eq!(serde_json::to_value(&read).unwrap(), stop);
        let error = scenario_error(r#"{"desired": {}, "script": [{"at": 1, "do": "stop-agent", "why": "x"}]}"#);
        assert!(error.contains("/script/0"), "{error}");
    }

    fn a_scenario_cannot_run_forever() {
        assert_eq!(scenario_error(r#"{"desired": {}, "steps": 4000000000}"#), "lesson.json at /steps: a scenario runs at most 10000 minutes");
        assert!(scenario_error(r#"{"desired": {}, "script": [{"at": 4294967295, "do": "stop-agent"}]}"#).contains("at most 10000 minutes"));
    }

    fn what_a_script_cannot_do_is_refused_before_it_runs() {
        let web = r#""desired": {"web": {"image": "web:1"}}"#;
        let error = |rest: &str| scenario_error(&format!("{{{web}, {rest}}}"));
        assert_eq!(
            error(r#""steps": 6, "script": [{"at": 20, "do": "restart", "key": "web"}]"#),
            "lesson.json at /script/0/at: this action is at minute 20, after the last minute the scenario runs (`steps: 6`), so it would never happen; move it to minute 6 or earlier, or raise `steps`"
        );
        assert_eq!(
            error(r#""script": [{"at": 1, "do": "stop-agent"}, {"at": 100000000, "do": "start-agent"}]"#),
            "lesson.json at /script/1/at: this action is at minute 100000000, but a scenario runs at most 10000 minutes (`steps`)"
        );
        let nowhere = "there is no environment `staging` in this scenario; it has prod. Name one of those, or declare `staging` with files under `envs/staging/` (or a cluster under `clusters`)";
        for (action, field) in [
            (r#"{"at": 1, "do": "restart", "environment": "staging", "key": "web"}"#, "environment"),
            (r#"{"at": 1, "do": "sync", "by": "bob", "environment": "staging"}"#, "environment"),
            (r#"{"at": 1, "do": "lose-cluster", "environment": "staging"}"#, "environment"),
            (r#"{"at": 1, "do": "edit-cluster", "by": "bob", "environment": "staging", "key": "web", "path": "/image", "value": 1}"#, "environment"),
            (r#"{"at": 1, "do": "promote", "author": "a", "key": "web", "from": "staging", "to": "prod"}"#, "from"),
        ] {
            assert_eq!(error(&format!(r#""script": [{action}]"#)), format!("lesson.json at /script/0/{field}: {nowhere}"));
        }
        assert_eq!(
            error(r#""controllers": [{"name": "hpa", "environment": "staging", "key": "web", "path": "/replicas", "value": 5}]"#),
            format!("lesson.json at /controllers/0/environment: {nowhere}")
        );
        assert_eq!(
            error(r#""controllers": [{"name": "hpa", "key": "web", "path": "replicas", "value": 5}]"#),
            "lesson.json at /controllers/0/path: `replicas` is not a JSON pointer: it should start with `/` (write `/replicas`)"
        );
        assert_eq!(
            error(r#""script": [{"at": 1, "do": "set-controller", "name": "hpa", "value": 3}]"#),
            "lesson.json at /script/0/name: there is no controller `hpa`; this scenario has none (declare it under `controllers`)"
        );
        assert_eq!(
            error(r#""script": [{"at": 1, "do": "commit", "author": "a", "message": "m", "set": [{"file": "envs/prod/manifests.json", "path": "web/image", "value": 2}]}]"#),
            "lesson.json at /script/0/set/0/path: `web/image` is not a JSON pointer: it should start with `/` (write `/web/image`)"
        );
    }

    fn an_environment_the_script_itself_creates_in_git_may_be_promoted_to() {
        let scenario = json!({
            "desired": {"web": {"image": "web:1"}},
            "script": [
                {"at": 1, "do": "commit", "author": "a", "message": "Add qa", "write": {"envs/qa/web.json": {"web": {"image": "web:0"}}}},
                {"at": 2, "do": "promote", "author": "a", "key": "web", "from": "prod", "to": "qa"},
            ],
        });
        let world = World::run(&Scenario::parse("lesson.json", &scenario.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, "opened pull request #1: Promote web to qa"), "{:#?}", lines(&world));
    }
}
