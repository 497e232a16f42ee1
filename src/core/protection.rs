//! Per-object annotations that change how a prune treats an object.

use super::meta::annotation;
use serde_json::Value;

pub const ARGO_SYNC_OPTIONS: &str = "argocd.argoproj.io/sync-options";
pub const FLUX_PRUNE: &str = "kustomize.toolkit.fluxcd.io/prune";

fn has_sync_option(object: &Value, option: &str) -> bool {
    annotation(object, ARGO_SYNC_OPTIONS).is_some_and(|options| {
        options
            .split(',')
            .any(|item| item.trim().eq_ignore_ascii_case(option))
    })
}

/// Why a prune must leave this object alone, if it must.
pub fn prune_protection(object: &Value) -> Option<String> {
    if has_sync_option(object, "Prune=false") {
        Some(format!(
            "protected by the annotation {ARGO_SYNC_OPTIONS}: Prune=false"
        ))
    } else if annotation(object, FLUX_PRUNE).is_some_and(|value| value.trim() == "disabled") {
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
    fn prune_last() {
        assert!(prunes_last(&annotated(ARGO_SYNC_OPTIONS, "PruneLast=true")));
        assert!(!prunes_last(&annotated(ARGO_SYNC_OPTIONS, "Prune=false")));
    }
}
