//! What the page and the API module share in the browser: JavaScript values
//! read as JSON.

// An `InputError` is large, but errors are rare and never on a hot path.
#![allow(clippy::result_large_err)]

pub mod json;

pub use json::json_of;
