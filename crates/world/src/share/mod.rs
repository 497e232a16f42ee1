//! Share links and saved work: a scenario (a preset by its name, or a whole
//! scenario text) and what a person did since its start, replayed on
//! opening. A link is `v1.` and the session as JSON, deflated and
//! base64url-encoded, in the URL fragment (which no server ever sees).

pub use crate::person::Interaction;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::{DecodeError, Engine};
use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::deflate::core::{
    compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
};
use miniz_oxide::inflate::TINFLStatus;
use serde::{Deserialize, Serialize};
pub use sliced_json::SlicedJson;
use std::fmt;

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

/// A scenario and what a person did with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// A preset, by its file name in `presets/`.
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// A whole scenario, as text (JSON or YAML), when it is not a preset.
    #[serde(rename = "s", default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    #[serde(rename = "i", default, skip_serializing_if = "Vec::is_empty")]
    pub interactions: Vec<Interaction>,
    /// Whether a Desired text waits for a `Commit`. A session made before the
    /// person committed their own edits lacks it: each run of Desired texts
    /// there was a commit, and it reads so (`with_commits`).
    #[serde(rename = "c", default)]
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

    /// Records an interaction. Typing in a pane is one entry per burst, as
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
            )
        };
        let is_text = matches!(
            interaction,
            Interaction::Desired(_) | Interaction::Actual(_)
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

/// The link fragment of a session, without the `#`.
pub fn encode(session: &Session) -> String {
    Encoder::new(session).finish()
}

/// The link fragment of a session (without the `#`), if the playground opens
/// it; else why it does not (`TooLong` or `TooLarge`), by the limits `decode`
/// holds a link to, so that Share, an embedded page's state and
/// `gitops-sim link` never hand out a link that the playground then refuses.
pub fn encode_link(session: &Session) -> Result<String, LinkError> {
    let mut encoder = Encoder::new(session);
    while !encoder.advance(usize::MAX) {}
    link_of(&encoder.json, &encoder.deflated)
}

/// The link fragment of a session whose JSON (as `SlicedJson` writes it) is `json`
/// and deflated (raw deflate, by any deflater: the page uses the browser's) is
/// `deflated`, if the playground opens it; else why not, as `encode_link` says.
pub fn link_of(json: &[u8], deflated: &[u8]) -> Result<String, LinkError> {
    if json.len() > MAX_EXPANDED_BYTES {
        return Err(LinkError::TooLarge);
    }
    let fragment = fragment_of(deflated);
    check_length(&fragment)?;
    Ok(fragment)
}

/// The fragment that carries these deflated bytes.
pub fn fragment_of(deflated: &[u8]) -> String {
    format!("v{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(deflated))
}

/// A session of saved work written as its JSON itself, not deflated: the page writes
/// it so when it is left before the browser finished deflating. It starts with `{`,
/// which no link does.
pub fn decode_saved_json(text: &str) -> Result<Session, LinkError> {
    if text.len() > MAX_SAVED_EXPANDED_BYTES {
        return Err(LinkError::TooLarge);
    }
    read_session(text)
}

fn read_session(text: &str) -> Result<Session, LinkError> {
    let session: Session = gitops_core::text::typed::from_json(text).map_err(LinkError::Unreadable)?;
    Ok(session.with_commits())
}

fn check_length(fragment: &str) -> Result<(), LinkError> {
    match fragment.len() {
        length if length > MAX_LINK_CHARS => Err(LinkError::TooLong(length)),
        _ => Ok(()),
    }
}

/// A session's link fragment, deflated a slice at a time, so that the page can
/// save a large session (panes of thousands of objects) between keystrokes.
pub struct Encoder {
    /// The session's JSON still to write, a slice at a time, onto `json`.
    writing: Option<SlicedJson>,
    json: Vec<u8>,
    deflated_up_to: usize,
    compressor: Box<CompressorOxide>,
    deflated: Vec<u8>,
    /// Where the compressor writes before its output joins `deflated`.
    scratch: Vec<u8>,
}

const DEFLATE_LEVEL: i32 = 9;

impl Encoder {
    /// Starts on `session`: its JSON is written, then deflated, by `advance`.
    pub fn new(session: &Session) -> Self {
        let flags = create_comp_flags_from_zip_params(DEFLATE_LEVEL, 0, 0);
        Encoder {
            writing: Some(SlicedJson::new(session)),
            json: Vec::new(),
            deflated_up_to: 0,
            compressor: Box::new(CompressorOxide::new(flags)),
            deflated: Vec::new(),
            scratch: vec![0; 64 * 1024],
        }
    }

    /// Writes or deflates about `bytes` more of the session's JSON; whether it
    /// is all done.
    pub fn advance(&mut self, bytes: usize) -> bool {
        if let Some(writing) = &mut self.writing {
            if writing.write(bytes, &mut self.json) {
                self.writing = None;
            }
            return false;
        }
        let end = self
            .deflated_up_to
            .saturating_add(bytes)
            .min(self.json.len());
        let last = end == self.json.len();
        let flush = if last {
            TDEFLFlush::Finish
        } else {
            TDEFLFlush::None
        };
        let mut input = &self.json[self.deflated_up_to..end];
        loop {
            let (status, read, written) =
                compress(&mut self.compressor, input, &mut self.scratch, flush);
            self.deflated.extend_from_slice(&self.scratch[..written]);
            input = &input[read..];
            match status {
                TDEFLStatus::Done => break,
                TDEFLStatus::Okay if input.is_empty() && !last => break,
                TDEFLStatus::Okay => {}
                // The compressor refused its input, which does not happen: deflate it
                // all at once instead.
                _ => {
                    self.deflated = compress_to_vec(&self.json, DEFLATE_LEVEL as u8);
                    self.deflated_up_to = self.json.len();
                    return true;
                }
            }
        }
        self.deflated_up_to = end;
        last
    }

    /// The fragment, deflating what is left at once.
    pub fn finish(mut self) -> String {
        while !self.advance(usize::MAX) {}
        fragment_of(&self.deflated)
    }
}

/// The session of a link fragment (with or without its `#`).
pub fn decode(fragment: &str) -> Result<Session, LinkError> {
    let deflated = read_link(fragment)?;
    deflated.session(deflated.inflate())
}

/// A session of saved work, which may be larger than a link may: the panes'
/// texts are in it, however large they were.
pub fn decode_saved(fragment: &str) -> Result<Session, LinkError> {
    let deflated = read_saved(fragment)?;
    deflated.session(deflated.inflate())
}

/// A link fragment (with or without its `#`) read up to its deflated bytes: its
/// length, its version and its base64url are checked. What is left is to inflate the
/// bytes, here (`Deflated::inflate`) or by the browser's `DecompressionStream`, and to
/// hand what that came to to `Deflated::session`, which checks the rest.
pub fn read_link(fragment: &str) -> Result<Deflated, LinkError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment).trim();
    check_length(fragment)?;
    read_within(fragment, MAX_EXPANDED_BYTES)
}

/// A session of saved work read up to its deflated bytes, as `read_link` reads a link.
pub fn read_saved(fragment: &str) -> Result<Deflated, LinkError> {
    read_within(fragment, MAX_SAVED_EXPANDED_BYTES)
}

/// A link or a saved session whose base64url is read: deflated bytes, still to inflate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deflated {
    bytes: Vec<u8>,
    /// The most they may inflate to.
    limit: usize,
    /// The fragment's length in characters, to say where a link that stops part-way stops.
    characters: usize,
}

/// What inflating a link's deflated bytes came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inflated {
    /// Every byte, when there are no more than `Deflated::limit`.
    Whole(Vec<u8>),
    /// More than `Deflated::limit`: inflating stopped once past it, so that a small
    /// link cannot fill the memory.
    TooLarge,
    /// The deflated data ends before its last block does.
    CutShort,
    /// The bytes are not deflate data.
    NotDeflate,
}

impl Deflated {
    /// The deflated bytes, raw deflate (no zlib or gzip header).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The most the bytes may inflate to: an inflater stops once past it and says `TooLarge`.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Inflates the bytes, at most `limit` of them.
    pub fn inflate(&self) -> Inflated {
        match miniz_oxide::inflate::decompress_to_vec_with_limit(&self.bytes, self.limit) {
            Ok(bytes) => Inflated::Whole(bytes),
            Err(error) => match error.status {
                TINFLStatus::HasMoreOutput => Inflated::TooLarge,
                TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                    Inflated::CutShort
                }
                _ => Inflated::NotDeflate,
            },
        }
    }

    /// The session the bytes inflated to, or why there is none.
    pub fn session(&self, inflated: Inflated) -> Result<Session, LinkError> {
        let json = match inflated {
            Inflated::Whole(bytes) if bytes.len() <= self.limit => bytes,
            Inflated::Whole(_) | Inflated::TooLarge => return Err(LinkError::TooLarge),
            Inflated::CutShort => return Err(LinkError::Damaged(stops_at(self.characters))),
            Inflated::NotDeflate => return Err(LinkError::Damaged(CHANGED.into())),
        };
        // Read as text, as every other JSON of the page is, so that the page holds one JSON reader.
        let text =
            String::from_utf8(json).map_err(|error| LinkError::Unreadable(error.to_string()))?;
        read_session(&text)
    }
}

fn read_within(fragment: &str, limit: usize) -> Result<Deflated, LinkError> {
    let (version, payload) = fragment
        .strip_prefix('v')
        .and_then(|rest| rest.split_once('.'))
        .and_then(|(version, payload)| Some((version.parse::<u32>().ok()?, payload)))
        .ok_or(LinkError::NotALink)?;
    match version {
        1 => read_v1(fragment, payload, limit),
        newer if newer > LINK_VERSION => Err(LinkError::NewerVersion(newer)),
        _ => Err(LinkError::NotALink),
    }
}

/// `payload` is the end of `fragment`, after `v1.`.
fn read_v1(fragment: &str, payload: &str, limit: usize) -> Result<Deflated, LinkError> {
    let characters = fragment.chars().count();
    let bytes = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|error| {
            LinkError::Damaged(match error {
                DecodeError::InvalidByte(at, _) => {
                    let before = &fragment[..fragment.len() - payload.len()];
                    let (position, character) = character_at(payload, at);
                    format!(
                        "character {} after the #, {}, cannot be in a playground link",
                        before.chars().count() + position + 1,
                        shown(character)
                    )
                }
                DecodeError::InvalidLength(_) | DecodeError::InvalidLastSymbol(..) => {
                    stops_at(characters)
                }
                DecodeError::InvalidPadding => CHANGED.into(),
            })
        })?;
    Ok(Deflated {
        bytes,
        limit,
        characters,
    })
}

/// Where a link that stops part-way stops, counted in characters after the `#`, as a
/// person reads it.
fn stops_at(characters: usize) -> String {
    format!("it stops part-way, at character {characters} after the #")
}

/// Why a link that reads as base64url does not inflate: no place in it is known.
const CHANGED: &str = "some of its characters were changed or lost";

/// Which character of `text` (counted from 0) holds the byte at `at`, and that character.
fn character_at(text: &str, at: usize) -> (usize, char) {
    text.char_indices()
        .enumerate()
        .find(|(_, (start, character))| start + character.len_utf8() > at)
        .map_or((text.chars().count(), ' '), |(position, (_, character))| {
            (position, character)
        })
}

/// A character as a person can find it in the link.
fn shown(character: char) -> String {
    match character {
        ' ' => "a space".into(),
        // Spaces, control characters, and the zero-width ones (format characters).
        _ if character.is_whitespace()
            || character.is_control()
            || matches!(character, '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}') =>
        {
            "an invisible character".into()
        }
        _ => format!("“{character}”"),
    }
}

#[cfg(test)]
mod tests;
