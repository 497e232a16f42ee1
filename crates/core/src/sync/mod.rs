//! Syncing (gitops-engine's `pkg/sync`): the ordered plan, what a create or
//! an update writes, what the API server refuses to update, and applying a
//! plan (prune protection and Flux's exclusions, read off each object, are
//! in `state::protection`).

pub mod apply;
pub mod immutable;
pub mod merge;
pub mod order;
pub mod plan;

pub use apply::{apply, carry_out, CarriedOut};
pub use plan::{has_work, plan, Operation, Plan};
