//! A workspace: what the core remembers from one call to the next, held by its
//! owner and freed when its owner drops it (the page's world, the CLI's; the
//! API's functions are pure and keep nothing). Every function of the core is
//! pure; a workspace's methods give what those functions give, working on
//! what changed since the last call alone:
//! - its reads (`state/recent_reads.rs`): the last few large texts with what
//!   they read as, so that a text read a moment ago is not read again and an
//!   edit inside one object reads that object again alone;
//! - its files (`state/file_reads.rs`): what each file of a repository read
//!   as, by its path and content, so that a file is read once however often
//!   its directory is rendered;
//! - its memos (`memo.rs`): what the last large reports found for each object,
//!   by the object's address, which a reread shares with the state it was made
//!   from for every object the edit did not touch;
//! - its last reports (`last_reports`, with the `patched-reports` feature):
//!   each with the states and options it was made on, so that a report on
//!   states that changed in a few objects patches one where they changed.

use crate::error::InputError;
use crate::health::{health, Health};
use crate::last_reports::{LastReports, ReportMade};
use crate::options::Options;
use crate::report::{report_in, Found, Report};
use crate::state::file_reads::FileReads;
use crate::state::recent_reads::{RecentReads, Text, SHORTEST_KEPT};
use crate::state::{Key, Object, State};
use crate::sync::hook_tasks::{resources_before_in, Places};
use crate::text::edit::{SharedText, TypedText};
use serde_json::Value;
use std::sync::Arc;

/// What the core remembers between calls; see the module's documentation.
#[derive(Default)]
pub struct Workspace {
    pub(crate) reads: RecentReads,
    pub(crate) files: FileReads,
    found: Found,
    last_reports: LastReports,
    places: Places,
}

impl Workspace {
    pub fn new() -> Self {
        Workspace::default()
    }

    /// What `State::read` gives: a text read a moment ago is not read
    /// again, and one with a small edit inside one object reads only that
    /// object again.
    pub fn read(&mut self, source: &str, text: &str) -> Result<State, InputError> {
        self.reads.read(source, Text::Borrowed(text), None)
    }

    /// `read`, keeping the text as the caller shares it rather than a copy.
    pub fn read_shared(&mut self, source: &str, text: &SharedText) -> Result<State, InputError> {
        self.reads.read(source, Text::Shared(text), None)
    }

    /// `read_shared` of a text typed in an editor: where the editor says which
    /// range of a kept text the keystroke replaced, the two texts are compared
    /// only near it.
    pub fn read_typed(&mut self, source: &str, typed: &TypedText) -> Result<State, InputError> {
        self.reads.read(source, Text::Shared(&typed.text), typed.edit.as_ref())
    }

    /// What the file at `path` of a repository reads as: a text as `read`
    /// reads it, a value as `State::from_value`. A file of the same path and
    /// content read before is recalled, not read again.
    pub fn read_file(&mut self, path: &str, content: &Value) -> Result<State, InputError> {
        match content {
            Value::String(text) if text.len() >= SHORTEST_KEPT => self.read(path, text),
            Value::String(text) => self.files.read(path, content, || State::read(path, text)),
            value => self.files.read(path, content, || State::from_value(path, value.clone())),
        }
    }

    /// How many texts this workspace has read, whole or in part, rather than
    /// recalled from a read a moment ago: what each text read once means.
    pub fn texts_read(&self) -> usize {
        self.reads.texts_read() + self.files.texts_read()
    }

    /// How many files `read_file` has read rather than recalled, values and
    /// texts under 32 KB (a larger text counts in `texts_read`, as `read`'s do):
    /// one for each path and content.
    pub fn files_read(&self) -> usize {
        self.files.files_read()
    }

    /// What `report` gives: a recent report patched where the states changed
    /// in a few objects (with the `patched-reports` feature), else a report that
    /// looks again only at the objects no recent report looked at.
    pub fn report(&mut self, desired: &State, actual: &State, options: &Options) -> Report {
        match cfg!(feature = "patched-reports") {
            true => {
                self.last_reports
                    .report(&mut self.found, &self.reads, desired, actual, options)
            }
            false => report_in(&mut self.found, desired, actual, options).report,
        }
    }

    /// How the last `report` was made: afresh, or patched from a recent one.
    pub fn last_report_made(&self) -> ReportMade {
        self.last_reports.made()
    }

    /// What `sync::hook_tasks::resources_before` gives, reading again only the
    /// annotations of objects no recent look read.
    pub fn resources_before<'s>(&mut self, desired: &'s State, before: i64) -> Vec<(&'s Key, &'s Arc<Object>)> {
        resources_before_in(&mut self.places, desired, before)
    }

    /// The health of the live object at `key`: as the last reports found it when
    /// one looked at this very object, else worked out now.
    pub fn health(&self, key: &str, live: &Arc<Object>) -> Option<Health> {
        self.found
            .healths
            .recall(key, [None, Some(live)])
            .unwrap_or_else(|| health(live))
    }
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Workspace")
    }
}
