//! Local storage, used carefully: a browser may block it (private modes,
//! sandboxed frames), and then the page keeps working in memory.

use gitops_core::text::typed::from_json;
use gitops_page::{ByKey, Progress, SavedSessions};
use gitops_world::share::Session;
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
pub async fn load_work() -> Option<(SavedSessions, String)> {
    let work: Work = from_json(&get(WORK_KEY)?).ok()?;
    if work.version != WORK_VERSION {
        return None;
    }
    let mut sessions = SavedSessions::default();
    for (key, fragment) in work.sessions {
        if let Ok(session) = crate::ui::compression::decode_saved(&fragment).await {
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

/// Saving the work: each session is deflated by the browser (`encode_saved`), one
/// after the other, then the whole is written at once. A session encoded by an earlier
/// save and not changed since is not encoded again. Left before every session is
/// encoded (the page is closing), the rest are written as their JSON.
pub struct Saving {
    last: String,
    encoded: BTreeMap<String, String>,
    /// The sessions still to encode; the last one is next.
    to_encode: Vec<(String, Session)>,
}

thread_local! {
    /// What the last save wrote of each session (its key, the session, what was
    /// written): a list, as few as the scenarios a person opened, where a map of
    /// its own would bring the first visit its own copy of the B-tree's code.
    static WRITTEN: RefCell<Vec<(String, Session, String)>> = const { RefCell::new(Vec::new()) };
}

impl Saving {
    pub fn new(sessions: &SavedSessions, last: &str) -> Self {
        let mut encoded = BTreeMap::new();
        let mut to_encode = Vec::new();
        WRITTEN.with_borrow(|written| {
            // A scenario only opened, with nothing done in it, is not kept but the last.
            let kept = sessions
                .iter()
                .filter(|(key, session)| !session.interactions.is_empty() || *key == last);
            for (key, session) in kept {
                match written.iter().find(|(written_key, ..)| written_key == key) {
                    Some((_, same, fragment)) if same == session => {
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
        }
    }

    /// The next session to encode, if any is left.
    pub fn next(&self) -> Option<Session> {
        self.to_encode.last().map(|(_, session)| session.clone())
    }

    /// The next session is encoded as `fragment`.
    pub fn encoded(&mut self, fragment: String) {
        if let Some((key, session)) = self.to_encode.pop() {
            WRITTEN.with_borrow_mut(|written| {
                written.retain(|(written_key, ..)| *written_key != key);
                written.push((key.clone(), session, fragment.clone()));
            });
            self.encoded.insert(key, fragment);
        }
    }

    /// Writes the work to local storage, the sessions not encoded yet as their JSON.
    pub fn finish(mut self) -> Result<(), SaveError> {
        for (key, session) in std::mem::take(&mut self.to_encode) {
            let json = serde_json::to_string(&session).unwrap_or_default();
            self.encoded.insert(key, json);
        }
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
pub fn load_progress() -> ByKey<Progress> {
    get(PROGRESS_KEY)
        .and_then(|text| from_json(&text).ok())
        .unwrap_or_default()
}

pub fn save_progress(progress: &ByKey<Progress>) -> bool {
    serde_json::to_string(progress).is_ok_and(|text| set(PROGRESS_KEY, &text))
}
