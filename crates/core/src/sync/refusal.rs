//! What the API server says when it refuses a write: an update it will not make
//! in place (`sync::immutable`), an object it cannot decode (`sync::decoding`).

use serde::Serialize;

/// A write the API server refuses, and what it says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub key: String,
    /// `Deployment.apps "web" is invalid: spec.selector: Invalid value: ...: field is immutable`.
    pub message: String,
}
