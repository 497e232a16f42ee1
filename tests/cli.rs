//! `gitops-sim` as lesson authors run it.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Output, Stdio};

const WORKED_EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/static/presets/worked-example.json"
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
            {
                "op": "update",
                "key": "web",
                "wave": 0,
                "changes": [{"path": "/replicas", "from": 10, "to": 3}],
                "object": {"image": "registry.example/web:2.0.1", "replicas": 3}
            },
            {"op": "delete", "key": "debug", "wave": 0}
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
        "gitops-sim: <stdin> at /desired: two objects have the key Service/web (items 0 and 1)"
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
        "/static/presets/compromise-pull.yaml"
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
    let session = gitops_playground::share::decode(fragment.trim()).unwrap();
    assert_eq!(
        session.scenario.as_deref(),
        Some(include_str!("../static/presets/worked-example.json"))
    );
    let preset =
        String::from_utf8(gitops_sim(&["link", "--preset", "mutable-tag.yaml"], "").stdout)
            .unwrap();
    assert!(preset.trim().len() < 60, "a preset link is short: {preset}");
    assert_eq!(
        gitops_playground::share::decode(preset.trim())
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
        "/static/exercises/protect-database.yaml"
    );
    let right = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/exercises/protect-database.right.yaml"
    );
    let wrong = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/exercises/protect-database.wrong.yaml"
    );
    let solved = succeeds(&["check", exercise, "--solution", right], "");
    assert_eq!(solved["solved"], json!(true));
    let output = gitops_sim(&["check", exercise, "--solution", wrong], "");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr.trim(),
        "gitops-sim: not met: Pod/shop/debug is gone: Pod/shop/debug is in the cluster"
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
        "/static/exercises/compromised-ci.yaml"
    );
    let right = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/exercises/compromised-ci.right.yaml"
    );
    let solved = succeeds(&["check", exercise, "--solution", right], "");
    assert_eq!(solved["questions"].as_array().unwrap().len(), 5);
}

#[test]
fn check_refuses_a_file_that_is_not_an_exercise() {
    assert!(fails(&["check", WORKED_EXAMPLE], "")
        .ends_with("worked-example.json: it has no `exercise` block"));
}
