//! What kustomize-controller's apply does to one object (fluxcd/pkg
//! `ResourceManager.ApplyAll`): `cleanupMetadata` takes the last-applied
//! annotation away and hands `kubectl`'s and `before-first-apply`'s fields to
//! the controller (`FLUX_CLEANUP`), then the object is applied with
//! `client.ForceOwnership` as `kustomize-controller`.

use super::apply::{apply, Applied};
use super::cleanup::{replace_field_managers, FLUX_CLEANUP};
use super::entries::{managed_fields, with_managed_fields};
use crate::diff::normalize::LAST_APPLIED;
use serde_json::Value;

pub const KUSTOMIZE_CONTROLLER: &str = "kustomize-controller";

/// The annotation naming objects the cleanup leaves alone, and its value.
const SSA_ANNOTATION: &str = "kustomize.toolkit.fluxcd.io/ssa";
const MERGE: &str = "Merge";

/// `config` as kustomize-controller applies it over `live` (none: a create).
pub fn flux_apply(live: Option<&Value>, config: &Value) -> Applied {
    let cleaned = live.map(|live| match excluded_from_cleanup(config) {
        true => live.clone(),
        false => cleaned(live),
    });
    match apply(cleaned.as_ref(), config, KUSTOMIZE_CONTROLLER, true) {
        Ok(applied) => applied,
        // A forced apply takes every conflict; this is never reached.
        Err(_) => Applied { object: config.clone(), taken: Vec::new(), removed: Vec::new() },
    }
}

/// `ApplyCleanupOptions.Exclusions`: `kustomize.toolkit.fluxcd.io/ssa: Merge`.
fn excluded_from_cleanup(config: &Value) -> bool {
    config
        .pointer("/metadata/annotations")
        .and_then(|annotations| annotations.get(SSA_ANNOTATION))
        .and_then(Value::as_str)
        .is_some_and(|value| value.eq_ignore_ascii_case(MERGE))
}

fn cleaned(live: &Value) -> Value {
    let mut object = live.clone();
    if let Some(annotations) = object.pointer_mut("/metadata/annotations").and_then(Value::as_object_mut) {
        annotations.remove(LAST_APPLIED);
        if annotations.is_empty() {
            if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
                metadata.remove("annotations");
            }
        }
    }
    match replace_field_managers(&managed_fields(&object), &FLUX_CLEANUP, KUSTOMIZE_CONTROLLER) {
        Some(entries) => with_managed_fields(object, &entries),
        None => object,
    }
}
