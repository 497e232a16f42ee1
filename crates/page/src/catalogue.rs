//! The presets and exercises: the menu, known from the start (`menu.json`,
//! a few hundred bytes), and their texts (`scenarios.json`), which the page
//! fetches the first time something needs them: a choice in the menu, a
//! link or saved work to open, a host page's `gitops:load`. Until then only
//! the built-in first preset is here, and what needs the others waits.

use crate::model::{Model, Request, Source, Texts};
use crate::preset::{MenuEntry, Preset, FIRST_PRESET};
use std::rc::Rc;

impl Model {
    /// Whether the page should fetch the presets' texts: something waits for them.
    pub fn wants_presets(&self) -> bool {
        matches!(self.texts, Texts::Wanted(_))
    }

    /// Whether the presets' texts are here (else only the built-in first one is).
    pub fn presets_loaded(&self) -> bool {
        self.texts == Texts::Loaded
    }

    pub(crate) fn menu_loaded(&mut self, menu: Vec<MenuEntry>) {
        if !self.presets_loaded() && !menu.is_empty() {
            self.menu = Rc::new(menu);
        }
    }

    /// Loads the preset or exercise chosen in the menu, once its text is here.
    pub(crate) fn choose(&mut self, file: String) {
        if file != FIRST_PRESET.0 && self.wait_for_presets(Request::Choose(file.clone())) {
            return;
        }
        match self
            .presets
            .iter()
            .find(|preset| preset.file == file)
            .cloned()
        {
            Some(preset) => self.load_remembered(preset),
            None => self.notice = Some(format!("This playground has no preset named {file:?}.")),
        }
    }

    /// Keeps `request` until the presets' texts are here and says the page
    /// wants them; false when they are here already, and the request can run.
    pub(crate) fn wait_for_presets(&mut self, request: Request) -> bool {
        match &mut self.texts {
            Texts::Loaded => false,
            Texts::Wanted(waiting) => {
                waiting.push(request);
                true
            }
            Texts::BuiltIn => {
                self.texts = Texts::Wanted(vec![request]);
                true
            }
        }
    }

    /// The presets' texts arrived: the menu lists them, and what waited runs.
    pub(crate) fn presets_arrived(&mut self, presets: Vec<Preset>) {
        self.menu = Rc::new(presets.iter().map(MenuEntry::of).collect());
        self.presets = Rc::new(presets);
        let waiting = std::mem::replace(&mut self.texts, Texts::Loaded);
        if let Texts::Wanted(requests) = waiting {
            requests.into_iter().for_each(|request| self.run(request));
        }
    }

    /// The presets' texts could not be fetched: a scenario's text that waited
    /// opens without them; what needed a preset says why it does not open;
    /// the next need asks again.
    pub(crate) fn presets_failed(&mut self, problem: &str) {
        let waiting = std::mem::take(&mut self.texts);
        let Texts::Wanted(requests) = waiting else {
            return;
        };
        let problem = format!("the presets could not be loaded ({problem})");
        for request in requests {
            match request {
                Request::Open(session, source) if session.preset.is_none() => {
                    self.open_now(session, source)
                }
                Request::Resume(key, session) if session.preset.is_none() => {
                    self.resume_now(key, session)
                }
                Request::Open(_, source) | Request::CannotOpen(source, _) => {
                    self.cannot_open(source, problem.clone())
                }
                Request::Resume(..) => self.cannot_open(Source::Saved, problem.clone()),
                Request::Choose(_) => {
                    self.notice = Some(format!("The scenario does not open: {problem}."))
                }
            }
        }
    }
}
