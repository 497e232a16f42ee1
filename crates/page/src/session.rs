//! Opening, remembering and sharing sessions: a scenario and what the
//! person did with it.

use crate::loading::Request;
use crate::model::Model;
use crate::preset::{Preset, FIRST_PRESET};
use crate::problem::Problem;
use crate::source::Source;
use crate::work::{Resumed, Shared};
use gitops_world::person::Interaction;
use gitops_world::scenario::Scenario;
use gitops_world::share::{LinkError, Session, MAX_EXPANDED_BYTES, MAX_LINK_CHARS};
use sha2::{Digest, Sha256};
use std::rc::Rc;

/// The start of the saved-work key of a preset's link kept apart from the
/// person's own work on that preset (`shared:mutable-tag.yaml`).
pub const SHARED_KEY: &str = "shared";

impl Model {
    /// The key a session's work is saved under when nothing says otherwise:
    /// its preset's, or the one for scenarios that are not presets.
    pub(super) fn natural_key(&self) -> String {
        key_of(&self.work.session)
    }

    /// The session of the scenario just loaded, before anything was done.
    pub(super) fn fresh_session(&self) -> Session {
        if self.loading.preset(&self.preset.file).is_some() {
            Session::of_preset(&self.preset.file)
        } else {
            Session::of_scenario(&self.preset.text)
        }
    }

    /// A link's preset on which this browser holds work of the person's own,
    /// kept aside while the link's session is open.
    pub fn own_work_kept(&self) -> Option<&Preset> {
        let file = self.work.session.preset.as_ref()?;
        if self.work.saved_as == *file || !self.work.saved.get(file).is_some_and(has_work) {
            return None;
        }
        self.loading.preset(file)
    }

    /// Opens a session from a link or a host page. It is saved under its
    /// preset, unless the person has other work of their own on that preset:
    /// then it is saved apart, and their work is kept. What does not open
    /// leaves the scenario on screen, says why, and is told to a host page.
    pub fn open(&mut self, session: Session, source: Source) {
        if let Some(early) = self
            .loading
            .early
            .as_mut()
            .filter(|_| source != Source::Start)
        {
            early.push(Request::Open(session, source));
            return;
        }
        self.when_texts_here(Request::Open(session, source));
    }

    /// Opens a session with the presets' texts as they are: a preset's must
    /// be here, a scenario's text opens without them (it is then not known as
    /// one of the playground's exercises, and its progress is kept by its hash).
    /// Work this browser saved that carries on from the session (the same
    /// link or host's message opened again, after a reload) comes back, as a
    /// preset's does when it is chosen again.
    pub(crate) fn open_now(&mut self, session: Session, source: Source) {
        let natural = key_of(&session);
        // A preset's link kept apart from the person's own work on it; a scenario's
        // work, which earlier versions kept under one key.
        let apart = match session.preset {
            Some(_) => format!("{SHARED_KEY}:{natural}"),
            None => SHARED_KEY.to_string(),
        };
        let carried_on = [&natural, &apart].into_iter().find_map(|key| {
            let saved = self.work.saved.get(key)?;
            carries_on(saved, &session).then(|| (key.clone(), saved.clone()))
        });
        if let Some((key, saved)) = carried_on {
            return self.open_resumed(key, saved, session, source);
        }
        let other_work_of_their_own = session.preset.is_some()
            && self
                .work
                .saved
                .get(&natural)
                .is_some_and(|saved| has_work(saved) && *saved != session);
        let key = match other_work_of_their_own {
            true => apart,
            false => natural,
        };
        if let Err(problem) = self.open_saved_as(key, session) {
            self.cannot_open(source, problem);
        }
    }

    /// Opens work saved under `key`, and says it came back, with a way to
    /// `start` over (the scenario's start, or the link's).
    fn open_resumed(&mut self, key: String, saved: Session, start: Session, source: Source) {
        match self.open_saved_as(key, saved) {
            Ok(()) => self.work.resumed = Some(Resumed { start }),
            Err(problem) => self.cannot_open(source, problem),
        }
    }

    /// Leaves the work that came back for the start it carried on from.
    pub(crate) fn restart(&mut self) {
        let Some(resumed) = self.work.resumed.take() else {
            return;
        };
        let key = self.work.saved_key();
        if let Err(problem) = self.open_saved_as(key, resumed.start) {
            self.view.notice = Some(format!("This scenario does not open again: {problem}"));
        }
    }

    /// Says that what `source` asked for does not open, and why (`problem`), and
    /// keeps it for the host page of an embedded playground.
    pub fn cannot_open(&mut self, source: Source, problem: Problem) {
        if let Some(early) = self
            .loading
            .early
            .as_mut()
            .filter(|_| source != Source::Start)
        {
            early.push(Request::CannotOpen(source, problem));
            return;
        }
        let message = source.notice(&problem.message);
        self.view.notice = Some(message.clone());
        if let Some(request) = source.request() {
            self.loading.fail(request, message, problem.at);
        }
    }

    /// The start is over: opens the links followed and the host's messages that
    /// came meanwhile, in their order.
    pub(super) fn start_over(&mut self) {
        let early = self.loading.early.take().unwrap_or_default();
        if !early.is_empty() {
            self.settle();
        }
        for request in early {
            self.when_texts_here(request);
        }
    }

    /// Opens the work saved last (under `key`), unless the person has started
    /// something.
    pub(crate) fn resume(&mut self, key: String, session: Session) {
        if self.work.session.interactions.is_empty() {
            self.when_texts_here(Request::Resume(key, session));
        }
    }

    /// Opens saved work with the presets' texts as they are (as `open_now`),
    /// unless the person has started something meanwhile.
    pub(crate) fn resume_now(&mut self, key: String, session: Session) {
        if !self.work.session.interactions.is_empty() {
            return;
        }
        let worked = has_work(&session);
        let start = session.started();
        match self.open_saved_as(key, session) {
            Ok(()) if worked => self.work.resumed = Some(Resumed { start }),
            Ok(()) => {}
            Err(problem) => self.cannot_open(Source::Saved, problem),
        }
    }

    /// Opens a session saved under `key`: loads its scenario and replays
    /// what was done. If it does not open, nothing changes, and the error
    /// says why.
    pub fn open_saved_as(&mut self, key: String, session: Session) -> Result<(), Problem> {
        let preset = match (&session.preset, &session.scenario) {
            (Some(file), _) => match self.loading.preset(file) {
                Some(preset) => preset.clone(),
                None => return Err(format!("this playground has no preset named {file:?}").into()),
            },
            (None, Some(text)) => match Preset::read("Shared scenario", text) {
                Ok((preset, _)) => preset,
                Err(error) => return Err(Problem::in_text("the scenario does not read", &error)),
            },
            (None, None) => return Err("it names neither a preset nor a scenario".into()),
        };
        let scenario = Scenario::parse(&preset.file, &preset.text)
            .map_err(|error| Problem::in_text("the scenario does not read", &error))?;
        self.load(preset, scenario);
        self.work.saved_as = key;
        for interaction in session.interactions {
            self.interact(interaction);
        }
        self.work.remember();
        Ok(())
    }

    /// Loads a preset, with the work saved for it if there is some, and says
    /// so; a visit that only let time run starts again from the start.
    pub fn load_remembered(&mut self, preset: Preset) {
        match self.work.saved.get(&preset.file).cloned() {
            Some(session) if has_work(&session) => {
                let start = session.started();
                self.open_resumed(preset.file.clone(), session, start, Source::Saved);
            }
            _ => self.load_fresh(preset),
        }
    }

    fn load_fresh(&mut self, preset: Preset) {
        match Scenario::parse(&preset.file, &preset.text) {
            Ok(scenario) => self.load(preset, scenario),
            Err(error) => self.view.notice = Some(format!("This scenario does not read: {error}")),
        }
    }

    /// Back to the start of this scenario; its saved work is forgotten.
    pub fn reset(&mut self) {
        let key = self.work.saved_key();
        Rc::make_mut(&mut self.work.saved).remove(&key);
        self.load_fresh(self.preset.clone());
        self.work.saved_as = key;
    }

    /// Back to the first preset; all saved work is forgotten.
    pub fn reset_all(&mut self) {
        self.work.saved = Rc::new(Default::default());
        let first = self.loading.preset(FIRST_PRESET.0).cloned();
        match first {
            Some(preset) => self.load_fresh(preset),
            None => self.load_fresh(self.preset.clone()),
        }
    }

    /// Opens Share; the page then makes the link of the current session (or says
    /// why the playground would refuse it) and hands it over with `LinkMade`.
    pub fn share(&mut self) {
        self.work.shared = Some(Shared {
            fragment: None,
            title: self.preset.title.clone(),
        });
    }
}

/// Why a session cannot be shared as a link (the playground would refuse to
/// open it, as `error` says), and what to do instead.
pub fn not_a_link(error: &LinkError) -> String {
    let why = match error {
        LinkError::TooLong(length) => format!(
            "its link would be {length} characters long, and the playground opens links of up \
             to {MAX_LINK_CHARS} characters"
        ),
        LinkError::TooLarge => format!(
            "it comes to more than {} MB, and the playground does not open links that expand \
             past that",
            MAX_EXPANDED_BYTES / (1024 * 1024)
        ),
        other => format!("the playground would not open its link ({other})"),
    };
    format!(
        "This scenario, with what was done in it, is too large to share as a link: {why}. To \
         share it, save the scenario as a file (the Desired and Actual texts) and send the \
         file, or make the states smaller and share again."
    )
}

/// A preset's work is saved under its file, a scenario's under a hash of its
/// text, so that each link's scenario keeps its own.
fn key_of(session: &Session) -> String {
    match (&session.preset, &session.scenario) {
        (Some(file), _) => file.clone(),
        (None, Some(text)) => format!("scenario-sha256:{:x}", Sha256::digest(text.as_bytes())),
        (None, None) => SHARED_KEY.to_string(),
    }
}

/// Whether the person did something in the session beyond letting time run
/// and looking at environments.
pub(crate) fn has_work(session: &Session) -> bool {
    session.interactions.iter().any(is_work)
}

fn is_work(interaction: &Interaction) -> bool {
    !matches!(interaction, Interaction::Advance | Interaction::Environment(_))
}

/// Whether `saved` is `start`'s scenario with all that was done in `start`
/// and more work after it.
fn carries_on(saved: &Session, start: &Session) -> bool {
    saved.preset == start.preset
        && saved.scenario == start.scenario
        && saved.interactions.starts_with(&start.interactions)
        && saved.interactions[start.interactions.len()..].iter().any(is_work)
}
