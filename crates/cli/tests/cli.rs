//! `gitops-sim` as lesson authors run it.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Output, Stdio};

const WORKED_EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../static/presets/worked-example.json"
);

fn gitops_sim(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gitops-sim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gitops-sim starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn succeeds(args: &[&str], stdin: &str) -> Value {
    let output = gitops_sim(args, stdin);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the output is JSON")
}

/// Runs a failing command; returns its one line of error.
fn fails(args: &[&str], stdin: &str) -> String {
    let output = gitops_sim(args, stdin);
    assert_eq!(output.status.code(), Some(2), "bad input exits with 2");
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr.trim_end().to_string()
}

#[test]
fn plan_prints_plan_drift_status_objects_and_warnings() {
    let output = succeeds(&["plan", WORKED_EXAMPLE], "");
    assert_eq!(
        output["plan"],
        json!([
            {"op": "delete", "key": "debug", "wave": 0},
            {
                "op": "update",
                "key": "web",
                "wave": 0,
                "changes": [{"path": "/replicas", "from": 10, "to": 3}],
                "object": {"image": "registry.example/web:2.0.1", "replicas": 3}
            }
        ])
    );
    assert_eq!(
        output["drift"],
        json!({
            "missing": [],
            "changed": ["web"],
            "extra": ["debug"],
            "changes": {"web": [{"path": "/replicas", "from": 10, "to": 3}]}
        })
    );
    assert_eq!(
        output["status"],
        json!({"sync": "OutOfSync", "health": "Healthy"})
    );
    assert_eq!(
        output["objects"],
        json!([
            {"key": "api", "sync": "Synced"},
            {"key": "debug", "sync": "OutOfSync"},
            {"key": "web", "sync": "OutOfSync"}
        ])
    );
    assert!(output["warnings"].is_array());
}

#[test]
fn sync_applies_passes_until_one_is_empty() {
    let output = succeeds(&["sync", WORKED_EXAMPLE], "");
    let passes = output["passes"].as_array().unwrap();
    assert_eq!(passes.len(), 2);
    assert_eq!(passes[0].as_array().unwrap().len(), 2);
    assert_eq!(passes[1], json!([]));
    assert_eq!(output["converged"], json!(true));
    assert_eq!(
        output["actual"],
        json!({
            "api": {"image": "registry.example/api:1.4.2", "replicas": 2},
            "web": {"image": "registry.example/web:2.0.1", "replicas": 3}
        })
    );
}

#[test]
fn sync_stops_at_an_update_the_api_server_refuses_and_says_what_it_said() {
    let deployment = |app: &str, options: &str| {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
               "metadata": {"name": "web", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-options": options}},
               "spec": {"selector": {"matchLabels": {"app": app}}}})
    };
    let scenario = |options: &str| {
        json!({"desired": [deployment("web-v2", options)], "actual": [deployment("web", options)]})
            .to_string()
    };
    let output = succeeds(&["sync", "-"], &scenario(""));
    assert_eq!(output["converged"], json!(false));
    assert_eq!(
        output["passes"].as_array().unwrap().len(),
        1,
        "not ten passes of the same refusal"
    );
    assert_eq!(
        output["refused"],
        json!([{"key": "Deployment/shop/web", "message": r#"Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web-v2"}}: field is immutable"#}])
    );
    assert_eq!(
        output["actual"][0]["spec"]["selector"],
        json!({"matchLabels": {"app": "web"}})
    );

    let forced = succeeds(&["sync", "-"], &scenario("Force=true"));
    assert_eq!(forced["converged"], json!(true));
    assert!(forced.get("refused").is_none());
    assert_eq!(forced["recreated"][0]["key"], "Deployment/shop/web");
    assert_eq!(
        forced["actual"][0]["spec"]["selector"],
        json!({"matchLabels": {"app": "web-v2"}})
    );
}

#[test]
fn sync_writes_the_actual_state_in_its_own_form() {
    let scenario = r#"{
        "desired": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "x"}, "data": {"k": "v"}}],
        "actual": {"apiVersion": "v1", "kind": "List", "metadata": {}, "items": []}
    }"#;
    let output = succeeds(&["sync", "-"], scenario);
    assert_eq!(output["actual"]["kind"], "List");
    assert_eq!(output["actual"]["items"][0]["data"], json!({"k": "v"}));
}

#[test]
fn an_empty_cluster_is_the_default_actual_state() {
    let output = succeeds(&["plan", "-"], r#"{"desired": {"web": {"replicas": 1}}}"#);
    assert_eq!(
        output["plan"],
        json!([{"op": "create", "key": "web", "wave": 0, "object": {"replicas": 1}}])
    );
    assert_eq!(output["drift"]["missing"], json!(["web"]));
}

#[test]
fn text_that_is_not_json_names_the_file_line_and_column() {
    assert_eq!(
        fails(
            &["plan", "-"],
            "{\"desired\": {\n  \"web\": {\"replicas\": 3}\n  \"api\": {}\n}}"
        ),
        "gitops-sim: <stdin>, line 3, column 3: expected `,` or `}`"
    );
}

#[test]
fn a_duplicate_key_names_the_key() {
    let scenario = r#"{"desired": [{"kind": "Service", "metadata": {"name": "web"}}, {"kind": "Service", "metadata": {"name": "web"}}]}"#;
    assert_eq!(
        fails(&["sync", "-"], scenario),
        "gitops-sim: <stdin> at /desired: two objects have the key Service/default/web (items 0 and 1)"
    );
}

#[test]
fn a_missing_file_is_reported_not_panicked() {
    let message = fails(&["plan", "/no/such/scenario.json"], "");
    assert!(
        message.starts_with("gitops-sim: /no/such/scenario.json: cannot read it"),
        "{message}"
    );
}

#[test]
fn a_wrong_shape_names_the_field() {
    assert_eq!(fails(&["plan", "-"], "[]"), "gitops-sim: <stdin>: a scenario is an object with `desired` (or `repository`), `actual` and `options`; found an array");
}

#[test]
fn the_same_scenario_gives_the_same_output_every_time() {
    let first = gitops_sim(&["sync", WORKED_EXAMPLE], "").stdout;
    let second = gitops_sim(&["sync", WORKED_EXAMPLE], "").stdout;
    assert_eq!(first, second);
}

#[test]
fn run_prints_events_and_where_the_world_ends() {
    let preset = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/presets/compromise-pull.yaml"
    );
    let output = succeeds(&["run", preset], "");
    let events = output["events"].as_array().unwrap();
    assert!(events.iter().all(|event| event["step"].is_u64()
        && event["actor"].is_string()
        && event["what"].is_string()));
    assert!(events.iter().any(|event| event["actor"] == "ci"
        && event["what"]
            .as_str()
            .unwrap()
            .starts_with("could not change")));
    let end = &output["final"];
    assert_eq!(end["status"]["prod"]["sync"], "Synced");
    let declared = &end["desired"]["prod"][0]["spec"]["template"]["spec"]["containers"][0]["image"];
    assert_eq!(
        &end["running"]["prod"]["Deployment/shop/web"][0]["reference"], declared,
        "what runs is what Git declares"
    );
    assert_eq!(end["repository"]["pullRequests"][0]["status"], "open");
    assert!(end["running"]["prod"]["Deployment/shop/web"][0]
        .get("malicious")
        .is_none());
}

#[test]
fn run_reports_a_bad_script_with_its_place() {
    let scenario = r#"{"desired": {}, "script": [{"at": "soon", "do": "stop-agent"}]}"#;
    assert_eq!(
        fails(&["run", "-"], scenario),
        "gitops-sim: <stdin> at /script/0: `at` is a step number; found \"soon\""
    );
}

#[test]
fn link_prints_a_fragment_that_opens_the_scenario() {
    let output = gitops_sim(&["link", WORKED_EXAMPLE], "");
    assert!(output.status.success());
    let fragment = String::from_utf8(output.stdout).unwrap();
    let session = gitops_world::share::decode(fragment.trim()).unwrap();
    assert_eq!(
        session.scenario.as_deref(),
        Some(include_str!("../../../static/presets/worked-example.json"))
    );
    let preset =
        String::from_utf8(gitops_sim(&["link", "--preset", "mutable-tag.yaml"], "").stdout)
            .unwrap();
    assert!(preset.trim().len() < 60, "a preset link is short: {preset}");
    assert_eq!(
        gitops_world::share::decode(preset.trim())
            .unwrap()
            .preset
            .as_deref(),
        Some("mutable-tag.yaml")
    );
}

#[test]
fn link_refuses_a_scenario_that_does_not_read() {
    assert_eq!(fails(&["link", "-"], "{\"desired\": 3}"), "gitops-sim: <stdin> at /desired: a state is an object of named objects, a list of Kubernetes objects, or a Kubernetes List; found a number");
}

#[test]
fn check_exits_zero_only_when_every_goal_holds() {
    let exercise = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/exercises/protect-database.yaml"
    );
    let right = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../world/tests/exercises/protect-database.right.yaml"
    );
    let wrong = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../world/tests/exercises/protect-database.wrong.yaml"
    );
    let solved = succeeds(&["check", exercise, "--solution", right], "");
    assert_eq!(solved["solved"], json!(true));
    let output = gitops_sim(&["check", exercise, "--solution", wrong], "");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr.trim(),
        "gitops-sim: not met: Deployment/shop/worker is gone: Deployment/shop/worker is in the cluster\n\
         gitops-sim: not met: agent reports \"deleted Deployment/shop/worker\": no event of agent says \"deleted Deployment/shop/worker\""
    );
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        printed["goals"][0],
        json!({"what": "StatefulSet/shop/db exists", "passed": true, "why": "StatefulSet/shop/db is in the cluster"})
    );
}

#[test]
fn check_answers_questions_from_the_presets_beside_the_exercise() {
    let exercise = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/exercises/compromised-ci.yaml"
    );
    let right = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../world/tests/exercises/compromised-ci.right.yaml"
    );
    let solved = succeeds(&["check", exercise, "--solution", right], "");
    assert_eq!(solved["questions"].as_array().unwrap().len(), 5);
}

#[test]
fn check_refuses_a_file_that_is_not_an_exercise() {
    assert!(fails(&["check", WORKED_EXAMPLE], "")
        .ends_with("worked-example.json: it has no `exercise` block"));
}

/// A scenario with `count` objects of pseudo-random text, which deflate
/// cannot make much smaller.
fn noisy_scenario(count: usize) -> String {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let objects: serde_json::Map<String, Value> = (0..count)
        .map(|index| {
            let noise: String = (0..64)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    char::from(b'a' + (seed % 26) as u8)
                })
                .collect();
            (format!("object-{index}"), json!({ "note": noise }))
        })
        .collect();
    json!({ "desired": objects }).to_string()
}

#[test]
fn link_refuses_a_scenario_whose_link_the_page_would_refuse() {
    let message = fails(&["link", "-"], &noisy_scenario(10_000));
    assert!(
        message.starts_with("gitops-sim: <stdin>: its link would be ")
            && message.contains("the playground opens links up to 524288 characters"),
        "{message}"
    );
    let output = gitops_sim(&["link", "-"], &noisy_scenario(100));
    assert!(output.status.success(), "a smaller one links");
}

#[test]
fn link_refuses_a_preset_the_playground_does_not_have() {
    let exercises: Vec<String> =
        serde_json::from_str(include_str!("../../../static/exercises/index.json")).unwrap();
    let exercises: Vec<String> = exercises
        .iter()
        .map(|file| format!("exercises/{file}"))
        .collect();
    assert!(exercises.contains(&"exercises/flapping.yaml".to_string()));
    for name in [
        "nosuch.yaml",
        "../../etc/passwd",
        "presets/mutable-tag.yaml",
        "exercises/nosuch.yaml",
        "flapping.yaml",
    ] {
        let message = fails(&["link", "--preset", name], "");
        assert!(
            message.starts_with(&format!(
                "gitops-sim: --preset {name}: the playground has no such preset or exercise; name one of its presets: worked-example.json, "
            )) && message.contains("mutable-tag.yaml")
                && message.ends_with(&format!(
                    "; or one of its exercises: {}",
                    exercises.join(", ")
                )),
            "{message}"
        );
    }
}

#[test]
fn link_names_an_exercise_as_the_page_links_it() {
    let exercises: Vec<String> =
        serde_json::from_str(include_str!("../../../static/exercises/index.json")).unwrap();
    for exercise in exercises {
        let name = format!("exercises/{exercise}");
        let output = gitops_sim(&["link", "--preset", &name], "");
        assert!(
            output.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let fragment = String::from_utf8(output.stdout).unwrap();
        assert!(fragment.trim().len() < 80, "a short link: {fragment}");
        let session = gitops_world::share::decode(fragment.trim()).unwrap();
        assert_eq!(
            session,
            gitops_world::share::Session::of_preset(&name),
            "the link the page's own Share makes for the exercise"
        );
    }
}

#[test]
fn run_refuses_an_action_after_the_last_step_with_its_place() {
    let scenario = r#"{"desired": {"web": {}}, "steps": 6, "script": [{"at": 20, "do": "restart", "key": "web"}]}"#;
    assert!(fails(&["run", "-"], scenario)
        .starts_with("gitops-sim: <stdin> at /script/0/at: this action is at step 20, after the last step the scenario runs (`steps: 6`)"));
    let scenario = r#"{"desired": {"web": {}}, "script": [{"at": 100000000, "do": "stop-agent"}]}"#;
    assert_eq!(
        fails(&["run", "-"], scenario),
        "gitops-sim: <stdin> at /script/0/at: this action is at step 100000000, but a scenario runs at most 10000 steps"
    );
    let scenario = r#"{"desired": {"web": {}}, "script": [{"at": 1, "do": "restart", "environment": "staging", "key": "web"}]}"#;
    assert!(fails(&["run", "-"], scenario)
        .starts_with("gitops-sim: <stdin> at /script/0/environment: there is no environment `staging` in this scenario; it has prod."));
}

#[test]
fn plan_refuses_desired_and_actual_in_two_forms() {
    let scenario = "desired:\n  a: {image: x}\nactual:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n";
    for command in ["plan", "sync", "run", "link"] {
        assert!(fails(&[command, "-"], scenario).starts_with(
            "gitops-sim: <stdin> at /actual: `desired` holds named objects (the lesson's form) and `actual` holds Kubernetes objects;"
        ));
    }
    let output = succeeds(&["sync", "-"], "desired:\n  a: {image: x}\nactual: []\n");
    assert_eq!(
        output["actual"],
        json!({"a": {"image": "x"}}),
        "an empty actual state takes the form of desired, so the output reads back"
    );
}

/// A directory with `exercises/<name>` holding `exercise` and `presets/`
/// holding the two compromised-CI presets and an index of them.
fn exercise_dir(name: &str, exercise: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("exercises")).unwrap();
    std::fs::create_dir_all(root.join("presets")).unwrap();
    for preset in ["compromise-push.yaml", "compromise-pull.yaml"] {
        let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../static/presets")
            .join(preset);
        std::fs::copy(from, root.join("presets").join(preset)).unwrap();
    }
    std::fs::write(
        root.join("presets/index.json"),
        r#"["compromise-push.yaml", "compromise-pull.yaml"]"#,
    )
    .unwrap();
    let file = root.join("exercises").join(name);
    std::fs::write(&file, exercise).unwrap();
    file.to_string_lossy().into_owned()
}

const COMPROMISED_CI: &str = include_str!("../../../static/exercises/compromised-ci.yaml");

#[test]
fn check_refuses_a_question_whose_preset_is_missing_saying_where_it_looked() {
    let file = exercise_dir(
        "typo.yaml",
        &COMPROMISED_CI.replacen("run: compromise-push.yaml", "run: compromise-pushh.yaml", 1),
    );
    let message = fails(&["check", &file], "");
    let presets = std::path::Path::new(&file)
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("presets");
    assert!(
        message.starts_with(&format!(
            "gitops-sim: {file} at /exercise/questions/0/run: {} does not list the preset compromise-pushh.yaml, so the page would not find it; a question's preset is read from presets/ beside the exercise's directory",
            presets.join("index.json").display()
        )),
        "{message}"
    );
    std::fs::remove_file(presets.join("index.json")).unwrap();
    let message = fails(&["check", &file], "");
    assert!(
        message.contains(&format!(
            "the preset compromise-pushh.yaml is not there: cannot read {} (there is no such file)",
            presets.join("compromise-pushh.yaml").display()
        )),
        "{message}"
    );
}

#[test]
fn check_refuses_a_question_of_whose_choices_none_holds() {
    let file = exercise_dir(
        "nothing-holds.yaml",
        &COMPROMISED_CI.replacen(
            "{running: {key: Deployment/shop/web, malicious: true}}",
            "{running: {key: Deployment/shop/webb, malicious: true}}",
            1,
        ),
    );
    let message = fails(&["check", &file], "");
    assert!(
        message.contains("at /exercise/questions/0/choices: after running compromise-push.yaml, no choice holds, so no answer can be right (choice 0 (\"The attacker's image\"): Deployment/shop/webb runs nothing; "),
        "{message}"
    );
}

#[test]
fn check_refuses_an_exercise_goal_about_an_environment_it_does_not_have() {
    let exercise = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/exercises/flapping.yaml"
    );
    let text = std::fs::read_to_string(exercise)
        .unwrap()
        .replace("- stable: 5", "- synced: {environment: qa}");
    assert_eq!(
        fails(&["check", "-"], &text),
        "gitops-sim: <stdin> at /exercise/goals/0/synced/environment: there is no environment `qa` in this exercise; it has prod"
    );
}

#[test]
fn check_refuses_a_solution_that_does_not_fit_the_exercise() {
    let exercise = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/exercises/compromised-ci.yaml"
    );
    let check = |solution: &str| fails(&["check", exercise, "--solution", "-"], solution);
    assert_eq!(
        check("answers: [9, 1, 0, 1, 0]\n"),
        "gitops-sim: <stdin> at /answers/0: answer 1 is 9; question 1 has 2 choices (0 to 1)"
    );
    assert!(check("answers: [0, 1, 0, 1, 0, 1]\n")
        .starts_with("gitops-sim: <stdin> at /answers/5: there are 6 answers for 5 questions"));
    assert!(check("interactions: [{environment: qa}]\n").starts_with(
        "gitops-sim: <stdin> at /interactions/0/environment: there is no environment `qa`"
    ));
    let unknown = check("interactions: [{ignor: \"- /status\"}]\n");
    assert!(
        unknown.ends_with("unknown interaction `ignor`; the interactions are desired, actual, step, advance, revert, prune, selfHeal, autoSync, respectIgnoreDifferences, mode, ignore, environment, approve, merge, confirmPrune, answer"),
        "{unknown}"
    );
}

#[test]
fn every_exercise_and_preset_shipped_checks_and_links() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let exercises: Vec<String> =
        serde_json::from_str(include_str!("../../../static/exercises/index.json")).unwrap();
    for exercise in exercises {
        let file = format!("{root}/static/exercises/{exercise}");
        let output = gitops_sim(&["check", &file], "");
        assert_eq!(
            output.status.code(),
            Some(1),
            "{exercise} reads, and is not solved at its start: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let name = exercise.trim_end_matches(".yaml");
        let right = format!("{root}/crates/world/tests/exercises/{name}.right.yaml");
        succeeds(&["check", &file, "--solution", &right], "");
    }
    let presets: Vec<String> =
        serde_json::from_str(include_str!("../../../static/presets/index.json")).unwrap();
    for preset in presets {
        let file = format!("{root}/static/presets/{preset}");
        succeeds(&["run", &file], "");
        let output = gitops_sim(&["link", "--preset", &preset], "");
        assert!(output.status.success(), "{preset}");
    }
}

const DIRECTORIES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../static/presets/directories-per-environment.yaml"
);

#[test]
fn plan_and_sync_read_the_environment_named_and_say_which_when_none_is() {
    let staging = succeeds(&["plan", DIRECTORIES, "--environment", "staging"], "");
    let prod = succeeds(&["plan", DIRECTORIES, "--environment", "prod"], "");
    let replicas = |report: &Value| report["plan"][0]["object"]["spec"]["replicas"].clone();
    assert_eq!(replicas(&staging), json!(1), "{staging:#}");
    assert_eq!(replicas(&prod), json!(2), "{prod:#}");

    let synced = succeeds(&["sync", DIRECTORIES, "--environment", "staging"], "");
    assert_eq!(synced["converged"], json!(true));

    let unnamed = gitops_sim(&["plan", DIRECTORIES], "");
    assert!(unnamed.status.success());
    let stderr = String::from_utf8(unnamed.stderr).unwrap();
    assert!(
        stderr.contains("reading `prod`, the first of the environments prod, staging; choose one with --environment"),
        "{stderr}"
    );
    let output: Value = serde_json::from_slice(&unnamed.stdout).unwrap();
    assert_eq!(output, prod, "the first by name");

    let one = gitops_sim(&["plan", WORKED_EXAMPLE], "");
    assert!(one.stderr.is_empty(), "one environment needs no word");

    let missing = fails(&["plan", DIRECTORIES, "--environment", "production"], "");
    assert_eq!(
        missing,
        "gitops-sim: the scenario has no environment `production`; it has `prod`, `staging`"
    );
}

#[test]
fn run_refuses_a_set_on_a_file_git_never_has_with_its_place() {
    let scenario = "repository:\n  files:\n    envs/prod/web.yaml: {kind: Deployment, metadata: {name: web}, spec: {replicas: 2}}\nscript:\n  - at: 1\n    do: commit\n    author: bob\n    message: More replicas\n    set:\n      - {file: envs/prod/api.yaml, path: /spec/replicas, value: 3}\n";
    let error = fails(&["run", "-"], scenario);
    assert!(
        error.starts_with("gitops-sim: <stdin> at /script/0/set/0/file: no commit has a file envs/prod/api.yaml at step 1"),
        "{error}"
    );
}
