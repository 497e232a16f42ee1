//! What the page loads and what waits for it: the menu, the presets' texts,
//! the links and host's messages that came before the start was over, and
//! the last of them that did not open. How requests wait and run is
//! `catalogue.rs`.

use crate::action::Action;
use crate::preset::{MenuEntry, Preset, FIRST_PRESET};
use crate::problem::{Location, Problem};
use crate::source::Source;
use gitops_world::share::Session;
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq)]
pub struct Loading {
    /// What the menu lists: from `menu.json`, then from the presets' texts.
    pub menu: Rc<Vec<MenuEntry>>,
    /// The presets whose texts are here: the built-in first one until
    /// something needs the others (`catalogue.rs`).
    pub presets: Rc<Vec<Preset>>,
    pub(crate) texts: Texts,
    /// Until the start is over (the presets loaded and the page's own link or
    /// saved work opened), the links and host's messages that came meanwhile.
    pub(crate) early: Option<Vec<Request>>,
    /// The last link or host's message that did not open.
    pub failure: Option<Failure>,
}

/// A link or a host's message that did not open, told to the host page of an
/// embedded playground.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// Counts the failures, so that the same one twice is told twice.
    pub number: u64,
    /// `gitops:load`, or `link` for the iframe's address.
    pub request: String,
    /// What is wrong, and what is on screen instead (the scenario that was there).
    pub message: String,
    /// Where in the scenario sent, when its text or object is at fault.
    pub at: Location,
}

/// What waits: a link opened or a host's message that came before the start
/// was over (kept until it is, so that the start's own link does not replace
/// it), or what needs the presets' texts before they are here.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Request {
    Open(Session, Source),
    CannotOpen(Source, Problem),
    Resume(String, Session),
    Choose(String),
    /// A host's action, after what came before it.
    Act(Waiting),
}

/// A host's action while it waits: taken once, when its turn comes. The
/// model's copies share it (a copy of the model is a moment of it, not
/// another page), so the action needs neither `Clone` nor `PartialEq`.
#[derive(Clone)]
pub(crate) struct Waiting(Rc<RefCell<Option<Action>>>);

impl Waiting {
    pub(crate) fn new(action: Action) -> Self {
        Waiting(Rc::new(RefCell::new(Some(action))))
    }

    pub(crate) fn take(&self) -> Option<Action> {
        self.0.borrow_mut().take()
    }
}

impl PartialEq for Waiting {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Waiting {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("Waiting(a host's action)")
    }
}

/// Where the presets' texts are.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Texts {
    /// Only the built-in first preset is here, and nothing needs the others.
    #[default]
    BuiltIn,
    /// Something needs them: the page fetches them (`Loading::wants_presets`),
    /// then these requests run, in their order.
    Wanted(Vec<Request>),
    Loaded,
}

impl Loading {
    /// At the start: the built-in first preset alone, and the start not over.
    pub(crate) fn new(first: &Preset) -> Loading {
        Loading {
            menu: Rc::new(vec![MenuEntry::of(first)]),
            presets: Rc::new(vec![first.clone()]),
            texts: Texts::BuiltIn,
            early: Some(Vec::new()),
            failure: None,
        }
    }

    /// Whether the page should fetch the presets' texts: something waits for them.
    pub fn wants_presets(&self) -> bool {
        matches!(self.texts, Texts::Wanted(_))
    }

    /// Whether the presets' texts are here (else only the built-in first one is).
    pub fn presets_loaded(&self) -> bool {
        self.texts == Texts::Loaded
    }

    /// Whether the start is over: the presets loaded, and the page's link or
    /// saved work opened.
    pub fn start_is_over(&self) -> bool {
        self.early.is_none()
    }

    /// The preset of `file`, when its text is here.
    pub fn preset(&self, file: &str) -> Option<&Preset> {
        self.presets.iter().find(|preset| preset.file == file)
    }

    pub(crate) fn menu_loaded(&mut self, menu: Vec<MenuEntry>) {
        if !self.presets_loaded() && !menu.is_empty() {
            self.menu = Rc::new(menu);
        }
    }

    /// The presets' texts arrived: the menu lists them. Gives what waited for
    /// them, to run in its order.
    pub(crate) fn presets_arrived(&mut self, presets: Vec<Preset>) -> Vec<Request> {
        self.menu = Rc::new(presets.iter().map(MenuEntry::of).collect());
        self.presets = Rc::new(presets);
        match std::mem::replace(&mut self.texts, Texts::Loaded) {
            Texts::Wanted(requests) => requests,
            _ => Vec::new(),
        }
    }

    /// Keeps what did not open for the host page, counted.
    pub(crate) fn fail(&mut self, request: &str, message: String, at: Location) {
        let number = self.failure.as_ref().map_or(0, |failure| failure.number) + 1;
        self.failure = Some(Failure {
            number,
            request: request.to_string(),
            message,
            at,
        });
    }
}

impl Request {
    /// Whether it waits for the presets' texts: all but the built-in first
    /// preset's do (a scenario's text too, which may be an exercise's, known
    /// by its file; it opens anyway if the texts cannot come).
    pub(crate) fn needs_texts(&self) -> bool {
        match self {
            Request::Open(session, _) | Request::Resume(_, session) => {
                session.preset.as_deref() != Some(FIRST_PRESET.0)
            }
            Request::Choose(file) => file != FIRST_PRESET.0,
            Request::CannotOpen(..) | Request::Act(_) => false,
        }
    }
}
