//! Syncing (gitops-engine's `pkg/sync`): the ordered plan, what a create or
//! an update writes, what the API server refuses to update, applying a
//! plan, and the hooks a sync runs in its phases (prune protection and
//! Flux's exclusions, and which objects are hooks, read off each object,
//! are in `state::protection` and `state::hook_annotations`).

pub mod apply;
mod decoding;
pub mod hook_tasks;
pub mod immutable;
pub mod merge;
pub mod order;
pub mod plan;
mod refusal;
pub mod replace;

pub use apply::{apply, carry_out, CarriedOut};
pub use plan::{has_work, plan, Operation, Plan};
