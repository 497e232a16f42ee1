//! What a person does on the page: the world acts on it
//! (`World::interact`), the page keeps the person's texts and what Step
//! applied, and the session records it, so that a link or saved work
//! replays it exactly.

use crate::editor::Pane;
use crate::model::Model;
use gitops_core::state::render::Format;
use gitops_core::text::edit::TypedText;
use gitops_world::agent::waves::Hold;
use gitops_world::person::ignore_rules;
use gitops_world::share::Interaction;
use std::rc::Rc;

impl Model {
    /// Does what the person did, and records it.
    pub fn interact(&mut self, interaction: Interaction) {
        self.undone.clear();
        let moves_the_world = matches!(
            interaction,
            Interaction::Step | Interaction::Advance | Interaction::Revert(_)
        );
        if moves_the_world && self.is_stale() {
            self.playing = false;
            return;
        }
        match &interaction {
            Interaction::Desired(text) => self.take_text(true, &TypedText::whole(text.clone())),
            Interaction::Actual(text) => self.take_text(false, &TypedText::whole(text.clone())),
            Interaction::Ignore(text) => {
                self.ignore_text = text.clone();
                self.ignore_error = ignore_rules(text).err();
            }
            _ => {}
        }
        let environment = self.environment.clone();
        let mut applied = None;
        let done = match &interaction {
            Interaction::Step => {
                applied = self.world_mut().apply_next_by_hand(&environment);
                applied.is_some().then_some(true)
            }
            _ => self.world_mut().interact(&environment, &interaction),
        };
        let Some(reads) = done else {
            self.playing = false;
            return;
        };
        match &interaction {
            Interaction::Step => {
                let done = std::mem::take(&mut self.done);
                self.refresh();
                self.done = done;
                if let Some(operation) = applied {
                    self.token += 1;
                    self.highlight = Some((operation.key().to_string(), self.token));
                    self.done.push(operation);
                }
                self.playing &= self.can_step();
            }
            Interaction::Answer(question, choice) => {
                if self.answers.len() <= *question {
                    self.answers.resize(question + 1, None);
                }
                self.answers[*question] = Some(*choice);
                self.checked = None;
            }
            Interaction::Environment(name) => {
                self.environment = name.clone();
                self.desired.error = None;
                self.actual.error = None;
                self.highlight = None;
                self.changed();
            }
            _ if reads => {
                self.highlight = None;
                if matches!(
                    interaction,
                    Interaction::Desired(_) | Interaction::Actual(_)
                ) {
                    self.playing = false;
                }
                self.changed();
            }
            _ => {}
        }
        self.session.record(interaction, reads);
        self.remember();
    }

    /// One beat of Play: Step, or where the next wave waits for an earlier
    /// one to be Healthy, time runs a step; Play stops where the sync failed.
    pub fn tick(&mut self) {
        match &self.hold {
            Some(Hold::Waiting { .. }) if self.can_advance() => self.interact(Interaction::Advance),
            Some(_) => self.playing = false,
            None => self.interact(Interaction::Step),
        }
    }

    /// A text typed in a pane. The editor, the plan and the session follow
    /// at once; the world takes the text when typing pauses or anything
    /// else happens (`settle`), so that a keystroke does not pay for a
    /// commit (which hashes every file).
    pub fn type_text(&mut self, pane: Pane, typed: TypedText) {
        self.undone.clear();
        let other_pane = match pane {
            Pane::Desired => matches!(self.pending, Some(Interaction::Actual(_))),
            Pane::Actual => matches!(self.pending, Some(Interaction::Desired(_))),
        };
        if other_pane {
            self.settle();
        }
        self.take_text(pane == Pane::Desired, &typed);
        let text = typed.text;
        let interaction = match pane {
            Pane::Desired => Interaction::Desired(text),
            Pane::Actual => Interaction::Actual(text),
        };
        let reads = self.editor(pane).error.is_none()
            && self.world.clusters.contains_key(&self.environment);
        if reads {
            self.highlight = None;
            self.playing = false;
            self.done.clear();
            self.preview(pane);
        }
        self.session.record(interaction.clone(), reads);
        self.remember();
        self.pending = Some(interaction);
        self.keystrokes += 1;
    }

    /// The world takes the text typed last, if it has not yet.
    pub(super) fn settle(&mut self) {
        let Some(interaction) = self.pending.take() else {
            return;
        };
        let environment = self.environment.clone();
        if self.world_mut().interact(&environment, &interaction) == Some(true) {
            self.changed();
        }
    }

    /// The report of what the panes say, before the world has taken the
    /// text typed in `pane`: the state it reads as, against the other side.
    fn preview(&mut self, pane: Pane) {
        let environment = &self.environment;
        let Some(cluster) = self.world.clusters.get(environment) else {
            return;
        };
        let typed = self.editor(pane).reads_as.clone();
        let (desired, actual) = match (pane, typed) {
            (Pane::Desired, Some(typed)) if !self.world.edits_are_reviewed(environment) => {
                ((*typed).clone(), cluster.actual().clone())
            }
            (Pane::Actual, Some(typed)) => match self.world.desired_state(environment) {
                Ok(desired) => (desired, (*typed).clone()),
                Err(_) => return,
            },
            _ => return,
        };
        self.report_on(&desired, &actual);
    }

    /// Puts the person's text in its editor as it is, with its error.
    fn take_text(&mut self, desired: bool, typed: &TypedText) {
        let name = if desired { "desired" } else { "actual" };
        let parsed = self.world.workspace.with(|workspace| workspace.read_typed(name, typed));
        let text = &typed.text;
        let editor = if desired {
            &mut self.desired
        } else {
            &mut self.actual
        };
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
}
