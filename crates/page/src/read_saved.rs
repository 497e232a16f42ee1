//! The menu's entries and an exercise's saved progress, formats the playground
//! writes itself, read field by field (`gitops_core::text::typed::fields`):
//! their derived readers are 1.9 KB more of the page's packed wasm.

use crate::preset::MenuEntry;
use crate::work::Progress;
use gitops_core::text::typed::fields::required;
use gitops_core::text::typed::Mismatch;
use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The fields `read` takes; others are let be, as the derived readers did, so
/// that what another build saved still reads.
fn read_fields<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    read: impl FnOnce(&mut Map<String, Value>) -> Result<T, Mismatch>,
) -> Result<T, D::Error> {
    let mut entries = Map::<String, Value>::deserialize(deserializer)?;
    read(&mut entries).map_err(|mismatch| D::Error::custom(mismatch.message()))
}

impl<'de> Deserialize<'de> for MenuEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_fields(deserializer, |entries| {
            Ok(MenuEntry { file: required(entries, "file")?, title: required(entries, "title")?, section: required(entries, "section")? })
        })
    }
}

impl<'de> Deserialize<'de> for Progress {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_fields(deserializer, |entries| {
            Ok(Progress { solved: required(entries, "solved")?, hints: required(entries, "hints")? })
        })
    }
}
