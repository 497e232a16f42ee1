//! The page's state: the scenario and its world, and the page's parts (how
//! it looks, Play, what it loads, the panes and their report, the person's
//! work); and how it follows the world.

use crate::editor::{Editor, Pane};
use crate::loading::Loading;
use crate::panes::Panes;
use crate::playback::Playback;
use crate::preset::{Preset, FIRST_PRESET};
use crate::view::{Theme, View};
use crate::by_key::ByKey;
use crate::work::{Progress, SavedSessions, Work};
use gitops_core::state::render::{render_value, Format};
use gitops_core::text::edit::SharedText;
use gitops_core::IgnoreRule;
use gitops_world::scenario::Scenario;
use gitops_world::World;
use std::ops::Range;
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// The scenario as loaded; Reset returns to it.
    pub preset: Preset,
    pub scenario: Rc<Scenario>,
    pub world: Rc<World>,
    pub environment: String,
    pub view: View,
    pub playback: Playback,
    pub loading: Loading,
    pub panes: Panes,
    pub work: Work,
}

impl Model {
    /// The page at its start, with the work saved in this browser.
    pub fn new(
        theme: Theme,
        saved: SavedSessions,
        progress: ByKey<Progress>,
    ) -> Self {
        let (file, text) = FIRST_PRESET;
        let (preset, scenario) = Preset::read(file, text).expect("the built-in preset reads");
        let mut model = Model {
            loading: Loading::new(&preset),
            preset: preset.clone(),
            scenario: Rc::new(scenario.clone()),
            world: Rc::new(World::new(&scenario)),
            environment: String::new(),
            view: View::new(theme),
            playback: Playback::default(),
            panes: Panes::default(),
            work: Work::new(saved, progress),
        };
        model.load(preset, scenario);
        model
    }

    pub(crate) fn load(&mut self, preset: Preset, scenario: Scenario) {
        self.work.undone.clear();
        let format = preset.format();
        self.world = Rc::new(World::new(&scenario));
        self.environment = scenario
            .environments()
            .into_iter()
            .next()
            .unwrap_or_default();
        self.panes.ignore_text = ignore_text(&scenario.options.ignore, format);
        self.panes.ignore_error = None;
        self.scenario = Rc::new(scenario);
        self.preset = preset;
        self.work.exercise_key = self.progress_key();
        // An author's text stays as written (comments, quoting) while it reads as the world's state.
        let (desired_text, actual_text) = self.scenario.author_texts(&self.environment);
        let written = |text: Option<&str>| Editor {
            format,
            text: text.map(SharedText::from).unwrap_or_default(),
            ..Editor::default()
        };
        self.panes.desired = written(desired_text);
        self.panes.actual = written(actual_text);
        self.panes.report = None;
        self.playback.playing = false;
        self.view.notice = None;
        self.work.shared = None;
        self.work.answers = Vec::new();
        self.work.checked = None;
        self.work.session = self.fresh_session();
        self.work.saved_as = self.natural_key();
        self.work.resumed = None;
        self.changed();
    }

    /// The Desired pane's title and hint: Git's head, the person's working
    /// copy that Git does not hold yet, or their pull request when their
    /// commits wait in one.
    pub fn desired_heading(&self) -> (String, &'static str) {
        let source = self.world.source_of(&self.environment);
        let reviewed = self.world.edits_are_reviewed(&self.environment);
        match (self.panes.uncommitted, self.world.open_proposal(&self.environment)) {
            (true, _) => (
                format!("Desired (your working copy of {source}, not committed)"),
                match (reviewed, self.panes.rendered) {
                    (true, _) => "Git is unchanged: commit to open or update your pull request",
                    (false, true) => "What your files render to; Git is unchanged until you commit (Ctrl/Cmd+S)",
                    (false, false) => "Git is unchanged until you commit (Ctrl/Cmd+S)",
                },
            ),
            (false, Some(pull)) => (
                format!(
                    "Desired (your pull request #{} to {source}, not merged)",
                    pull.number
                ),
                "Git is unchanged until it is merged; a commit updates the pull request",
            ),
            (false, None) if self.panes.rendered => (
                format!("Desired (Git: {source}, rendered)"),
                "Read only: kustomize builds it from Files in Git, below, where you edit",
            ),
            (false, None) => (
                format!("Desired (Git: {source})"),
                "JSON or YAML; edit, then commit",
            ),
        }
    }

    /// The message a commit takes when the person writes none.
    pub fn default_commit_message(&self) -> String {
        self.world.default_commit_message(&self.environment)
    }

    /// Under Flux's agent, the Kustomizations of the environment in the panes:
    /// each one's name and status, as `flux get kustomizations` shows them.
    pub fn kustomizations(&self) -> Vec<(String, gitops_world::agent::flux::Kustomization)> {
        let Some(application) = self.world.agent.as_ref().and_then(|agent| agent.applications.get(&self.environment)) else {
            return Vec::new();
        };
        application
            .kustomizations
            .iter()
            .map(|status| (format!("flux-system/{}", status.name), status.clone()))
            .collect()
    }

    pub fn environments(&self) -> Vec<String> {
        self.world.clusters.keys().cloned().collect()
    }

    /// Where time is, as the controls say it: before minute 0, a minute of the
    /// script (each of its steps takes one), or a minute after it.
    pub fn world_position(&self) -> String {
        let (world, steps) = (&self.world, self.scenario.steps);
        if world.started && world.step > steps {
            format!("Minute {} (script: 0–{steps})", world.step)
        } else if world.started {
            format!("Minute {} (of 0–{steps})", world.step)
        } else {
            format!("Next: minute 0 (of 0–{steps})")
        }
    }

    /// Whether time can move on a step.
    pub fn can_advance(&self) -> bool {
        !self.panes.is_stale() && self.world.can_advance()
    }

    /// Whether the world's script has steps left to run.
    pub fn can_run_to_end(&self) -> bool {
        !self.panes.is_stale() && self.world.script_left()
    }

    /// The lines to highlight in a pane of the object a card chose or Step
    /// just changed, in the pane that shows it.
    pub fn highlighted_lines(&self, pane: Pane) -> Option<(Range<usize>, u64)> {
        let (key, token) = self.view.highlight.as_ref()?;
        if self.panes.pane_of(key) != pane {
            return None;
        }
        Some((self.panes.editor(pane).lines.get(key)?.clone(), *token))
    }

    pub(crate) fn world_mut(&mut self) -> &mut World {
        Rc::make_mut(&mut self.world)
    }

    /// After the world or the options changed: new texts and a new report.
    pub(crate) fn changed(&mut self) {
        self.playback.done.clear();
        self.refresh();
    }

    /// The panes' texts and report, as the world now is.
    pub(crate) fn refresh(&mut self) {
        self.panes.refresh(&self.world, &self.environment);
    }
}

fn ignore_text(rules: &[IgnoreRule], format: Format) -> String {
    if rules.is_empty() {
        return String::new();
    }
    render_value(&serde_json::to_value(rules).unwrap_or_default(), format)
}
