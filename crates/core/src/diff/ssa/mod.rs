//! Server-side apply: who owns each field of a live object, as the API server
//! records it in `metadata.managedFields`, and what an apply, an update and
//! Flux's cleanup of field managers do to the object and to its owners.
//!
//! It follows Kubernetes' structured-merge-diff (`merge.Updater`'s `Apply` and
//! `Update`, sigs.k8s.io/structured-merge-diff) and the API server's field
//! manager (`fieldmanager`: `stripmeta` leaves out `apiVersion`, `kind`, the
//! object's name and what the server writes; a subresource's writes are an
//! entry of their own), and fluxcd/pkg's `ssa` (`PatchReplaceFieldsManagers`).
//!
//! Where the playground is simpler: a list merges by one key field (the
//! strategic merge key of `diff::patch`; Kubernetes keys ports by port and
//! protocol), a list of scalars is owned whole rather than item by item, and
//! a custom resource's lists are owned whole, as its schema would have them
//! without `x-kubernetes-list-type: map`.

mod apply;
mod argo;
mod cleanup;
mod entries;
mod fields;
mod flux;
mod owners;
mod update;

pub use apply::{apply, Applied, Conflict, Taken, BEFORE_FIRST_APPLY};
pub use argo::{argo_applies_server_side, argo_apply, ARGOCD_CONTROLLER};
pub use cleanup::{replace_field_managers, FieldManager, FLUX_CLEANUP};
pub use entries::{managed_fields, with_managed_fields, Entry, Operation};
pub use fields::{field, field_set, from_fields_v1, is_at_or_below, item, readable, segments, to_fields_v1, FieldPath, FieldSet, Segment};
pub use flux::{flux_apply, KUSTOMIZE_CONTROLLER};
pub use owners::{field_path_of, managers, owners_at};
pub use update::update;
