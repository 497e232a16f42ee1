//! Per-object annotations that change how a prune treats an object, read
//! as the tools read them: Argo CD matches each comma-separated sync option
//! exactly (gitops-engine's `HasAnnotationOption`: `Prune=false`, not
//! `prune=false`); Flux matches its `disabled` in a label or an annotation,
//! whatever its case (`ssa.AnyInMetadata`).

use crate::state::meta::{annotation, metadata_map};
use serde_json::Value;

pub const ARGO_SYNC_OPTIONS: &str = "argocd.argoproj.io/sync-options";
pub const FLUX_PRUNE: &str = "kustomize.toolkit.fluxcd.io/prune";

fn sync_options(object: &Value) -> impl Iterator<Item = &str> {
    annotation(object, ARGO_SYNC_OPTIONS)
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
}

/// Whether one of the object's Argo CD sync options is exactly `option`.
pub(crate) fn has_sync_option(object: &Value, option: &str) -> bool {
    sync_options(object).any(|item| item == option)
}

fn flux_prune_disabled(object: &Value) -> bool {
    ["annotations", "labels"].iter().any(|field| {
        metadata_map(object, field)
            .and_then(|map| map.get(FLUX_PRUNE)?.as_str())
            .is_some_and(|value| value.eq_ignore_ascii_case("disabled"))
    })
}

/// A sync option that Argo CD does not read because of its case, such as
/// `prune=false` for `Prune=false`: what is written, and what was meant.
pub fn misspelt_sync_option(object: &Value) -> Option<(&str, &'static str)> {
    const OPTIONS: [&str; 3] = ["Prune=false", "Prune=confirm", "PruneLast=true"];
    sync_options(object).find_map(|item| {
        OPTIONS
            .into_iter()
            .find(|option| item != *option && item.eq_ignore_ascii_case(option))
            .map(|option| (item, option))
    })
}

/// Why a prune must leave this object alone, if it must.
pub fn prune_protection(object: &Value) -> Option<String> {
    if has_sync_option(object, "Prune=false") {
        Some(format!(
            "protected by the annotation {ARGO_SYNC_OPTIONS}: Prune=false"
        ))
    } else if flux_prune_disabled(object) {
        Some(format!(
            "protected by the annotation {FLUX_PRUNE}: disabled"
        ))
    } else if has_sync_option(object, "Prune=confirm") {
        Some(format!(
            "waits for a person to confirm the deletion ({ARGO_SYNC_OPTIONS}: Prune=confirm)"
        ))
    } else {
        None
    }
}

/// Whether the object is deleted only after everything else (`PruneLast=true`).
pub fn prunes_last(object: &Value) -> bool {
    has_sync_option(object, "PruneLast=true")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        assert!(
            prune_protection(&annotated(ARGO_SYNC_OPTIONS, "Prune=confirm"))
                .unwrap()
                .contains("confirm")
        );
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
