//! Local storage, used carefully: a browser may block it (private modes,
//! sandboxed frames), and then the page keeps working in memory.

use gitops_world::share::{Encoder, Session};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;

const THEME_KEY: &str = "gitops-playground.theme";
const WORK_KEY: &str = "gitops-playground.work";
const WORK_VERSION: u32 = 1;

/// The most saved work kept, in characters of encoded sessions.
pub const MAX_SAVED_CHARS: usize = 1024 * 1024;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub fn get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Whether the value was stored.
pub fn set(key: &str, value: &str) -> bool {
    storage().is_some_and(|storage| storage.set_item(key, value).is_ok())
}

pub fn theme() -> Option<String> {
    get(THEME_KEY)
}

pub fn set_theme(name: &str) -> bool {
    set(THEME_KEY, name)
}

/// Saved work: sessions by scenario, each as a link fragment, and the one
/// last worked on.
#[derive(Serialize, Deserialize)]
struct Work {
    version: u32,
    last: String,
    sessions: BTreeMap<String, String>,
}

/// The saved sessions and the last one's key; nothing if there are none,
/// they are from an unknown version, or storage is blocked. A session that does
/// not decode is left out.
pub async fn load_work() -> Option<(BTreeMap<String, Session>, String)> {
    let work: Work = serde_json::from_str(&get(WORK_KEY)?).ok()?;
    if work.version != WORK_VERSION {
        return None;
    }
    let mut sessions = BTreeMap::new();
    for (key, fragment) in work.sessions {
        if let Ok(session) = crate::ui::inflate::decode_saved(&fragment).await {
            sessions.insert(key, session);
        }
    }
    Some((sessions, work.last))
}

/// Why work could not be saved.
pub enum SaveError {
    Blocked,
    TooLarge(usize),
}

/// Saving the work, a slice at a time: each session is encoded (deflated in
/// slices), then the whole is written at once. A session encoded by an earlier
/// save and not changed since is not encoded again.
pub struct Saving {
    last: String,
    encoded: BTreeMap<String, String>,
    /// The sessions still to encode.
    to_encode: Vec<(String, Session)>,
    /// The session being encoded, with its encoder.
    encoding: Option<(String, Session, Encoder)>,
}

thread_local! {
    /// What the last save wrote of each session, and the session it was.
    static WRITTEN: RefCell<BTreeMap<String, (Session, String)>> = const { RefCell::new(BTreeMap::new()) };
}

impl Saving {
    pub fn new(sessions: &BTreeMap<String, Session>, last: &str) -> Self {
        let mut encoded = BTreeMap::new();
        let mut to_encode = Vec::new();
        WRITTEN.with_borrow(|written| {
            for (key, session) in sessions {
                match written.get(key) {
                    Some((same, fragment)) if same == session => {
                        encoded.insert(key.clone(), fragment.clone());
                    }
                    _ => to_encode.push((key.clone(), session.clone())),
                }
            }
        });
        Saving {
            last: last.to_string(),
            encoded,
            to_encode,
            encoding: None,
        }
    }

    /// Encodes about `bytes` more; whether every session is encoded.
    pub fn advance(&mut self, bytes: usize) -> bool {
        if self.encoding.is_none() {
            self.encoding = self.to_encode.pop().map(|(key, session)| {
                let encoder = Encoder::new(&session);
                (key, session, encoder)
            });
        }
        let Some((_, _, encoder)) = &mut self.encoding else {
            return true;
        };
        if encoder.advance(bytes) {
            if let Some((key, session, encoder)) = self.encoding.take() {
                let fragment = encoder.finish();
                WRITTEN.with_borrow_mut(|written| {
                    written.insert(key.clone(), (session, fragment.clone()))
                });
                self.encoded.insert(key, fragment);
            }
        }
        self.encoding.is_none() && self.to_encode.is_empty()
    }

    /// Encodes what is left at once and writes the work to local storage.
    pub fn finish(mut self) -> Result<(), SaveError> {
        while !self.advance(usize::MAX) {}
        let size: usize = self.encoded.values().map(String::len).sum();
        if size > MAX_SAVED_CHARS {
            return Err(SaveError::TooLarge(size));
        }
        let work = Work {
            version: WORK_VERSION,
            last: self.last,
            sessions: self.encoded,
        };
        match serde_json::to_string(&work) {
            Ok(text) if set(WORK_KEY, &text) => Ok(()),
            _ => Err(SaveError::Blocked),
        }
    }
}

const PROGRESS_KEY: &str = "gitops-playground.progress";

/// Progress through the exercises, by file.
pub fn load_progress() -> BTreeMap<String, gitops_page::Progress> {
    get(PROGRESS_KEY)
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

pub fn save_progress(progress: &BTreeMap<String, gitops_page::Progress>) -> bool {
    serde_json::to_string(progress).is_ok_and(|text| set(PROGRESS_KEY, &text))
}
