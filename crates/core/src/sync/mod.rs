//! Syncing (gitops-engine's `pkg/sync`): the ordered plan, prune
//! protection, what a create or an update writes, and applying a plan.

pub mod apply;
pub mod merge;
pub mod order;
pub mod plan;
pub mod protection;

pub use apply::apply;
pub use plan::{has_work, plan, Operation, Plan};
