//! Reading texts: JSON and YAML documents with line and column in every
//! error, duplicate keys refused, nesting and size capped.

pub mod bytes;
pub mod document;
pub mod edit;
pub mod json;
pub mod lines;
pub mod names;
pub mod stream;
#[cfg(feature = "tapes")]
pub mod tape;
pub mod typed;
pub mod yaml;
