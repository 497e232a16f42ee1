//! Flux's kustomize-controller as the core's agent (`Options.agent: Flux`): what
//! its forced server-side apply writes and owns, what it finds drifted (a dry run
//! compared with the live object, fluxcd/pkg `ResourceManager.ApplyAll` and
//! `hasDriftedWithIgnore`), and which live objects are its own (its owner labels).
//! Each beside what Argo CD does with the same objects.

mod common;

use common::{state, steps};
use gitops_core::diff::flux_labels::{NAMESPACE_LABEL, NAME_LABEL};
use gitops_core::diff::normalize::LAST_APPLIED;
use gitops_core::diff::tracking::TRACKING_ID;
use gitops_core::options::Agent;
use gitops_core::diff::ssa::{managed_fields, update};
use gitops_core::{drift, plan, report, sync, IgnoreRule, Options, State};
use gitops_testing::everywhere;
use serde_json::{json, Value};

const KEY: &str = "Deployment/shop/web";

fn options(agent: Agent) -> Options {
    Options { prune: true, application: Some("apps".into()), agent, ..Options::default() }
}

fn web(replicas: Option<u64>) -> Value {
    let mut object = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "registry.example/web:1.0.0"}]}}
        }
    });
    if let Some(replicas) = replicas {
        object["spec"]["replicas"] = json!(replicas);
    }
    object
}

/// The cluster after the agent synced `desired` into an empty one.
fn synced(desired: &State, agent: Agent) -> State {
    let run = sync(desired, &state(json!([])), &options(agent));
    assert!(run.converged);
    run.actual
}

/// The live object at `KEY` changed as `change` says, as an Update by `manager`.
fn changed(actual: &State, manager: &str, subresource: &str, change: impl FnOnce(&mut Value)) -> State {
    let live = actual.get(KEY).expect("the object").clone();
    let mut after = live.clone();
    change(&mut after);
    state(json!([update(Some(&live), &after, manager, subresource)]))
}

fn owners(object: &Value, field: &str) -> Vec<String> {
    let path = field.split('/').fold(String::new(), |path, name| gitops_core::diff::ssa::field(&path, name));
    managed_fields(object).into_iter().filter(|entry| entry.fields.contains(&path)).map(|entry| entry.manager).collect()
}

everywhere! {
    fn flux_labels_what_it_applies_and_records_no_tracking_id_or_last_applied_configuration() {
        let desired = state(json!([web(Some(2))]));
        let live = synced(&desired, Agent::Flux);
        let web = live.get(KEY).unwrap();
        assert_eq!(web["metadata"]["labels"][NAME_LABEL], "apps");
        assert_eq!(web["metadata"]["labels"][NAMESPACE_LABEL], "flux-system");
        assert_eq!(web["metadata"].get("annotations"), None, "neither {TRACKING_ID} nor {LAST_APPLIED}");
        assert_eq!(owners(web, "spec/replicas"), ["kustomize-controller"]);
        let argo = synced(&desired, Agent::ArgoCd);
        let annotations = argo.get(KEY).unwrap()["metadata"]["annotations"].as_object().unwrap().clone();
        assert!(annotations.contains_key(TRACKING_ID) && annotations.contains_key(LAST_APPLIED));
    }

    fn a_kubectl_edit_of_a_field_git_sets_is_drift_and_flux_takes_it_back() {
        let desired = state(json!([web(Some(2))]));
        let edited = changed(&synced(&desired, Agent::Flux), "kubectl-edit", "", |web| web["spec"]["replicas"] = json!(5));
        let found = report(&desired, &edited, &options(Agent::Flux));
        assert_eq!(found.drift.changed, [KEY]);
        assert_eq!(found.drift.changes[KEY][0].path, "/spec/replicas");
        let run = sync(&desired, &edited, &options(Agent::Flux));
        let web = run.actual.get(KEY).unwrap();
        assert_eq!(web["spec"]["replicas"], 2);
        assert_eq!(owners(web, "spec/replicas"), ["kustomize-controller"], "the cleanup made kubectl-edit's field Flux's");
    }

    fn a_label_kubectl_edit_added_is_removed_by_flux_and_kept_by_argo_cd() {
        let desired = state(json!([web(Some(2))]));
        let label = |web: &mut Value| web["metadata"]["labels"]["debug"] = json!("true");
        let flux = changed(&synced(&desired, Agent::Flux), "kubectl-edit", "", label);
        assert_eq!(drift(&desired, &flux, &options(Agent::Flux)).changed, [KEY]);
        let healed = sync(&desired, &flux, &options(Agent::Flux)).actual;
        assert_eq!(healed.get(KEY).unwrap()["metadata"]["labels"].get("debug"), None);
        // Argo CD's three-way merge keeps a field Git never set: no drift.
        let argo = changed(&synced(&desired, Agent::ArgoCd), "kubectl-edit", "", label);
        assert!(drift(&desired, &argo, &options(Agent::ArgoCd)).changed.is_empty());
    }

    fn an_annotation_kustomize_toolkit_ssa_merge_keeps_kubectl_s_fields() {
        let mut merged = web(Some(2));
        merged["metadata"]["annotations"] = json!({"kustomize.toolkit.fluxcd.io/ssa": "Merge"});
        let desired = state(json!([merged]));
        let labelled = changed(&synced(&desired, Agent::Flux), "kubectl-edit", "", |web| web["metadata"]["labels"]["debug"] = json!("true"));
        assert!(drift(&desired, &labelled, &options(Agent::Flux)).changed.is_empty(), "excluded from the cleanup");
    }

    fn argo_cd_s_last_applied_record_is_taken_away_when_flux_takes_over() {
        let desired = state(json!([web(Some(2))]));
        let argo = synced(&desired, Agent::ArgoCd);
        let found = report(&desired, &argo, &options(Agent::Flux));
        assert_eq!(found.drift.changed, [KEY], "unlabelled and carrying the record: Flux's objects differ");
        let flux = sync(&desired, &argo, &options(Agent::Flux)).actual;
        let annotations = &flux.get(KEY).unwrap()["metadata"]["annotations"];
        assert_eq!(annotations.get(LAST_APPLIED), None, "ApplyCleanupOptions.Annotations");
    }

    fn an_autoscaler_s_replicas_stay_while_git_does_not_set_them_and_are_taken_while_it_does() {
        let scale = |web: &mut Value| web["spec"]["replicas"] = json!(6);
        let without = state(json!([web(None)]));
        let scaled = changed(&synced(&without, Agent::Flux), "kube-controller-manager", "scale", scale);
        assert!(drift(&without, &scaled, &options(Agent::Flux)).is_empty(), "the autoscaler's field, which Flux does not set");
        let with = state(json!([web(Some(2))]));
        let scaled = changed(&synced(&with, Agent::Flux), "kube-controller-manager", "scale", scale);
        assert_eq!(drift(&with, &scaled, &options(Agent::Flux)).changed, [KEY]);
        let fought = sync(&with, &scaled, &options(Agent::Flux)).actual;
        let web = fought.get(KEY).unwrap();
        assert_eq!((web["spec"]["replicas"].clone(), owners(web, "spec/replicas")), (json!(2), vec!["kustomize-controller".to_string()]));
    }

    fn an_ignored_field_is_no_drift_and_keeps_its_live_value_under_flux() {
        let desired = state(json!([web(Some(2))]));
        let edited = changed(&synced(&desired, Agent::Flux), "kubectl-edit", "", |web| {
            web["spec"]["replicas"] = json!(5);
            web["metadata"]["labels"]["debug"] = json!("true");
        });
        let ignoring = Options { ignore: vec![IgnoreRule::everywhere("/spec/replicas").unwrap()], ..options(Agent::Flux) };
        let found = report(&desired, &edited, &ignoring);
        assert_eq!(found.drift.changes[KEY].iter().map(|change| change.path.as_str()).collect::<Vec<_>>(), ["/metadata/labels/debug"]);
        let after = sync(&desired, &edited, &ignoring).actual;
        assert_eq!(after.get(KEY).unwrap()["spec"]["replicas"], 5, "computeDriftedPaths: the live value adopted");
    }

    fn flux_prunes_only_what_carries_its_labels() {
        let desired = state(json!([web(Some(2))]));
        let mut live = synced(&desired, Agent::Flux).objects().values().map(|object| object.value().clone()).collect::<Vec<_>>();
        let mut old = web(Some(1));
        old["metadata"]["name"] = json!("old");
        old["metadata"]["labels"][NAME_LABEL] = json!("apps");
        old["metadata"]["labels"][NAMESPACE_LABEL] = json!("flux-system");
        let mut by_hand = web(Some(1));
        by_hand["metadata"]["name"] = json!("by-hand");
        live.extend([old, by_hand]);
        let plan = plan(&desired, &state(Value::Array(live)), &options(Agent::Flux));
        assert_eq!(steps(&plan), ["delete Deployment/shop/old"], "the unlabelled one is not Flux's");
    }

    fn flux_has_no_sync_waves_and_no_hooks_argo_cd_s_annotations_do_nothing() {
        let annotated = |kind: &str, name: &str, annotations: Value| json!({
            "apiVersion": if kind == "Job" { "batch/v1" } else { "v1" }, "kind": kind,
            "metadata": {"name": name, "namespace": "shop", "annotations": annotations},
        });
        let desired = state(json!([
            annotated("ConfigMap", "late", json!({"argocd.argoproj.io/sync-wave": "5"})),
            annotated("ConfigMap", "early", json!({"argocd.argoproj.io/sync-wave": "-1"})),
            annotated("Job", "migrate", json!({"argocd.argoproj.io/hook": "PreSync"})),
        ]));
        let empty = state(json!([]));
        let argo = plan(&desired, &empty, &options(Agent::ArgoCd));
        assert_eq!(steps(&argo), ["create ConfigMap/shop/early", "create ConfigMap/shop/late"], "the hook runs in its phase, not in the plan");
        assert_eq!(argo.iter().map(|operation| operation.wave()).collect::<Vec<_>>(), [-1, 5]);
        let flux = plan(&desired, &empty, &options(Agent::Flux));
        assert_eq!(steps(&flux), ["create ConfigMap/shop/early", "create ConfigMap/shop/late", "create Job/shop/migrate"]);
        assert!(flux.iter().all(|operation| operation.wave() == 0), "one stage, by kind then name");
    }

    fn a_forced_recreate_under_flux_writes_flux_s_object() {
        let mut moved = web(Some(2));
        moved["spec"]["selector"]["matchLabels"]["tier"] = json!("front");
        moved["spec"]["template"]["metadata"]["labels"]["tier"] = json!("front");
        let before = synced(&state(json!([web(Some(2))])), Agent::Flux);
        let forcing = Options { force: true, ..options(Agent::Flux) };
        let run = sync(&state(json!([moved])), &before, &forcing);
        assert_eq!(run.recreated.len(), 1, "a Deployment's selector is immutable: spec.force recreates it");
        let web = run.actual.get(KEY).unwrap();
        assert_eq!(web["metadata"].get("annotations"), None, "no {LAST_APPLIED}");
        assert_eq!(owners(web, "spec/replicas"), ["kustomize-controller"]);
        assert_eq!(web["metadata"]["labels"][NAME_LABEL], "apps");
    }

    fn argo_cd_s_sync_options_do_nothing_under_flux() {
        let desired = state(json!([web(Some(2))]));
        let flux_owned = |name: &str, sync_options: &str| {
            let mut object = web(Some(1));
            object["metadata"]["name"] = json!(name);
            object["metadata"]["labels"][NAME_LABEL] = json!("apps");
            object["metadata"]["labels"][NAMESPACE_LABEL] = json!("flux-system");
            object["metadata"]["annotations"] = json!({"argocd.argoproj.io/sync-options": sync_options});
            object
        };
        let mut live = synced(&desired, Agent::Flux).objects().values().map(|object| object.value().clone()).collect::<Vec<_>>();
        live.extend([flux_owned("kept", "Prune=false"), flux_owned("asked", "Prune=confirm")]);
        let plan = plan(&desired, &state(Value::Array(live)), &options(Agent::Flux));
        assert_eq!(steps(&plan), ["delete Deployment/shop/asked", "delete Deployment/shop/kept"]);
        assert!(plan.iter().all(|operation| matches!(operation, gitops_core::Operation::Delete { confirm: false, .. })));
        // Force=true,Replace=true is Argo CD's `kubectl replace --force`: under Flux an update.
        let mut replacing = web(Some(3));
        replacing["metadata"]["annotations"] = json!({"argocd.argoproj.io/sync-options": "Force=true,Replace=true"});
        let run = sync(&state(json!([replacing])), &synced(&desired, Agent::Flux), &options(Agent::Flux));
        assert!(run.recreated.is_empty());
        assert_eq!(run.actual.get(KEY).unwrap()["spec"]["replicas"], 3);
    }
}
