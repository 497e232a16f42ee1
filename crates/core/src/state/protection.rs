//! Per-object annotations that change how a prune treats an object, read
//! as the tools read them: Argo CD matches each comma-separated sync option
//! exactly (gitops-engine's `HasAnnotationOption`: `Prune=false`, not
//! `prune=false`); Flux matches its `disabled` in a label or an annotation,
//! whatever its case (`ssa.AnyInMetadata`).

use crate::state::meta::{annotation, metadata_map};
use crate::value::ValueRef;

pub const ARGO_SYNC_OPTIONS: &str = "argocd.argoproj.io/sync-options";
pub const FLUX_PRUNE: &str = "kustomize.toolkit.fluxcd.io/prune";
pub const FLUX_RECONCILE: &str = "kustomize.toolkit.fluxcd.io/reconcile";
pub const FLUX_SSA: &str = "kustomize.toolkit.fluxcd.io/ssa";

pub const ARGO_COMPARE_OPTIONS: &str = "argocd.argoproj.io/compare-options";

/// The comma-separated options of the object's annotation `name`.
fn options_of<'a>(object: ValueRef<'a>, name: &str) -> impl Iterator<Item = &'a str> {
    annotation(object, name).unwrap_or_default().split(',').map(str::trim)
}

/// Whether one of the options of the object's annotation `name` is exactly
/// `option` (gitops-engine's `HasAnnotationOption`).
fn has_annotation_option(object: ValueRef<'_>, name: &str, option: &str) -> bool {
    options_of(object, name).any(|item| item == option)
}

/// Whether one of the object's Argo CD sync options is exactly `option`.
pub(crate) fn has_sync_option<'a>(object: impl Into<ValueRef<'a>>, option: &str) -> bool {
    has_annotation_option(object.into(), ARGO_SYNC_OPTIONS, option)
}

/// Whether deleting its Application leaves the object in the cluster (argo-cd
/// controller/appcontroller.go `shouldBeDeleted`): a CustomResourceDefinition,
/// an object whose sync options say `Delete=false`, one Helm keeps
/// (`helm.sh/resource-policy: keep`).
pub fn kept_when_its_application_is_deleted<'a>(object: impl Into<ValueRef<'a>>) -> bool {
    let object = object.into();
    object.get("kind").and_then(|kind| kind.as_str()) == Some("CustomResourceDefinition")
        || has_sync_option(object, "Delete=false")
        || has_annotation_option(object, "helm.sh/resource-policy", "keep")
}

/// Whether an object Git does not declare leaves its application Synced:
/// `argocd.argoproj.io/compare-options: IgnoreExtraneous` (argo-cd
/// controller/state.go: the object is OutOfSync, the application is not, so
/// automated sync does not start for it; a sync with prune still deletes it).
pub(crate) fn ignores_extraneous<'a>(object: impl Into<ValueRef<'a>>) -> bool {
    has_annotation_option(object.into(), ARGO_COMPARE_OPTIONS, "IgnoreExtraneous")
}

/// An object's annotations and labels, found once for all that Flux asks
/// of them.
#[derive(Clone, Copy)]
struct FluxMarks<'a>([Option<ValueRef<'a>>; 2]);

impl<'a> FluxMarks<'a> {
    fn of(object: ValueRef<'a>) -> Self {
        FluxMarks(["annotations", "labels"].map(|field| metadata_map(object, field)))
    }

    /// Whether a label or an annotation `name` says `value`, whatever its case
    /// (fluxcd/pkg ssa/utils/meta.go, `AnyInMetadata`).
    fn say(self, name: &str, value: &str) -> bool {
        self.0.iter().flatten().any(|map| {
            map.get(name)
                .and_then(ValueRef::as_str)
                .is_some_and(|written| written.eq_ignore_ascii_case(value))
        })
    }
}

fn flux_prune_disabled(object: ValueRef) -> bool {
    FluxMarks::of(object).say(FLUX_PRUNE, "disabled")
}

/// Why Flux leaves a live object that Git no longer declares in the cluster
/// and drops it from its inventory, if it does: its garbage collection
/// excludes `prune: disabled`, `reconcile: disabled` and `ssa: Ignore`
/// (kustomize-controller `deleteObjects`). The object is then no longer
/// the Kustomization's: settled, not waiting to be pruned.
pub fn flux_releases<'a>(object: impl Into<ValueRef<'a>>) -> Option<String> {
    let marks = FluxMarks::of(object.into());
    if marks.say(FLUX_PRUNE, "disabled") {
        Some(format!("{FLUX_PRUNE}: disabled"))
    } else if marks.say(FLUX_RECONCILE, "disabled") {
        Some(format!("{FLUX_RECONCILE}: disabled"))
    } else if marks.say(FLUX_SSA, "Ignore") {
        Some(format!("{FLUX_SSA}: Ignore"))
    } else {
        None
    }
}

/// Why Flux does not apply Git's object, if it does not: `reconcile:
/// disabled` or `ssa: Ignore` on it or on its live copy, or `ssa:
/// IfNotPresent` on it once the object exists (fluxcd/pkg ssa
/// manager_apply.go, `shouldSkipApply`).
pub fn flux_skips_apply<'a>(
    desired: impl Into<ValueRef<'a>>,
    live: Option<ValueRef<'a>>,
) -> Option<String> {
    let desired = FluxMarks::of(desired.into());
    let live = live.map(FluxMarks::of);
    let either = |name: &str, value: &str| {
        desired.say(name, value) || live.is_some_and(|live| live.say(name, value))
    };
    if either(FLUX_RECONCILE, "disabled") {
        Some(format!("not applied: {FLUX_RECONCILE}: disabled"))
    } else if either(FLUX_SSA, "Ignore") {
        Some(format!("not applied: {FLUX_SSA}: Ignore"))
    } else if live.is_some() && desired.say(FLUX_SSA, "IfNotPresent") {
        Some(format!(
            "applied only while it is absent: {FLUX_SSA}: IfNotPresent"
        ))
    } else {
        None
    }
}

/// A sync option that Argo CD does not read because of its case, such as
/// `prune=false` for `Prune=false`: what is written, and what was meant.
pub fn misspelt_sync_option<'a>(object: impl Into<ValueRef<'a>>) -> Option<(&'a str, &'static str)> {
    const OPTIONS: [&str; 3] = ["Prune=false", "Prune=confirm", "PruneLast=true"];
    options_of(object.into(), ARGO_SYNC_OPTIONS).find_map(|item| {
        OPTIONS
            .into_iter()
            .find(|option| item != *option && item.eq_ignore_ascii_case(option))
            .map(|option| (item, option))
    })
}

/// Why Argo CD's prune must leave this object alone (`Prune=false`), if it must:
/// it reads none of Flux's marks.
pub fn argo_prune_protection<'a>(object: impl Into<ValueRef<'a>>) -> Option<String> {
    has_sync_option(object, "Prune=false").then(|| format!("protected by the annotation {ARGO_SYNC_OPTIONS}: Prune=false"))
}

/// Why a prune of either tool must leave this object alone, if it must.
pub fn prune_protection<'a>(object: impl Into<ValueRef<'a>>) -> Option<String> {
    let object = object.into();
    if let Some(reason) = argo_prune_protection(object) {
        Some(reason)
    } else if flux_prune_disabled(object) {
        Some(format!(
            "protected by the annotation {FLUX_PRUNE}: disabled"
        ))
    } else {
        None
    }
}

/// Whether its deletion waits for a person to confirm it (`Prune=confirm`):
/// gitops-engine holds the sync at the wave of that prune, and so every
/// later wave, until the deletion is approved (sync_context.go,
/// `objRequiresPruneConfirmation`; Argo CD's "waiting for pruning
/// confirmation of ...").
pub fn requires_prune_confirmation<'a>(object: impl Into<ValueRef<'a>>) -> bool {
    has_sync_option(object, "Prune=confirm")
}

/// Whether the object is deleted only after everything else (`PruneLast=true`).
pub fn prunes_last<'a>(object: impl Into<ValueRef<'a>>) -> bool {
    has_sync_option(object, "PruneLast=true")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn annotated(name: &str, value: &str) -> Value {
        json!({"metadata": {"annotations": {name: value}}})
    }

    #[test]
    fn argo_cd_and_flux_annotations_protect() {
        assert!(
            prune_protection(&annotated(ARGO_SYNC_OPTIONS, "Prune=false"))
                .unwrap()
                .contains("Prune=false")
        );
        assert!(prune_protection(&annotated(
            ARGO_SYNC_OPTIONS,
            "ServerSideApply=true, Prune=false"
        ))
        .is_some());
        assert!(prune_protection(&annotated(FLUX_PRUNE, "disabled"))
            .unwrap()
            .contains("disabled"));
        assert!(prune_protection(&annotated(ARGO_SYNC_OPTIONS, "Prune=confirm")).is_none());
        assert!(requires_prune_confirmation(&annotated(
            ARGO_SYNC_OPTIONS,
            "Prune=confirm"
        )));
        assert!(prune_protection(&annotated(ARGO_SYNC_OPTIONS, "PruneLast=true")).is_none());
        assert!(
            prune_protection(&json!({"annotations": {FLUX_PRUNE: "disabled"}})).is_some(),
            "the lesson's form"
        );
        assert!(prune_protection(&json!({"metadata": {"annotations": "Prune=false"}})).is_none());
    }

    #[test]
    fn argo_cd_reads_sync_options_exactly_and_flux_in_any_case() {
        for misspelt in ["prune=false", "PRUNE=FALSE", "Prune=False"] {
            let object = annotated(ARGO_SYNC_OPTIONS, misspelt);
            assert_eq!(prune_protection(&object), None, "{misspelt}");
            assert_eq!(
                misspelt_sync_option(&object),
                Some((misspelt, "Prune=false"))
            );
        }
        assert_eq!(
            misspelt_sync_option(&annotated(ARGO_SYNC_OPTIONS, "Prune=false")),
            None
        );
        assert!(!prunes_last(&annotated(
            ARGO_SYNC_OPTIONS,
            "prunelast=true"
        )));
        assert!(prune_protection(&annotated(FLUX_PRUNE, "Disabled")).is_some());
        assert!(
            prune_protection(&json!({"metadata": {"labels": {FLUX_PRUNE: "disabled"}}})).is_some(),
            "Flux reads labels too"
        );
        assert!(prune_protection(&annotated(FLUX_PRUNE, "enabled")).is_none());
    }

    #[test]
    fn prune_last() {
        assert!(prunes_last(&annotated(ARGO_SYNC_OPTIONS, "PruneLast=true")));
        assert!(!prunes_last(&annotated(ARGO_SYNC_OPTIONS, "Prune=false")));
    }
}
