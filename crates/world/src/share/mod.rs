//! Share links and saved work: a scenario (a preset by its name, or a whole
//! scenario text) and what a person did since its start, replayed on
//! opening. A link is `v1.` and the session as JSON, deflated and
//! base64url-encoded, in the URL fragment (which no server ever sees).

pub use crate::person::Interaction;
use crate::person::file_typed;
pub use decode::{decode, decode_saved, decode_saved_json, read_link, read_saved, Deflated, Inflated};
pub use encode::{encode, encode_link, fragment_of, link_of, Encoder};
use serde::Serialize;
pub use sliced_json::SlicedJson;
use std::fmt;

mod decode;
mod encode;
mod read_session;
mod sliced_json;

/// The version this playground writes; every earlier one keeps opening.
pub const LINK_VERSION: u32 = 1;

/// The longest link fragment read, in characters.
pub const MAX_LINK_CHARS: usize = 512 * 1024;

/// The most a link may expand to, in bytes: a link cannot make the page
/// inflate a huge document.
pub const MAX_EXPANDED_BYTES: usize = 4 * 1024 * 1024;

/// The most a session of saved work may expand to, in bytes: the page wrote
/// it, and it holds what was typed, up to two panes of the largest document
/// the playground reads (`core::json::MAX_DOCUMENT_BYTES`).
pub const MAX_SAVED_EXPANDED_BYTES: usize =
    2 * gitops_core::text::json::MAX_DOCUMENT_BYTES + 1024 * 1024;

/// A scenario and what a person did with it (read by `read_session.rs`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Session {
    /// A preset, by its file name in `presets/`.
    #[serde(rename = "p", skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// A whole scenario, as text (JSON or YAML), when it is not a preset.
    #[serde(rename = "s", skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    #[serde(rename = "i", skip_serializing_if = "Vec::is_empty")]
    pub interactions: Vec<Interaction>,
    /// Whether a Desired text waits for a `Commit`. A session made before the
    /// person committed their own edits lacks it: each run of Desired texts
    /// there was a commit, and it reads so (`with_commits`).
    #[serde(rename = "c")]
    commits: u8,
    /// Whether the last interaction is a pane text that does not read.
    #[serde(skip)]
    broken_tail: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            preset: None,
            scenario: None,
            interactions: Vec::new(),
            commits: 1,
            broken_tail: false,
        }
    }
}

impl Session {
    /// A session made when each run of Desired texts was a commit, as the
    /// commits it made: a `Commit` with the page's message after each run.
    fn with_commits(self) -> Self {
        if self.commits > 0 {
            return self;
        }
        let mut interactions = Vec::with_capacity(self.interactions.len());
        let mut typing = false;
        for interaction in self.interactions {
            let desired = matches!(interaction, Interaction::Desired(_));
            if typing && !desired {
                interactions.push(Interaction::Commit(String::new()));
            }
            typing = desired;
            interactions.push(interaction);
        }
        if typing {
            interactions.push(Interaction::Commit(String::new()));
        }
        Session { interactions, commits: 1, ..self }
    }

    pub fn of_preset(file: &str) -> Self {
        Session {
            preset: Some(file.into()),
            ..Session::default()
        }
    }

    /// The session's scenario before anything was done in it.
    pub fn started(&self) -> Self {
        Session {
            preset: self.preset.clone(),
            scenario: self.scenario.clone(),
            ..Session::default()
        }
    }

    pub fn of_scenario(text: &str) -> Self {
        Session {
            scenario: Some(text.into()),
            ..Session::default()
        }
    }

    /// Records an interaction. Typing in a pane (or a file) is one entry per burst, as
    /// the world keeps one commit per burst: a text replaces the texts typed
    /// into the same pane just before it, except a good one followed by a
    /// broken one (the good one reached the world, so both are kept). Ignore
    /// rules typed one after another keep only the last.
    pub fn record(&mut self, interaction: Interaction, reads: bool) {
        let same_pane = |earlier: &Interaction| {
            matches!(
                (earlier, &interaction),
                (Interaction::Desired(_), Interaction::Desired(_))
                    | (Interaction::Actual(_), Interaction::Actual(_))
            ) || matches!((earlier, &interaction), (Interaction::File(earlier), Interaction::File(typed)) if file_typed(earlier).0 == file_typed(typed).0)
        };
        let is_text = matches!(
            interaction,
            Interaction::Desired(_) | Interaction::Actual(_) | Interaction::File(_)
        );
        if is_text && self.broken_tail && self.interactions.last().is_some_and(same_pane) {
            self.interactions.pop();
        }
        if is_text && reads && self.interactions.last().is_some_and(same_pane) {
            self.interactions.pop();
        }
        if matches!(interaction, Interaction::Ignore(_))
            && matches!(self.interactions.last(), Some(Interaction::Ignore(_)))
        {
            self.interactions.pop();
        }
        self.broken_tail = is_text && !reads;
        self.interactions.push(interaction);
    }
}

/// Why a link does not open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// No `v<number>.` at its start.
    NotALink,
    /// Made by a newer playground.
    NewerVersion(u32),
    TooLong(usize),
    /// Not base64url, or not deflate: damaged or cut short. It holds what is
    /// wrong in plain words (where the link stops, or which character of it
    /// cannot be in a link), not the decoder's.
    Damaged(String),
    /// Expands past `MAX_EXPANDED_BYTES`.
    TooLarge,
    /// Expands to something that is not a session. It holds the JSON reader's
    /// words, for a developer; the message does not show them.
    Unreadable(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::NotALink => write!(f, "this is not a playground link (it should start with #v1.)"),
            LinkError::NewerVersion(version) => {
                write!(f, "this link was made by a newer playground (version {version}; this one reads up to {LINK_VERSION})")
            }
            LinkError::TooLong(length) => write!(f, "this link is {length} characters long; the playground reads links up to {MAX_LINK_CHARS}"),
            LinkError::Damaged(why) => write!(f, "this link is damaged or cut short ({why}); copy the whole link again"),
            LinkError::TooLarge => write!(f, "this link expands to more than {} MB", MAX_EXPANDED_BYTES / (1024 * 1024)),
            LinkError::Unreadable(_) => write!(f, "this link opens to something that is not a playground session; ask whoever made it for a new link"),
        }
    }
}

impl std::error::Error for LinkError {}

fn check_length(fragment: &str) -> Result<(), LinkError> {
    match fragment.len() {
        length if length > MAX_LINK_CHARS => Err(LinkError::TooLong(length)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
