//! Syncing (gitops-engine's `pkg/sync`): the ordered plan, prune
//! protection, what a create or an update writes, what the API server
//! refuses to update, and applying a plan.

pub mod apply;
pub mod immutable;
pub mod merge;
pub mod order;
pub mod plan;
pub mod protection;

pub use apply::{apply, carry_out, CarriedOut};
pub use plan::{has_work, plan, Operation, Plan};
