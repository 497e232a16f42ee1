//! Comparing desired with actual (gitops-engine's `pkg/diff`): what the
//! cluster writes itself is normalized away, ignore rules take fields out,
//! and what remains are field-level changes.

pub mod changes;
pub mod compare;
pub mod drift;
pub mod flux_labels;
pub(crate) mod held;
pub mod ignore;
pub mod normalize;
pub mod patch;
pub mod quantity;
pub mod ssa;
pub mod tracking;
pub mod go_types;

pub use changes::Change;
pub use drift::Drift;
pub use ignore::IgnoreRule;
