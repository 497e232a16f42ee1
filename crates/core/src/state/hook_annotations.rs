//! Which Kubernetes objects are hooks, in which sync phases they run and
//! when they are deleted, read off their annotations as gitops-engine reads
//! them: pkg/sync/hook/hook.go (`IsHook`, `Skip`, `Types`),
//! delete_policy.go (`DeletePolicies`), pkg/sync/hook/helm/ (Helm's hooks,
//! mapped onto Argo CD's), and pkg/sync/sync_phase.go (`syncPhases`). Each
//! annotation is a comma-separated list, its items trimmed, empty ones and
//! repeats dropped (pkg/sync/resource `GetAnnotationCSVs`); an item a tool
//! does not know is left out, and names are matched exactly, letter case
//! included.

use crate::value::ValueRef;
use serde::Serialize;

pub const HOOK: &str = "argocd.argoproj.io/hook";
pub const HOOK_DELETE_POLICY: &str = "argocd.argoproj.io/hook-delete-policy";
pub const HELM_HOOK: &str = "helm.sh/hook";
pub const HELM_HOOK_DELETE_POLICY: &str = "helm.sh/hook-delete-policy";
pub const HELM_HOOK_WEIGHT: &str = "helm.sh/hook-weight";

/// A sync phase (gitops-engine's `common.SyncPhase`), in the order a sync
/// runs them (`syncPhaseOrder`); SyncFail runs only when a sync fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Phase {
    PreSync,
    Sync,
    PostSync,
    SyncFail,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::PreSync => "PreSync",
            Phase::Sync => "Sync",
            Phase::PostSync => "PostSync",
            Phase::SyncFail => "SyncFail",
        })
    }
}

/// When a hook's object is deleted (`common.HookDeletePolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum DeletePolicy {
    /// When the sync succeeds.
    HookSucceeded,
    /// When the sync fails.
    HookFailed,
    /// Before the hook is created again, when its object is still there.
    BeforeHookCreation,
}

impl std::fmt::Display for DeletePolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DeletePolicy::HookSucceeded => "HookSucceeded",
            DeletePolicy::HookFailed => "HookFailed",
            DeletePolicy::BeforeHookCreation => "BeforeHookCreation",
        })
    }
}

/// A hook type Argo CD knows (`common.NewHookType`): a phase, or Skip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HookType {
    Phase(Phase),
    Skip,
}

/// Whether a Kubernetes object is a hook (`hook.IsHook`): it has an
/// `argocd.argoproj.io/hook` annotation, whatever it says, unless it says
/// Skip alone; or, without one, a `helm.sh/hook` annotation other than
/// `crd-install` (Helm's way to mark a CustomResourceDefinition, which is
/// no hook). A hook whose annotations name no phase Argo CD knows (such as
/// PreDelete, or Helm's `test`) runs in none: gitops-engine ignores it
/// (pkg/sync/ignore `Ignore`).
pub fn is_hook<'a>(object: impl Into<ValueRef<'a>>) -> bool {
    let object = object.into();
    match annotation(object, HOOK) {
        Some(_) => !skip(object),
        None => annotation(object, HELM_HOOK).is_some_and(|hook| hook != "crd-install"),
    }
}

/// `hook.Skip`: the object's only hook type is Skip (Argo CD never applies
/// it; it is a resource, not a hook).
fn skip(object: ValueRef) -> bool {
    types(object) == [HookType::Skip]
}

/// `hook.Types`: the Argo CD hook types the annotation names; without any,
/// the Helm hooks it maps (`pre-install` and `pre-upgrade` to PreSync,
/// `post-install` and `post-upgrade` to PostSync; helm/type.go).
fn types(object: ValueRef) -> Vec<HookType> {
    let argo: Vec<HookType> = csvs(annotation(object, HOOK))
        .filter_map(|text| match text {
            "PreSync" => Some(HookType::Phase(Phase::PreSync)),
            "Sync" => Some(HookType::Phase(Phase::Sync)),
            "PostSync" => Some(HookType::Phase(Phase::PostSync)),
            "SyncFail" => Some(HookType::Phase(Phase::SyncFail)),
            "Skip" => Some(HookType::Skip),
            _ => None,
        })
        .collect();
    if !argo.is_empty() {
        return argo;
    }
    csvs(annotation(object, HELM_HOOK))
        .filter_map(|text| match text {
            "pre-install" | "pre-upgrade" => Some(HookType::Phase(Phase::PreSync)),
            "post-install" | "post-upgrade" => Some(HookType::Phase(Phase::PostSync)),
            _ => None,
        })
        .collect()
}

/// The phases a hook runs in (`syncPhases`), each once, in sync order;
/// none for an object that is not a hook.
pub fn phases<'a>(object: impl Into<ValueRef<'a>>) -> Vec<Phase> {
    let object = object.into();
    if !is_hook(object) {
        return Vec::new();
    }
    let mut phases: Vec<Phase> = types(object)
        .into_iter()
        .filter_map(|hook_type| match hook_type {
            HookType::Phase(phase) => Some(phase),
            HookType::Skip => None,
        })
        .collect();
    crate::collect::sort_by_key(&mut phases, |&phase| phase);
    phases.dedup();
    phases
}

/// When a hook's object is deleted (`hook.DeletePolicies`): the policies
/// `argocd.argoproj.io/hook-delete-policy` names, then those
/// `helm.sh/hook-delete-policy` names (`before-hook-creation`,
/// `hook-succeeded`, `hook-failed`); BeforeHookCreation when neither names
/// one.
pub fn delete_policies<'a>(object: impl Into<ValueRef<'a>>) -> Vec<DeletePolicy> {
    let object = object.into();
    let argo = csvs(annotation(object, HOOK_DELETE_POLICY)).filter_map(|text| match text {
        "HookSucceeded" => Some(DeletePolicy::HookSucceeded),
        "HookFailed" => Some(DeletePolicy::HookFailed),
        "BeforeHookCreation" => Some(DeletePolicy::BeforeHookCreation),
        _ => None,
    });
    let helm = csvs(annotation(object, HELM_HOOK_DELETE_POLICY)).filter_map(|text| match text {
        "hook-succeeded" => Some(DeletePolicy::HookSucceeded),
        "hook-failed" => Some(DeletePolicy::HookFailed),
        "before-hook-creation" => Some(DeletePolicy::BeforeHookCreation),
        _ => None,
    });
    let policies: Vec<DeletePolicy> = argo.chain(helm).collect();
    if policies.is_empty() {
        vec![DeletePolicy::BeforeHookCreation]
    } else {
        policies
    }
}

/// A Helm hook's weight (helm/weight.go `Weight`): gitops-engine's wave of
/// an object without a sync wave that reads, hook or not, and so in the
/// lesson's form too, where the sync wave is read; 0 when it does not read.
pub fn helm_weight<'a>(object: impl Into<ValueRef<'a>>) -> Option<i64> {
    crate::state::meta::annotation(object, HELM_HOOK_WEIGHT)?.parse().ok()
}

/// `metadata.generateName`, when it is a text that is not empty: the start
/// of the name the API server makes for an object created without one.
pub fn generate_name<'a>(object: impl Into<ValueRef<'a>>) -> Option<&'a str> {
    object
        .into()
        .at(&["metadata", "generateName"])
        .and_then(ValueRef::as_str)
        .filter(|prefix| !prefix.is_empty())
}

/// An annotation of a Kubernetes object, under `metadata`.
fn annotation<'a>(object: ValueRef<'a>, name: &str) -> Option<&'a str> {
    object.at(&["metadata", "annotations", name])?.as_str()
}

/// `GetAnnotationCSVs`: the items of a comma-separated list, trimmed, the
/// empty ones and repeats dropped, in their order.
fn csvs(text: Option<&str>) -> impl Iterator<Item = &str> {
    let mut seen = Vec::new();
    text.unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(move |item| {
            if item.is_empty() || seen.contains(item) {
                return false;
            }
            seen.push(*item);
            true
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn annotated(annotations: Value) -> Value {
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate", "annotations": annotations}})
    }

    #[test]
    fn is_hook_as_gitops_engine_reads_the_annotations() {
        for hook in [
            json!({HOOK: "PreSync"}),
            json!({HOOK: "Bogus"}),
            json!({HOOK: ""}),
            json!({HOOK: "Skip, PostSync"}),
            json!({HELM_HOOK: "pre-install"}),
            json!({HELM_HOOK: "test"}),
        ] {
            assert!(is_hook(&annotated(hook.clone())), "{hook}");
        }
        for resource in [
            json!({HOOK: "Skip"}),
            json!({HOOK: "Skip,Skip,Bogus"}),
            json!({HELM_HOOK: "crd-install"}),
            json!({HOOK: 3}),
            json!({}),
        ] {
            assert!(!is_hook(&annotated(resource.clone())), "{resource}");
        }
        assert!(
            !is_hook(&json!({"annotations": {HOOK: "PreSync"}})),
            "the lesson's form has no hooks"
        );
    }

    #[test]
    fn phases_as_sync_phases_has_them_helm_mapped_as_helm_type_go_maps_it() {
        let phases_of = |annotations| phases(&annotated(annotations));
        assert_eq!(
            phases_of(json!({HOOK: "PostSync, PreSync,PreSync"})),
            [Phase::PreSync, Phase::PostSync]
        );
        assert_eq!(phases_of(json!({HOOK: "Skip,SyncFail"})), [Phase::SyncFail]);
        assert_eq!(
            phases_of(json!({HOOK: "presync"})),
            [],
            "letter case counts"
        );
        assert_eq!(
            phases_of(json!({HOOK: "PreDelete"})),
            [],
            "a hook that runs in no sync phase"
        );
        assert_eq!(
            phases_of(json!({HELM_HOOK: "pre-install,post-upgrade"})),
            [Phase::PreSync, Phase::PostSync]
        );
        assert_eq!(
            phases_of(json!({HOOK: "Sync", HELM_HOOK: "pre-install"})),
            [Phase::Sync],
            "Helm's hooks are ignored beside Argo CD's"
        );
        assert_eq!(
            phases_of(json!({HOOK: "Bogus", HELM_HOOK: "pre-install"})),
            [Phase::PreSync],
            "an Argo CD annotation naming no known type leaves Helm's"
        );
        assert_eq!(phases_of(json!({HELM_HOOK: "test"})), []);
    }

    #[test]
    fn delete_policies_default_to_before_hook_creation() {
        let policies = |annotations| delete_policies(&annotated(annotations));
        assert_eq!(policies(json!({})), [DeletePolicy::BeforeHookCreation]);
        assert_eq!(
            policies(json!({HOOK_DELETE_POLICY: "Bogus"})),
            [DeletePolicy::BeforeHookCreation]
        );
        assert_eq!(
            policies(
                json!({HOOK_DELETE_POLICY: "HookSucceeded, HookFailed", HELM_HOOK_DELETE_POLICY: "before-hook-creation"})
            ),
            [
                DeletePolicy::HookSucceeded,
                DeletePolicy::HookFailed,
                DeletePolicy::BeforeHookCreation
            ]
        );
        assert_eq!(
            policies(json!({HELM_HOOK_DELETE_POLICY: "hook-succeeded"})),
            [DeletePolicy::HookSucceeded]
        );
    }

    #[test]
    fn a_helm_weight_reads_as_an_integer() {
        assert_eq!(
            helm_weight(&annotated(json!({HELM_HOOK_WEIGHT: "-5"}))),
            Some(-5)
        );
        assert_eq!(
            helm_weight(&annotated(json!({HELM_HOOK_WEIGHT: "soon"}))),
            None
        );
        assert_eq!(helm_weight(&annotated(json!({}))), None);
    }
}
