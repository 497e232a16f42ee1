//! What the core reads from an object through a `ValueRef` is the same whether
//! the object is built (`serde_json`) or lies in a tape: for every object of
//! Argo CD's fixtures, and for generated objects whose annotations and labels
//! say what the core looks for; natively and in the browser.

mod common;

use common::generate::desired_and_actual;
use gitops_core::diff::changes::{changes, Rules};
use gitops_core::diff::compare::mode_of;
use gitops_core::diff::ignore::patterns_for;
use gitops_core::diff::normalize::last_applied;
use gitops_core::IgnoreRule;

use gitops_core::health::{has_health_check, health};
use gitops_core::image::image_fields;
use gitops_core::state::hook_annotations::{delete_policies, generate_name, helm_weight, is_hook, phases};
use gitops_core::state::kinds::{is_typed, scope};
use gitops_core::state::meta::{annotation, metadata_map};
use gitops_core::state::namespace::namespace_of;
use gitops_core::state::protection::{
    flux_releases, flux_skips_apply, misspelt_sync_option, prune_protection, prunes_last,
    requires_prune_confirmation,
};
use gitops_core::text::tape::Tape;
use gitops_core::value::ValueRef;
use gitops_core::warnings::object_warnings;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Everything the ported readers find in one object, written out.
fn read(object: ValueRef) -> String {
    let names = [
        "argocd.argoproj.io/hook",
        "helm.sh/hook",
        "helm.sh/hook-weight",
        "argocd.argoproj.io/sync-options",
        "kustomize.toolkit.fluxcd.io/prune",
    ];
    let annotations: Vec<Option<&str>> = names.iter().map(|name| annotation(object, name)).collect();
    let labels = metadata_map(object, "labels").map(ValueRef::to_value);
    let rules: Vec<IgnoreRule> = serde_json::from_value(json!([
        "/status",
        {"kind": "Deployment", "jsonPointers": ["/spec/replicas"]},
        {"group": "apps", "kind": "*", "name": "web", "jsonPointers": ["/metadata/labels"]},
        {"kind": "Pod", "namespace": "shop", "jsonPointers": ["/spec/containers"]},
        {"target": {"kind": "Secret"}, "paths": ["/data"]},
    ]))
    .unwrap();
    let ignored = patterns_for(&rules, "web", object);
    format!(
        "{:?}",
        (
            (health(object), has_health_check(object), is_hook(object)),
            (phases(object), delete_policies(object), helm_weight(object), generate_name(object)),
            (format!("{:?}", scope(object)), is_typed(object), namespace_of(object)),
            (prune_protection(object), requires_prune_confirmation(object), prunes_last(object)),
            (flux_releases(object), flux_skips_apply(object, None), flux_skips_apply(object, Some(object))),
            (misspelt_sync_option(object), annotations, labels),
            (image_fields(object, true), image_fields(object, false)),
            (object_warnings("web", object, true), object_warnings("web", object, false)),
            ignored,
        )
    )
}

fn tape(value: &Value) -> Tape {
    Tape::parse("object", serde_json::to_string(value).unwrap().into()).unwrap()
}

fn reads_alike(value: &Value) -> Result<(), TestCaseError> {
    let tape = tape(value);
    prop_assert_eq!(read(ValueRef::from(value)), read(ValueRef::from(tape.root())));
    Ok(())
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_fixture_object_reads_alike() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/argo-cd");
    let mut checked = 0;
    let mut directories = vec![root];
    while let Some(directory) = directories.pop() {
        for entry in std::fs::read_dir(&directory).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                directories.push(path);
            } else if path.extension().is_some_and(|extension| extension == "json") {
                let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let objects = match value {
                    Value::Array(items) => items,
                    other => vec![other],
                };
                for object in &objects {
                    reads_alike(object).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} objects");
}

/// Kubernetes objects and objects of the lesson's form whose metadata holds
/// what the readers look for, well and badly written.
fn objects() -> impl Strategy<Value = Value> {
    let said = prop::sample::select(vec![
        json!("PreSync"),
        json!("Skip"),
        json!("PostSync,Skip"),
        json!("pre-install, post-upgrade"),
        json!("crd-install"),
        json!("Prune=false"),
        json!("prune=false,PruneLast=true"),
        json!("Prune=confirm"),
        json!("Disabled"),
        json!("IfNotPresent"),
        json!("Ignore"),
        json!("5"),
        json!(""),
        json!(null),
        json!(3),
        json!(["x"]),
    ]);
    let names = prop::sample::select(vec![
        "argocd.argoproj.io/hook",
        "argocd.argoproj.io/hook-delete-policy",
        "helm.sh/hook",
        "helm.sh/hook-weight",
        "helm.sh/hook-delete-policy",
        "argocd.argoproj.io/sync-options",
        "kustomize.toolkit.fluxcd.io/prune",
        "kustomize.toolkit.fluxcd.io/reconcile",
        "kustomize.toolkit.fluxcd.io/ssa",
        "tier",
    ]);
    let map = prop::collection::vec((names, said), 0..4)
        .prop_map(|fields| Value::Object(fields.into_iter().map(|(name, value)| (name.to_string(), value)).collect()));
    let kinds = prop::sample::select(vec![
        ("v1", "Pod"),
        ("v1", "Namespace"),
        ("v1", "Secret"),
        ("apps/v1", "Deployment"),
        ("batch/v1", "Job"),
        ("example.com/v1", "Widget"),
        ("apps/v1/x", "Deployment"),
    ]);
    let namespace = prop::sample::select(vec![json!("shop"), json!(""), json!(null), json!(7)]);
    (kinds, map.clone(), map, namespace, any::<bool>()).prop_map(
        |((api_version, kind), annotations, labels, namespace, kubernetes)| {
            if kubernetes {
                json!({
                    "apiVersion": api_version, "kind": kind,
                    "metadata": {"name": "web", "generateName": "web-", "namespace": namespace,
                                 "annotations": annotations, "labels": labels},
                    "spec": {"containers": [{"name": "web", "image": "registry.example/web:latest"}]},
                    "data": {"password": "aHVudGVyMg=="},
                    "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
                               "containerStatuses": [{"image": "registry.example/web:1.0"}]},
                })
            } else {
                json!({"annotations": annotations, "labels": labels, "replicas": 3})
            }
        },
    )
}

gitops_testing::laws! {
    fn a_generated_object_reads_alike(object in objects()) {
        reads_alike(&object)?;
    }

    /// The field-level changes between two objects at one key, built and taped.
    fn generated_objects_change_alike((desired, actual) in desired_and_actual()) {
        let rules = Rules { mode: mode_of(&desired), ignored: &[] };
        for (key, wanted) in desired.objects() {
            let wanted = wanted.value();
            let Some(live) = actual.get(key) else { continue };
            let last = last_applied(live);
            let last = last.as_ref().map(ValueRef::from);
            let (wanted_tape, live_tape) = (tape(wanted), tape(live));
            prop_assert_eq!(
                changes(wanted, live, last, rules),
                changes(wanted_tape.root(), live_tape.root(), last, rules),
                "{}", key
            );
        }
    }
}
