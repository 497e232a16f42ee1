//! The presets and exercises: the menu, known from the start (`menu.json`,
//! a few hundred bytes), and their texts (`scenarios.json`), which the page
//! fetches the first time something needs them: a choice in the menu, a
//! link or saved work to open, a host page's `gitops:load`. Until then only
//! the built-in first preset is here, and what needs the others waits
//! (`Loading`, in `loading.rs`).

use crate::loading::{Request, Texts};
use crate::model::Model;
use crate::preset::Preset;
use crate::problem::Problem;
use crate::source::Source;

impl Model {
    /// Loads the preset or exercise chosen in the menu, once its text is here.
    pub(crate) fn choose(&mut self, file: String) {
        self.when_texts_here(Request::Choose(file));
    }

    fn choose_now(&mut self, file: String) {
        match self.loading.preset(&file).cloned() {
            Some(preset) => self.load_remembered(preset),
            None => {
                self.view.notice = Some(format!("This playground has no preset named {file:?}."))
            }
        }
    }

    /// Runs `request` now, or, when it needs the presets' texts and they are
    /// not here, keeps it until they are and says the page wants them.
    /// Whatever waits runs first, so that requests run in their order.
    pub(crate) fn when_texts_here(&mut self, request: Request) {
        let others_wait = self.loading.wants_presets();
        if (!request.needs_texts() && !others_wait) || self.loading.presets_loaded() {
            return self.run_now(request);
        }
        match &mut self.loading.texts {
            Texts::Wanted(waiting) => waiting.push(request),
            _ => self.loading.texts = Texts::Wanted(vec![request]),
        }
    }

    fn run_now(&mut self, request: Request) {
        match request {
            Request::Open(session, source) => self.open_now(session, source),
            Request::CannotOpen(source, problem) => self.cannot_open(source, problem),
            Request::Resume(key, session) => self.resume_now(key, session),
            Request::Choose(file) => self.choose_now(file),
            Request::Act(waiting) => {
                if let Some(action) = waiting.take() {
                    self.act(action)
                }
            }
        }
    }

    /// Runs a host's `request` once the start is over and what it asked
    /// before has run.
    pub(crate) fn when_ready(&mut self, request: Request) {
        match self.loading.early.as_mut() {
            Some(early) => early.push(request),
            None => self.when_texts_here(request),
        }
    }

    /// The presets' texts arrived: the menu lists them, and what waited runs.
    pub(crate) fn presets_arrived(&mut self, presets: Vec<Preset>) {
        for request in self.loading.presets_arrived(presets) {
            self.run_now(request);
        }
    }

    /// The presets' texts could not be fetched: a scenario's text that waited
    /// opens without them; what needed a preset says why it does not open;
    /// the next need asks again.
    pub(crate) fn presets_failed(&mut self, problem: &str) {
        let waiting = std::mem::take(&mut self.loading.texts);
        let Texts::Wanted(requests) = waiting else {
            return;
        };
        let problem = Problem::from(format!("the presets could not be loaded ({problem})"));
        for request in requests {
            match request {
                Request::Open(ref session, _) | Request::Resume(_, ref session)
                    if session.preset.is_none() =>
                {
                    self.run_now(request)
                }
                Request::Act(_) => self.run_now(request),
                Request::Open(_, source) | Request::CannotOpen(source, _) => {
                    self.cannot_open(source, problem.clone())
                }
                Request::Resume(..) => self.cannot_open(Source::Saved, problem.clone()),
                Request::Choose(_) => {
                    self.view.notice = Some(format!("The scenario does not open: {problem}."))
                }
            }
        }
    }
}
