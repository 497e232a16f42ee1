//! Flux's cleanup of field managers before it applies (fluxcd/pkg
//! `ssa.PatchReplaceFieldsManagers`, with the managers kustomize-controller
//! lists in `kustomization_controller.go`): what `kubectl` and
//! `before-first-apply` own becomes the controller's own Apply entry, so its
//! next apply reverts a `kubectl edit` of a field Git sets and removes a field
//! Git never had.

use super::entries::{Entry, Operation};
use super::fields::FieldSet;

/// A workflow whose fields a cleanup hands over (fluxcd/pkg `ssa.FieldManager`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldManager {
    pub name: &'static str,
    /// The name matched whole; otherwise as a prefix (`kubectl` matches `kubectl-edit`).
    pub exact: bool,
    pub operation: Operation,
}

/// The managers kustomize-controller hands to itself before each apply: `kubectl`
/// by Apply and by Update (`kubectl apply --server-side`, `kubectl edit`,
/// `kubectl label`, `kubectl apply`), `before-first-apply`, and its own name by
/// Update.
pub const FLUX_CLEANUP: [FieldManager; 4] = [
    FieldManager { name: "kubectl", exact: false, operation: Operation::Apply },
    FieldManager { name: "kubectl", exact: false, operation: Operation::Update },
    FieldManager { name: "before-first-apply", exact: false, operation: Operation::Update },
    FieldManager { name: "kustomize-controller", exact: false, operation: Operation::Update },
];

/// fluxcd/pkg `matchFieldManager`: the same operation, no subresource, and the
/// name matched whole or as a prefix.
fn matches(entry: &Entry, manager: &FieldManager) -> bool {
    entry.operation == manager.operation
        && entry.subresource.is_empty()
        && match manager.exact {
            true => entry.manager == manager.name,
            false => entry.manager.starts_with(manager.name),
        }
}

/// The entries after `PatchReplaceFieldsManagers`: each entry a listed manager
/// matches is merged into `name`'s Apply entry (the first such entry renamed
/// when `name` has none), which goes last; none when nothing matched.
pub fn replace_field_managers(entries: &[Entry], managers: &[FieldManager], name: &str) -> Option<Vec<Entry>> {
    let own = entries.iter().position(|entry| entry.manager == name && entry.operation == Operation::Apply);
    let mut merged: Option<FieldSet> = own.map(|at| entries[at].fields.clone());
    let mut kept = Vec::new();
    let mut edited = false;
    for (at, entry) in entries.iter().enumerate() {
        if Some(at) == own {
            continue;
        }
        if managers.iter().any(|manager| matches(entry, manager)) {
            merged.get_or_insert_with(FieldSet::new).extend(entry.fields.iter().cloned());
            edited = true;
        } else {
            kept.push(entry.clone());
        }
    }
    if !edited {
        return None;
    }
    kept.push(Entry::new(name, Operation::Apply, "", merged.unwrap_or_default()));
    Some(kept)
}
