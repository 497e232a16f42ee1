//! A session read from a link or saved work, field by field with `serde`
//! reading each value as its type (`gitops_core::text::typed::fields`): its
//! derived reader is 2.5 KB of the page's packed wasm. A link that does not
//! read is refused in one sentence (`LinkError::Unreadable`), so nothing is
//! lost by an error that names its field rather than its place.

use super::Session;
use gitops_core::text::typed::fields::{optional, read_object};
use serde::de::Deserializer;
use serde::Deserialize;

impl<'de> Deserialize<'de> for Session {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_object(deserializer, |entries| {
            Ok(Session {
                preset: optional(entries, "p")?,
                scenario: optional(entries, "s")?,
                interactions: optional(entries, "i")?.unwrap_or_default(),
                commits: optional(entries, "c")?.unwrap_or_default(),
                broken_tail: false,
            })
        })
    }
}
