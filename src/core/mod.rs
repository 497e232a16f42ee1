//! The reconcile core: plain Rust, no web dependency, the same natively and
//! in wasm. It reads states, compares them, plans, applies and reports drift;
//! bad input comes back as an `InputError`, never a panic.

pub mod apply;
pub mod changes;
pub mod checks;
pub mod compare;
pub mod document;
pub mod drift;
pub mod error;
pub mod health;
pub mod ignore;
pub mod image;
pub mod json;
mod memo;
pub mod merge;
pub mod meta;
pub mod normalize;
pub mod options;
pub mod order;
mod pairs;
pub mod plan;
pub mod pointer;
pub mod protection;
mod reads_as;
mod recent_reads;
pub mod render;
pub mod report;
mod reread;
pub mod state;
pub mod yaml;

pub use apply::apply;
pub use changes::Change;
pub use checks::Warning;
pub use drift::{drift, Drift};
pub use error::{ErrorKind, InputError};
pub use health::{health, overall, Health};
pub use ignore::IgnoreRule;
pub use options::Options;
pub use plan::{diff, has_work, Operation, Plan};
pub use recent_reads::{free_retired_reads, retired_reads_waiting};
pub use report::{report, sync, Report, SyncRun, SyncStatus};
pub use state::{Form, State};
