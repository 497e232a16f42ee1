//! The work on screen: the two panes' texts (`Editor`), the ignore rules as
//! written, the report of what the panes say and what holds Step, and the
//! text typed last that the world has not taken yet.

use crate::editor::{Editor, Pane};
use crate::reported::Reported;
use gitops_core::state::render::Format;
use gitops_core::sync::plan::has_work;
use gitops_core::text::edit::TypedText;
use gitops_core::{Report, State};
use gitops_world::agent::waves::{step_hold, Hold};
use gitops_world::cluster::comparable;
use gitops_world::share::Interaction;
use gitops_world::World;
use std::rc::Rc;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Panes {
    pub desired: Editor,
    pub actual: Editor,
    /// The ignore rules as the person writes them (YAML or JSON).
    pub ignore_text: String,
    pub ignore_error: Option<String>,
    /// The report of the last states that read: it stays while a pane is broken.
    pub report: Option<Rc<Report>>,
    /// What the last report was made on.
    reported: Reported,
    /// Why the head of Git does not read, while it does not.
    pub head_error: Option<String>,
    /// Why Git and the cluster cannot be compared: one holds named objects
    /// and the other Kubernetes objects.
    pub forms_error: Option<String>,
    /// What keeps Step from applying the plan's next operation now: its wave
    /// waits for an earlier one to be Healthy, or the sync failed (an
    /// earlier wave is Degraded, or the API server refuses the update).
    pub hold: Option<Hold>,
    /// A text typed in a pane that the world has not taken yet.
    pub(crate) pending: Option<Interaction>,
    /// Whether the Desired pane holds a working copy that Git does not:
    /// the plan previews it, and Step waits for its commit.
    pub uncommitted: bool,
    /// Why the working copy of Git's files does not render, while it does not
    /// (the Desired pane shows the head's render then, and nothing commits).
    pub files_error: Option<String>,
    /// Whether the Desired pane shows a render of files the person edits
    /// there no more: the working copy is in Git's files, or a kustomization
    /// builds the environment (an edit of its render could not go back into them).
    pub rendered: bool,
    /// The message written for the next commit (empty: the page's own).
    pub commit_message: String,
    /// Counts keystrokes, so that a pause in typing can be noticed.
    pub(crate) keystrokes: u64,
    /// Counts the texts taken that may have moved a pane's lines (a line break
    /// typed or taken away, or a text written whole): marks made since the last
    /// count still stand on their lines.
    pub line_moves: u64,
}

impl Panes {
    pub fn editor(&self, pane: Pane) -> &Editor {
        match pane {
            Pane::Desired => &self.desired,
            Pane::Actual => &self.actual,
        }
    }

    fn editor_mut(&mut self, pane: Pane) -> &mut Editor {
        match pane {
            Pane::Desired => &mut self.desired,
            Pane::Actual => &mut self.actual,
        }
    }

    /// The keystroke count while the world has not taken a typed text.
    pub fn typing(&self) -> Option<u64> {
        self.pending.as_ref().map(|_| self.keystrokes)
    }

    /// Whether a pane is broken, so the report on screen is older than the texts.
    pub fn is_stale(&self) -> bool {
        self.desired.error.is_some() || self.actual.error.is_some()
    }

    /// Whether the plan has an operation to apply (and the panes read, and
    /// say what Git holds: the agent syncs Git, not a working copy).
    pub fn can_step(&self) -> bool {
        !self.is_stale()
            && !self.uncommitted
            && self
                .report
                .as_ref()
                .is_some_and(|report| has_work(&report.plan))
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
        if self.uncommitted && !self.is_stale() {
            return Some(
                "Step waits for your commit: the agent syncs what Git holds, and the plan \
                 shows what it would do once the working copy is committed (Commit, or \
                 Ctrl/Cmd+S)."
                    .to_string(),
            );
        }
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

    /// The pane that shows an object: Actual where the cluster has it, else
    /// Desired, what Git declares.
    pub fn pane_of(&self, key: &str) -> Pane {
        match self.actual.lines.contains_key(key) {
            true => Pane::Actual,
            false => Pane::Desired,
        }
    }

    /// Puts the person's text in its editor as it is, with its error.
    pub(crate) fn take_text(&mut self, pane: Pane, typed: &TypedText, world: &World) {
        let name = match pane {
            Pane::Desired => "desired",
            Pane::Actual => "actual",
        };
        let parsed = world
            .workspace
            .with(|workspace| workspace.read_typed(name, typed));
        let text = &typed.text;
        if typed.edit.as_ref().is_none_or(|edit| edit.moves_lines(text)) {
            self.line_moves += 1;
        }
        let editor = self.editor_mut(pane);
        editor.format = Format::of(text);
        editor.lines.clear();
        editor.text = text.clone();
        match parsed {
            Ok(state) => {
                editor.error = None;
                editor.reads_as = Some(Rc::new(state));
            }
            Err(error) => {
                editor.error = Some(error);
                editor.reads_as = None;
            }
        }
    }

    /// The texts of `world`'s `environment`, and a new report on them.
    pub(crate) fn refresh(&mut self, world: &World, environment: &str) {
        let Some(cluster) = world.clusters.get(environment) else {
            return;
        };
        let actual = cluster.actual().clone();
        // What the world shows may be written anew, its lines elsewhere.
        self.line_moves += 1;
        self.actual.show(&actual);
        self.uncommitted = false;
        self.files_error = None;
        self.rendered = world.has_file_drafts(environment) || world.is_kustomized(environment);
        if let Some(working) = world.working_state(environment) {
            self.uncommitted = true;
            match working {
                Ok(state) => {
                    self.head_error = None;
                    self.desired.show(&state);
                    return self.report_on(&state, &actual, world, environment);
                }
                Err(error) => self.files_error = Some(error.to_string()),
            }
        }
        if let Some(draft) = world.draft(environment) {
            // The working copy stays as typed, and the plan previews it.
            if !self.desired.text.same(draft) {
                self.take_text(Pane::Desired, &TypedText::whole(draft.clone()), world);
            }
            if let Some(typed) = self.desired.reads_as.clone() {
                self.uncommitted = true;
                self.head_error = None;
                return self.report_on(&typed, &actual, world, environment);
            }
        }
        let proposal = world.proposal(environment);
        if let Some(proposed) = &proposal {
            self.desired.show(proposed);
        }
        match world.desired_state(environment) {
            Ok(desired) => {
                self.head_error = None;
                if proposal.is_none() {
                    self.desired.show(&desired);
                }
                self.report_on(&desired, &actual, world, environment);
            }
            Err(error) => {
                self.head_error = Some(format!(
                    "The head of Git does not read, so the plan is the last one that did: {error}"
                ));
            }
        }
    }

    /// The report of what the panes say, before the world has taken the
    /// text typed in `pane`: the state it reads as, against the other side.
    pub(crate) fn preview(&mut self, pane: Pane, world: &World, environment: &str) {
        let Some(cluster) = world.clusters.get(environment) else {
            return;
        };
        let typed = self.editor(pane).reads_as.clone();
        let (desired, actual) = match (pane, typed) {
            (Pane::Desired, Some(typed)) => ((*typed).clone(), cluster.actual().clone()),
            (Pane::Actual, Some(typed)) => match (&self.desired.reads_as, world.desired_state(environment)) {
                (Some(working), _) if self.uncommitted => ((**working).clone(), (*typed).clone()),
                (_, Ok(desired)) => (desired, (*typed).clone()),
                (_, Err(_)) => return,
            },
            _ => return,
        };
        self.report_on(&desired, &actual, world, environment);
    }

    /// The report of `actual` against `desired` in `world`'s `environment`;
    /// none while the two are in different forms (nothing syncs then), with why.
    fn report_on(&mut self, desired: &State, actual: &State, world: &World, environment: &str) {
        match comparable(desired, actual) {
            Ok(()) => {
                self.forms_error = None;
                let options = world.reconcile_options(environment);
                let workspace = &world.workspace;
                let report = self
                    .reported
                    .on(desired, actual, &options)
                    .unwrap_or_else(|| {
                        Rc::new(
                            workspace.with(|workspace| workspace.report(desired, actual, &options)),
                        )
                    });
                self.reported = Reported::keep(desired, actual, &options, &report);
                let confirmed = world
                    .clusters
                    .get(environment)
                    .map(|cluster| cluster.confirmed_prunes.clone())
                    .unwrap_or_default();
                self.hold = workspace.with(|workspace| {
                    step_hold(
                        workspace,
                        desired,
                        actual,
                        &report.plan,
                        &options,
                        &confirmed,
                    )
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
}
