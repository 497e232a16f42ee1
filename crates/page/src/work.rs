//! The person's work: the session of the scenario on screen, the sessions
//! saved in this browser, saved work that came back, the link Share made,
//! the exercise's answers, check and progress, and the moves undone.

use gitops_world::attempt::Checked;
use gitops_world::share::{Interaction, Session};
use crate::by_key::ByKey;
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq)]
pub struct Work {
    /// The scenario and what the person did with it, for links and saved work.
    pub session: Session,
    /// Saved sessions by scenario (a preset's file, or `shared`), mirrored
    /// to local storage when the browser allows it.
    pub saved: Rc<SavedSessions>,
    /// The key the current session is saved under.
    pub(crate) saved_as: String,
    /// Saved work that came back when its scenario opened again.
    pub resumed: Option<Resumed>,
    /// The link fragment and embed code, once the person asked to share.
    pub shared: Option<Shared>,
    /// The answers to the exercise's questions, by question.
    pub answers: Vec<Option<usize>>,
    /// The last check of the exercise.
    pub checked: Option<Rc<Checked>>,
    /// Progress through the exercises, by exercise (`practice.rs`): kept in
    /// local storage.
    pub progress: Rc<ByKey<Progress>>,
    /// The key of the exercise on screen in `progress`.
    pub(crate) exercise_key: String,
    /// What was done after the move the world went back to (`time.rs`), to go forward again.
    pub(crate) undone: Vec<Interaction>,
}

/// Work this browser kept that came back when its scenario was chosen again,
/// or its link or a host's message opened it again.
#[derive(Debug, Clone, PartialEq)]
pub struct Resumed {
    /// What Start over opens instead: the scenario's start, or the link's.
    pub start: Session,
}

impl Resumed {
    /// Whether Start over opens a link's session rather than the scenario's start.
    pub fn starts_from_a_link(&self) -> bool {
        !self.start.interactions.is_empty()
    }
}

/// The sessions saved in this browser, by the key each is saved under.
pub type SavedSessions = ByKey<Session>;

/// How far a student got with one exercise.
/// Read by `read_saved.rs`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Progress {
    pub solved: bool,
    /// Hints unfolded so far.
    pub hints: usize,
}

/// What Share shows: the link fragment of the current session, or why the
/// playground would not open a link of it (it is too large).
#[derive(Debug, Clone, PartialEq)]
pub struct Shared {
    /// None until the page has made the link (`WorkAction::LinkMade`).
    pub fragment: Option<Result<String, String>>,
    pub title: String,
}

/// What changes only the Share panel and the notice of saved work that came back.
pub enum WorkAction {
    /// Keeps the saved work that came back, and leaves its notice.
    KeepWork,
    /// The link Share asked for is made (by the browser's deflate), or why there is none.
    LinkMade(Result<String, String>),
    CloseShare,
}

impl Work {
    /// The work saved in this browser, before any scenario opened.
    pub(crate) fn new(
        saved: SavedSessions,
        progress: ByKey<Progress>,
    ) -> Work {
        Work {
            session: Session::default(),
            saved: Rc::new(saved),
            saved_as: String::new(),
            resumed: None,
            shared: None,
            answers: Vec::new(),
            checked: None,
            progress: Rc::new(progress),
            exercise_key: String::new(),
            undone: Vec::new(),
        }
    }

    pub(crate) fn act(&mut self, action: WorkAction) {
        match action {
            WorkAction::KeepWork => self.resumed = None,
            WorkAction::LinkMade(fragment) => {
                if let Some(shared) = self
                    .shared
                    .as_mut()
                    .filter(|shared| shared.fragment.is_none())
                {
                    shared.fragment = Some(fragment);
                }
            }
            WorkAction::CloseShare => self.shared = None,
        }
    }

    /// The key under which the current scenario's work is saved.
    pub fn saved_key(&self) -> String {
        self.saved_as.clone()
    }

    /// Keeps the current session among the saved ones.
    pub(crate) fn remember(&mut self) {
        let key = self.saved_key();
        Rc::make_mut(&mut self.saved).insert(key, self.session.clone());
    }

    /// The progress of the exercise on screen.
    pub fn exercise_progress(&self) -> Progress {
        self.progress
            .get(&self.exercise_key)
            .copied()
            .unwrap_or_default()
    }

    /// Answers `question` with `choice`; the last check is then out of date.
    pub(crate) fn answer(&mut self, question: usize, choice: usize) {
        if self.answers.len() <= question {
            self.answers.resize(question + 1, None);
        }
        self.answers[question] = Some(choice);
        self.checked = None;
    }
}
