//! A typed value (a scenario, the core's options) read from a JSON value, with
//! the pointer of what does not fit: `/script/2/do: unknown variant …`.
//!
//! It reads the JSON value the way `serde_json::from_value` does, and keeps
//! the pointer as it goes down. `serde_path_to_error` would say the same by
//! wrapping that reader, but its wrapper doubles the code of every type read
//! through it, in the page's module too; this reader writes that code once
//! (the first visit's bytes: `docs/benchmarks.md`). `serde_path_to_error` is
//! its oracle in the tests.
//!
//! One thing it refuses that `serde_json` reads: a struct written as an array
//! (whose items `serde_json` takes as the fields in order). Nobody writes a
//! scenario's objects so, and refusing it leaves every struct's reader of
//! arrays out of the page's module.

use crate::error::InputError;
use crate::pointer;
use located::Located;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub use mismatch::Mismatch;

/// `value` read as a `T`; what does not fit is a shape error of `source` at its pointer.
pub fn typed<T: DeserializeOwned>(source: &str, value: Value) -> Result<T, InputError> {
    read(value)
        .map_err(|mismatch| InputError::shape(source, mismatch.pointer(), mismatch.message()))
}

/// A JSON `text` read as a `T`, as `serde_json::from_str` reads it but by way of a
/// value that the core's reader of JSON builds (`text::json::read_last_wins`, so that
/// the page holds one reader of JSON text): one reader of each type serves every text and
/// value, where `serde_json::from_str` compiles one more for each type it reads. What
/// does not fit says where, as `/sessions/a: invalid type: ...`.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let value = crate::text::json::read_last_wins(text).map_err(|error| error.to_string())?;
    read(value).map_err(|mismatch| match mismatch.pointer() {
        "" => mismatch.message().to_string(),
        pointer => format!("{pointer}: {}", mismatch.message()),
    })
}

/// `value` read as a `T`, or where and why it does not fit.
pub fn read<T: DeserializeOwned>(value: Value) -> Result<T, Mismatch> {
    T::deserialize(Located {
        value,
        at: &Place::Root,
    })
    .map_err(|mismatch| mismatch.at(&Place::Root))
}

/// Where a value is, built on the way down and written out only for a mismatch.
enum Place<'a> {
    Root,
    Key(&'a Place<'a>, &'a str),
    Index(&'a Place<'a>, usize),
}

impl Place<'_> {
    fn pointer(&self) -> String {
        match self {
            Place::Root => String::new(),
            Place::Key(parent, key) => format!("{}/{}", parent.pointer(), pointer::escape(key)),
            Place::Index(parent, index) => format!("{}/{index}", parent.pointer()),
        }
    }
}

pub mod fields;
mod located;
mod mismatch;
