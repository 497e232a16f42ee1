//! A link fragment or saved work read back into a session: its length, version
//! and base64url checked, its bytes inflated within a limit, its JSON read; each
//! way it can fail said in plain words.

use super::{check_length, LinkError, Session, LINK_VERSION, MAX_EXPANDED_BYTES, MAX_SAVED_EXPANDED_BYTES};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::{DecodeError, Engine};
use miniz_oxide::inflate::TINFLStatus;

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
