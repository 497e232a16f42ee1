//! Argo CD's server-side apply (`ServerSideApply=true`, gitops-engine's
//! `shouldUseServerSideApply` and `applyObject`; the controller's structured
//! merge diff, `controller/state.go` `WithStructuredMergeDiff`): it applies as
//! `argocd-controller` with `--force-conflicts`, writes no last-applied record,
//! compares by what that apply would merge, and, unlike Flux, hands nothing of
//! `kubectl`'s to itself first.

mod common;

use common::state;
use gitops_core::diff::ignore::IgnoreRule;
use gitops_core::diff::normalize::LAST_APPLIED;
use gitops_core::diff::ssa::{managers, owners_at, update};
use gitops_core::diff::tracking::TRACKING_ID;
use gitops_core::options::Agent;
use gitops_core::{drift, plan, sync, Options, State};
use gitops_testing::everywhere;
use serde_json::{json, Value};

const KEY: &str = "Deployment/shop/web";

fn options(server_side_apply: bool) -> Options {
    Options { prune: true, application: Some("apps".into()), server_side_apply, ..Options::default() }
}

fn web(replicas: u64, annotations: Value) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop", "annotations": annotations},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "registry.example/web:1.0.0"}]}}
        }
    })
}

fn synced(desired: &State, options: &Options) -> State {
    let run = sync(desired, &state(json!([])), options);
    assert!(run.converged);
    run.actual
}

/// The live object at `KEY` changed by `kubectl edit`.
fn edited(actual: &State, change: impl FnOnce(&mut Value)) -> State {
    let live = actual.get(KEY).expect("the object").clone();
    let mut after = live.clone();
    change(&mut after);
    state(json!([update(Some(&live), &after, "kubectl-edit", "")]))
}

everywhere! {
    fn a_server_side_apply_writes_field_managers_and_no_last_applied_record() {
        let desired = state(json!([web(2, json!({}))]));
        let live = synced(&desired, &options(true));
        let web = live.get(KEY).unwrap();
        assert!(web["metadata"]["annotations"].get(LAST_APPLIED).is_none(), "{web}");
        assert!(web["metadata"]["annotations"][TRACKING_ID].is_string());
        assert_eq!(managers(web), ["argocd-controller"]);
        assert!(plan(&desired, &live, &options(true)).is_empty(), "it converges");

        let client_side = synced(&desired, &options(false));
        assert!(client_side.get(KEY).unwrap()["metadata"]["annotations"][LAST_APPLIED].is_string());
        assert_eq!(managers(client_side.get(KEY).unwrap()), Vec::<String>::new());
    }

    fn an_object_opts_in_or_out_with_its_own_sync_option() {
        let opted_in = state(json!([web(2, json!({"argocd.argoproj.io/sync-options": "ServerSideApply=true"}))]));
        let live = synced(&opted_in, &options(false));
        assert_eq!(managers(live.get(KEY).unwrap()), ["argocd-controller"]);
        let opted_out = state(json!([web(2, json!({"argocd.argoproj.io/sync-options": "ServerSideApply=false"}))]));
        let live = synced(&opted_out, &options(true));
        assert!(live.get(KEY).unwrap()["metadata"]["annotations"][LAST_APPLIED].is_string());
        let flux = Options { agent: Agent::Flux, ..options(false) };
        let live = synced(&opted_out, &flux);
        assert_eq!(managers(live.get(KEY).unwrap()), ["kustomize-controller"], "Flux reads no Argo CD sync option");
    }

    fn a_kubectl_edit_of_a_field_git_sets_is_taken_back_and_a_label_it_added_stays() {
        let desired = state(json!([web(2, json!({}))]));
        let live = synced(&desired, &options(true));
        let live = edited(&live, |web| {
            web["spec"]["replicas"] = json!(9);
            web["metadata"]["labels"] = json!({"debug": "true"});
        });
        assert_eq!(owners_at(live.get(KEY).unwrap(), "/spec/replicas"), ["kubectl-edit"]);
        let found = drift(&desired, &live, &options(true));
        let paths: Vec<&str> = found.changes[KEY].iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/replicas"], "the label is no drift: Argo CD's apply does not own it");
        let after = sync(&desired, &live, &options(true)).actual;
        let web = after.get(KEY).unwrap();
        assert_eq!(web["spec"]["replicas"], 2);
        assert_eq!(web["metadata"]["labels"]["debug"], "true", "no cleanup hands kubectl's fields over, as Flux's does");
        assert_eq!(owners_at(web, "/spec/replicas"), ["argocd-controller"], "--force-conflicts takes the field back");
        assert_eq!(owners_at(web, "/metadata/labels/debug"), ["kubectl-edit"]);
    }

    fn a_field_git_no_longer_sets_is_drift_and_the_apply_removes_it() {
        let before = state(json!([web(2, json!({"team": "shop"}))]));
        let live = synced(&before, &options(true));
        let after = state(json!([web(2, json!({}))]));
        let found = drift(&after, &live, &options(true));
        assert_eq!(found.changes[KEY][0].path, "/metadata/annotations/team", "the structured merge of the apply removes what argocd-controller alone set");
        let synced = sync(&after, &live, &options(true)).actual;
        assert!(synced.get(KEY).unwrap()["metadata"]["annotations"].get("team").is_none());
    }

    fn an_ignored_field_keeps_its_live_value_by_the_rules_dialect_not_only_with_respect_ignore_differences() {
        let desired = state(json!([web(2, json!({"team": "shop"}))]));
        let live = state(json!([web(0, json!({}))]));
        let shorthand = Options { ignore: vec![IgnoreRule::everywhere("/spec/replicas").unwrap()], ..options(true) };
        let argo = Options { ignore: vec![IgnoreRule::from_value(&json!({"group": "apps", "kind": "Deployment", "jsonPointers": ["/spec/replicas"]})).unwrap()], ..options(true) };
        let replicas = |options: &Options| sync(&desired, &live, options).actual.get(KEY).unwrap()["spec"]["replicas"].clone();
        assert_eq!(replicas(&shorthand), 0, "the playground's shorthand always keeps the live value");
        assert_eq!(replicas(&argo), 2, "Argo CD's ignoreDifferences writes Git's value without RespectIgnoreDifferences");
        let respect = Options { respect_ignore_differences: true, ..argo };
        assert_eq!(replicas(&respect), 0);
    }
}
