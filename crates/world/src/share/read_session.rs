//! A session read from a link or saved work, field by field with `serde`
//! reading each value as its type (`gitops_core::text::typed::fields`): its
//! derived reader is 2.5 KB of the page's packed wasm. A link that does not
//! read is refused in one sentence (`LinkError::Unreadable`), so nothing is
//! lost by an error that names its field rather than its place.

use super::Session;
use gitops_core::text::typed::fields::optional;
use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use serde_json::{Map, Value};

impl<'de> Deserialize<'de> for Session {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut entries = Map::<String, Value>::deserialize(deserializer)?;
        let entries = &mut entries;
        let mut read = || {
            Ok(Session {
                preset: optional(entries, "p")?,
                scenario: optional(entries, "s")?,
                interactions: optional(entries, "i")?.unwrap_or_default(),
                commits: optional(entries, "c")?.unwrap_or_default(),
                broken_tail: false,
            })
        };
        read().map_err(|mismatch: gitops_core::text::typed::Mismatch| D::Error::custom(mismatch.message()))
    }
}
