//! The page's state: the scenario, the world, the panes, the report on
//! screen, and what the person did; and how it follows the world.

use crate::action::Action;
use crate::source::Source;
use crate::view::{Panel, Theme};
use crate::editor::{Editor, Pane};
use crate::preset::{MenuEntry, Preset, FIRST_PRESET};
use crate::problem::{Location, Problem};
use crate::reported::Reported;
use gitops_core::state::render::{render_value, Format};
use gitops_core::sync::plan::{has_work, Operation};
use gitops_core::text::edit::SharedText;
use gitops_core::{IgnoreRule, Report, State};
use gitops_world::agent::waves::{step_hold, Hold};
use gitops_world::attempt::Checked;
use gitops_world::cluster::comparable;
use gitops_world::scenario::Scenario;
use gitops_world::share::{Interaction, Session};
use gitops_world::World;
use std::collections::BTreeMap;
use std::ops::Range;
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// What the menu lists: from `menu.json`, then from the presets' texts.
    pub menu: Rc<Vec<MenuEntry>>,
    /// The presets whose texts are here: the built-in first one until
    /// something needs the others (`catalogue.rs`).
    pub presets: Rc<Vec<Preset>>,
    pub(crate) texts: Texts,
    /// The scenario as loaded; Reset returns to it.
    pub preset: Preset,
    pub scenario: Rc<Scenario>,
    pub world: Rc<World>,
    pub environment: String,
    pub desired: Editor,
    pub actual: Editor,
    /// The ignore rules as the person writes them (YAML or JSON).
    pub ignore_text: String,
    pub ignore_error: Option<String>,
    /// The report of the last states that read: it stays while a pane is broken.
    pub report: Option<Rc<Report>>,
    /// What the last report was made on.
    reported: Reported,
    /// Operations applied by Step since anything else changed.
    pub done: Vec<Operation>,
    /// The key of the object just changed, and a token to replay its highlight.
    pub highlight: Option<(String, u64)>,
    pub playing: bool,
    /// Milliseconds between two operations when playing.
    pub speed: u32,
    pub theme: Theme,
    pub help_open: bool,
    pub panel: Panel,
    pub notice: Option<String>,
    /// The last link or host's message that did not open.
    pub failure: Option<Failure>,
    /// Until the start is over (the presets loaded and the page's own link or
    /// saved work opened), the links and host's messages that came meanwhile.
    pub(crate) early: Option<Vec<Request>>,
    /// Why the head of Git does not read, while it does not.
    pub head_error: Option<String>,
    /// Why Git and the cluster cannot be compared: one holds named objects
    /// and the other Kubernetes objects.
    pub forms_error: Option<String>,
    /// What keeps Step from applying the plan's next operation now: its wave
    /// waits for an earlier one to be Healthy, or the sync failed (an
    /// earlier wave is Degraded, or the API server refuses the update).
    pub hold: Option<Hold>,
    /// The scenario and what the person did with it, for links and saved work.
    pub session: Session,
    /// Saved sessions by scenario (a preset's file, or `shared`), mirrored
    /// to local storage when the browser allows it.
    pub saved: Rc<BTreeMap<String, Session>>,
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
    pub progress: Rc<BTreeMap<String, Progress>>,
    /// The key of the exercise on screen in `progress`.
    pub(crate) exercise_key: String,
    pub(crate) token: u64,
    /// A text typed in a pane that the world has not taken yet.
    pub(crate) pending: Option<Interaction>,
    /// Counts keystrokes, so that a pause in typing can be noticed.
    pub(crate) keystrokes: u64,
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

/// How far a student got with one exercise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    pub solved: bool,
    /// Hints unfolded so far.
    pub hints: usize,
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
    /// Something needs them: the page fetches them (`Model::wants_presets`),
    /// then these requests run, in their order.
    Wanted(Vec<Request>),
    Loaded,
}

/// What Share shows: the link fragment of the current session, or why the
/// playground would not open a link of it (it is too large).
#[derive(Debug, Clone, PartialEq)]
pub struct Shared {
    /// None until the page has made the link (`Action::LinkMade`).
    pub fragment: Option<Result<String, String>>,
    pub title: String,
}

impl Model {
    /// The page at its start, with the work saved in this browser.
    pub fn new(
        theme: Theme,
        saved: BTreeMap<String, Session>,
        progress: BTreeMap<String, Progress>,
    ) -> Self {
        let (file, text) = FIRST_PRESET;
        let (preset, scenario) = Preset::read(file, text).expect("the built-in preset reads");
        let mut model = Model {
            menu: Rc::new(vec![MenuEntry::of(&preset)]),
            presets: Rc::new(vec![preset.clone()]),
            texts: Texts::BuiltIn,
            preset: preset.clone(),
            scenario: Rc::new(scenario.clone()),
            world: Rc::new(World::new(&scenario)),
            environment: String::new(),
            desired: Editor::default(),
            actual: Editor::default(),
            ignore_text: String::new(),
            ignore_error: None,
            report: None,
            reported: Reported::default(),
            done: Vec::new(),
            highlight: None,
            playing: false,
            speed: 700,
            theme,
            help_open: false,
            panel: Panel::Picture,
            notice: None,
            failure: None,
            early: Some(Vec::new()),
            head_error: None,
            forms_error: None,
            hold: None,
            session: Session::default(),
            saved: Rc::new(saved),
            saved_as: String::new(),
            shared: None,
            answers: Vec::new(),
            checked: None,
            progress: Rc::new(progress),
            exercise_key: String::new(),
            resumed: None,
            token: 0,
            pending: None,
            keystrokes: 0,
            undone: Vec::new(),
        };
        model.load(preset, scenario);
        model
    }

    pub(crate) fn load(&mut self, preset: Preset, scenario: Scenario) {
        self.undone.clear();
        let format = preset.format();
        self.world = Rc::new(World::new(&scenario));
        self.environment = scenario
            .environments()
            .into_iter()
            .next()
            .unwrap_or_default();
        self.ignore_text = ignore_text(&scenario.options.ignore, format);
        self.ignore_error = None;
        self.scenario = Rc::new(scenario);
        self.preset = preset;
        self.exercise_key = self.progress_key();
        // An author's text stays as written (comments, quoting) while it reads as the world's state.
        let (desired_text, actual_text) = self.scenario.author_texts(&self.environment);
        let written = |text: Option<&str>| Editor {
            format,
            text: text.map(SharedText::from).unwrap_or_default(),
            ..Editor::default()
        };
        self.desired = written(desired_text);
        self.actual = written(actual_text);
        self.report = None;
        self.playing = false;
        self.notice = None;
        self.shared = None;
        self.answers = Vec::new();
        self.checked = None;
        self.session = self.fresh_session();
        self.saved_as = self.natural_key();
        self.resumed = None;
        self.changed();
    }

    /// The Desired pane's title and hint: Git's head, or the person's pull
    /// request when their edits wait in one.
    pub fn desired_heading(&self) -> (String, &'static str) {
        let source = self.world.source_of(&self.environment);
        match self.world.open_proposal(&self.environment) {
            Some(pull) => (
                format!(
                    "Desired (your pull request #{} to {source}, not merged)",
                    pull.number
                ),
                "Git is unchanged until it is merged; editing updates the pull request",
            ),
            None => (
                format!("Desired (Git: {source})"),
                "JSON or YAML; editing commits",
            ),
        }
    }

    pub fn environments(&self) -> Vec<String> {
        self.world.clusters.keys().cloned().collect()
    }

    pub fn editor(&self, pane: Pane) -> &Editor {
        match pane {
            Pane::Desired => &self.desired,
            Pane::Actual => &self.actual,
        }
    }

    /// Whether the start is over: the presets loaded, and the page's link or
    /// saved work opened.
    pub fn start_is_over(&self) -> bool {
        self.early.is_none()
    }

    /// Whether a pane is broken, so the report on screen is older than the texts.
    /// The keystroke count while the world has not taken a typed text.
    pub fn typing(&self) -> Option<u64> {
        self.pending.as_ref().map(|_| self.keystrokes)
    }

    pub fn is_stale(&self) -> bool {
        self.desired.error.is_some() || self.actual.error.is_some()
    }

    /// Whether Step applies an operation now: the plan has one, and its wave
    /// may start.
    pub fn can_step_now(&self) -> bool {
        self.can_step() && self.hold.is_none()
    }

    /// Whether a deletion waits for the person to confirm it.
    pub fn can_confirm_prune(&self) -> bool {
        matches!(self.hold, Some(Hold::Confirm { .. }))
    }

    /// What Step waits for, in words, while it waits.
    pub fn step_hold_text(&self) -> Option<String> {
        let hold = self.hold.as_ref().filter(|_| self.can_step())?;
        Some(match hold {
            Hold::Waiting { .. } => {
                format!("Step waits: {hold}. Let time run (Next minute), or Play.")
            }
            Hold::Degraded { .. } => {
                format!("Step stops: {hold}. Fix it in Git, or in the cluster.")
            }
            Hold::Confirm { .. } => {
                format!("Step waits: {hold}.")
            }
            Hold::Refused { .. } => format!(
                "Step stops: {hold}. Put it back in Git, or mark the object to be recreated \
                 (argocd.argoproj.io/sync-options: Force=true)."
            ),
        })
    }

    /// Whether the plan has an operation to apply (and the panes read).
    pub fn can_step(&self) -> bool {
        !self.is_stale()
            && self
                .report
                .as_ref()
                .is_some_and(|report| has_work(&report.plan))
    }

    /// Where time is, as the controls say it: before minute 0, a minute of the
    /// script (each of its steps takes one), or a minute after it.
    pub fn world_position(&self) -> String {
        let (world, steps) = (&self.world, self.scenario.steps);
        if world.started && world.step > steps {
            format!("Minute {}, after the script's {steps}", world.step)
        } else if world.started {
            format!("Minute {} of {steps}", world.step)
        } else {
            format!("Before minute 0 (of {steps})")
        }
    }

    /// Whether time can move on a step.
    pub fn can_advance(&self) -> bool {
        !self.is_stale() && self.world.can_advance()
    }

    /// Whether the world's script has steps left to run.
    pub fn can_run_to_end(&self) -> bool {
        !self.is_stale() && self.world.script_left()
    }

    /// The pane that shows an object: Actual where the cluster has it, else
    /// Desired, what Git declares.
    pub fn pane_of(&self, key: &str) -> Pane {
        match self.actual.lines.contains_key(key) {
            true => Pane::Actual,
            false => Pane::Desired,
        }
    }

    /// The lines to highlight in a pane of the object a card chose or Step
    /// just changed, in the pane that shows it.
    pub fn highlighted_lines(&self, pane: Pane) -> Option<(Range<usize>, u64)> {
        let (key, token) = self.highlight.as_ref()?;
        if self.pane_of(key) != pane {
            return None;
        }
        Some((self.editor(pane).lines.get(key)?.clone(), *token))
    }

    pub(crate) fn world_mut(&mut self) -> &mut World {
        Rc::make_mut(&mut self.world)
    }

    /// After the world or the options changed: new texts and a new report.
    pub(crate) fn changed(&mut self) {
        self.done.clear();
        self.refresh();
    }

    /// The report of `actual` against `desired`; none while the two are in
    /// different forms (nothing syncs then), with why.
    pub(crate) fn report_on(&mut self, desired: &State, actual: &State) {
        match comparable(desired, actual) {
            Ok(()) => {
                self.forms_error = None;
                let options = self.world.options.reconcile();
                let workspace = &self.world.workspace;
                let report = self.reported.on(desired, actual, &options).unwrap_or_else(|| {
                    Rc::new(workspace.with(|workspace| workspace.report(desired, actual, &options)))
                });
                self.reported = Reported::keep(desired, actual, &options, &report);
                let confirmed = self
                    .world
                    .clusters
                    .get(&self.environment)
                    .map(|cluster| cluster.confirmed_prunes.clone())
                    .unwrap_or_default();
                self.hold = workspace.with(|workspace| {
                    step_hold(workspace, desired, actual, &report.plan, &options, &confirmed)
                });
                self.report = Some(report);
            }
            Err(why) => {
                self.forms_error = Some(format!("Nothing syncs: {why}."));
                self.report = None;
                self.hold = None;
            }
        }
    }

    pub(crate) fn refresh(&mut self) {
        let environment = self.environment.clone();
        let Some(cluster) = self.world.clusters.get(&environment) else {
            return;
        };
        let actual = cluster.actual().clone();
        self.actual.show(&actual);
        let proposal = self.world.proposal(&environment);
        if let Some(proposed) = &proposal {
            self.desired.show(proposed);
        }
        match self.world.desired_state(&environment) {
            Ok(desired) => {
                self.head_error = None;
                if proposal.is_none() {
                    self.desired.show(&desired);
                }
                self.report_on(&desired, &actual);
            }
            Err(error) => {
                self.head_error = Some(format!(
                    "The head of Git does not read, so the plan is the last one that did: {error}"
                ));
            }
        }
    }
}

fn ignore_text(rules: &[IgnoreRule], format: Format) -> String {
    if rules.is_empty() {
        return String::new();
    }
    render_value(&serde_json::to_value(rules).unwrap_or_default(), format)
}
