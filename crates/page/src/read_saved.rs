//! The menu's entries and an exercise's saved progress, formats the playground
//! writes itself, read field by field (`gitops_core::text::typed::fields`):
//! their derived readers are 1.9 KB more of the page's packed wasm. Fields
//! they do not name are let be, as the derived readers did, so that what
//! another build saved still reads.

use crate::preset::MenuEntry;
use crate::work::Progress;
use gitops_core::text::typed::fields::{read_object, required};
use serde::de::Deserializer;
use serde::Deserialize;

impl<'de> Deserialize<'de> for MenuEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_object(deserializer, |entries| {
            Ok(MenuEntry { file: required(entries, "file")?, title: required(entries, "title")?, section: required(entries, "section")? })
        })
    }
}

impl<'de> Deserialize<'de> for Progress {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_object(deserializer, |entries| {
            Ok(Progress { solved: required(entries, "solved")?, hints: required(entries, "hints")? })
        })
    }
}
