//! What the page and the API module share in the browser: JavaScript values
//! read as JSON, and freeing what the core let go of once a task is over.

// An `InputError` is large, but errors are rare and never on a hot path.
#![allow(clippy::result_large_err)]

pub mod free_later;
pub mod json;

pub use free_later::free_retired_reads_when_idle;
pub use json::json_of;
