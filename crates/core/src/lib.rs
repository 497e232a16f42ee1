//! The reconcile core: plain Rust, no web dependency, the same natively and
//! in wasm. It reads states, compares them, plans, applies and reports drift;
//! bad input comes back as an `InputError`, never a panic.
//!
//! Grouped as gitops-engine groups its packages:
//! - [`text`]: reading JSON and YAML texts, with lines, columns and caps;
//! - [`state`]: a state's objects and forms, read again cheaply after an edit;
//! - [`diff`]: comparing desired with actual (normalized, with ignore rules),
//!   and server-side apply with who owns each field (`diff::ssa`);
//! - [`sync`]: the plan, its order, what it writes, apply;
//! - [`health`]: Argo CD's health rules, by kind;
//! - [`warnings`]: the lesson's checklist;
//! - [`report`]: all of them from one comparison;
//! - [`Workspace`]: what an owner keeps between calls to work on what changed alone.

// An `InputError` is large, but errors are rare and never on a hot path.
#![allow(clippy::result_large_err)]

pub mod collect;
pub mod diff;
pub mod error;
pub mod health;
pub mod image;
mod last_reports;
mod memo;
pub mod options;
pub mod pointer;
pub mod agent;
pub mod report;
pub mod state;
pub mod sync;
pub mod text;
pub mod value;
pub mod warnings;
mod workspace;

pub use diff::{Change, Drift, IgnoreRule};
pub use memo::SMALLEST_REMEMBERED;
pub use error::{ErrorKind, InputError};
pub use health::{health, overall, Health};
pub use last_reports::ReportMade;
pub use options::Options;
pub use report::{drift, report, sync, Report, SyncRun, SyncStatus};
pub use state::{Form, State};
pub use sync::{apply, has_work, plan, Operation, Plan};
pub use warnings::Warning;
pub use workspace::Workspace;
