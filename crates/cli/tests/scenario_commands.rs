//! `gitops-sim plan`, `sync` and `run` as lesson authors run them: what they print
//! of a scenario, of each environment, and of a scenario that does not read.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{fails, gitops_sim, succeeds, WORKED_EXAMPLE};
use serde_json::{json, Value};

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
fn run_refuses_an_action_after_the_last_step_with_its_place() {
    let scenario = r#"{"desired": {"web": {}}, "steps": 6, "script": [{"at": 20, "do": "restart", "key": "web"}]}"#;
    assert!(fails(&["run", "-"], scenario)
        .starts_with("gitops-sim: <stdin> at /script/0/at: this action is at minute 20, after the last minute the scenario runs (`steps: 6`)"));
    let scenario = r#"{"desired": {"web": {}}, "script": [{"at": 100000000, "do": "stop-agent"}]}"#;
    assert_eq!(
        fails(&["run", "-"], scenario),
        "gitops-sim: <stdin> at /script/0/at: this action is at minute 100000000, but a scenario runs at most 10000 minutes (`steps`)"
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
        error.starts_with("gitops-sim: <stdin> at /script/0/set/0/file: no commit has a file envs/prod/api.yaml at minute 1"),
        "{error}"
    );
}

/// An autoscaler that wants 5 replicas of a Deployment whose Git says 2, polled every 5 minutes.
const AUTOSCALER: &str = r#"{
  "repository": {"files": {"envs/prod/web.json": {"apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "shop"},
    "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "web@sha256:1111111111111111111111111111111111111111111111111111111111111111"}]}}}}}},
  "controllers": [{"name": "autoscaler", "environment": "prod", "key": "Deployment/shop/web", "path": "/spec/replicas", "value": 5}],
  "options": {"pollEvery": 5},
  "steps": 11
}"#;

fn agent_reverts(output: &Value) -> Vec<u64> {
    output["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["actor"] == "agent" && event["what"].as_str().unwrap().contains("drifted at /spec/replicas (5 → 2); reverting"))
        .map(|event| event["step"].as_u64().unwrap())
        .collect()
}

#[test]
fn agent_chooses_flux_over_the_scenarios_options() {
    let argo = succeeds(&["run", "-"], AUTOSCALER);
    assert_eq!(agent_reverts(&argo), [1, 2, 3, 4, 5, 8], "Argo CD's self-heal, with its backoff");
    let flux = succeeds(&["run", "--agent", "flux", "-"], AUTOSCALER);
    assert_eq!(agent_reverts(&flux), [5, 10], "Flux, at its Kustomization's interval");
    let status = &flux["final"]["agent"]["applications"]["prod"]["kustomizations"][0];
    assert_eq!(status["name"], "playground", "{status}");
    assert_eq!(status["ready"]["reason"], "ReconciliationSucceeded", "{status}");
    assert_eq!(status["inventory"], json!(["Deployment/shop/web"]));

    let web = &succeeds(&["sync", "--agent", "flux", "-"], AUTOSCALER)["actual"][0];
    assert_eq!(web["metadata"]["labels"]["kustomize.toolkit.fluxcd.io/name"], "playground");
    assert_eq!(web["metadata"]["managedFields"][0]["manager"], "kustomize-controller");

    let refused = gitops_sim(&["run", "--agent", "kubectl", "-"], "");
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("invalid value 'kubectl' for '--agent <AGENT>'") && message.contains("possible values: argocd, flux"), "{message}");
}

/// A commit whose `set` misses a multi-document file's index, and a restart of
/// an object the cluster does not have: two actions that do nothing.
const TWO_ACTIONS_THAT_DO_NOTHING: &str = r#"
version: 1
repository:
  files:
    envs/prod/app.yaml: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: a, namespace: shop}
      data: {level: info}
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: b, namespace: shop}
      data: {level: info}
script:
  - {at: 1, do: commit, author: alice, message: debug logs, set: [{file: envs/prod/app.yaml, path: /data/level, value: debug}]}
  - {at: 2, do: restart, environment: prod, key: Deployment/shop/web}
"#;

#[test]
fn run_strict_names_each_action_that_did_nothing_and_why_and_exits_1() {
    let output = succeeds(&["run", "-"], TWO_ACTIONS_THAT_DO_NOTHING);
    let did_nothing = output["didNothing"].as_array().expect("the run lists what did nothing");
    assert_eq!(did_nothing.len(), 2, "{did_nothing:#?}");
    assert_eq!((&did_nothing[0]["step"], &did_nothing[0]["actor"]), (&json!(1), &json!("alice")));
    assert_eq!(did_nothing[0]["refused"], true);
    assert_eq!((&did_nothing[1]["step"], &did_nothing[1]["what"]), (&json!(2), &json!("nothing to restart: Deployment/shop/web is not in prod")));

    let strict = gitops_sim(&["run", "--strict", "-"], TWO_ACTIONS_THAT_DO_NOTHING);
    assert_eq!(strict.status.code(), Some(1), "an action that did nothing fails a strict run");
    let stderr = String::from_utf8(strict.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with(r#"gitops-sim: at minute 1, alice did nothing: could not commit "debug logs": /data/level: `data` is not an index of a list (envs/prod/app.yaml holds 2 documents, so a path into it starts with a document's index: /0/…, /1/…)"#), "{stderr}");
    assert!(lines[1].starts_with("gitops-sim: at minute 2, kubelet did nothing: nothing to restart: Deployment/shop/web is not in prod"), "{stderr}");
    assert!(serde_json::from_slice::<Value>(&strict.stdout).is_ok(), "the run is printed all the same");

    let fixed = TWO_ACTIONS_THAT_DO_NOTHING.replace("path: /data/level", "path: /1/data/level").replace("  - {at: 2, do: restart, environment: prod, key: Deployment/shop/web}\n", "");
    let output = succeeds(&["run", "--strict", "-"], &fixed);
    assert!(output.get("didNothing").is_none(), "{output:#}");
}
