//! What a person does on the page: the world acts on it
//! (`World::interact`), the page keeps the person's texts and what Step
//! applied, and the session records it, so that a link or saved work
//! replays it exactly.

use crate::editor::Pane;
use crate::model::Model;
use gitops_core::text::edit::TypedText;
use gitops_world::agent::waves::Hold;
use gitops_world::person::ignore_rules;
use gitops_world::share::Interaction;

impl Model {
    /// Does what the person did, and records it.
    pub fn interact(&mut self, interaction: Interaction) {
        self.work.undone.clear();
        let moves_the_world = matches!(
            interaction,
            Interaction::Step | Interaction::Advance | Interaction::Revert(_) | Interaction::Commit(_)
        );
        let waits_for_a_commit = matches!(interaction, Interaction::Step) && self.panes.uncommitted;
        if (moves_the_world && self.panes.is_stale()) || waits_for_a_commit {
            self.playback.playing = false;
            return;
        }
        match &interaction {
            Interaction::Desired(text) => {
                self.panes
                    .take_text(Pane::Desired, &TypedText::whole(text.clone()), &self.world)
            }
            Interaction::Actual(text) => {
                self.panes
                    .take_text(Pane::Actual, &TypedText::whole(text.clone()), &self.world)
            }
            Interaction::Ignore(text) => {
                self.panes.ignore_text = text.clone();
                self.panes.ignore_error = ignore_rules(text).err();
            }
            _ => {}
        }
        let environment = self.environment.clone();
        let mut applied = None;
        let mut reconciled = Vec::new();
        let done = match &interaction {
            Interaction::Step if self.world.reconciles_by_hand() => {
                reconciled = self.planned_changes();
                self.world_mut().reconcile_by_hand(&environment).then_some(true)
            }
            Interaction::Step => {
                applied = self.world_mut().apply_next_by_hand(&environment);
                applied.is_some().then_some(true)
            }
            _ => self.world_takes(&environment, &interaction),
        };
        let Some(reads) = done else {
            self.playback.playing = false;
            return;
        };
        match &interaction {
            Interaction::Step => {
                self.refresh();
                if let Some(operation) = applied {
                    self.view.highlight(operation.key().to_string());
                    self.playback.done.push(operation);
                }
                // Flux's reconcile applied each operation no longer planned.
                let left = self.planned_changes();
                reconciled.retain(|operation| !left.iter().any(|other| other.key() == operation.key()));
                self.playback.done.extend(reconciled);
                self.playback.playing &= self.panes.can_step();
            }
            Interaction::Answer(question, choice) => self.work.answer(*question, *choice),
            Interaction::Environment(name) => {
                self.environment = name.clone();
                self.panes.desired.error = None;
                self.panes.actual.error = None;
                self.view.highlight = None;
                self.changed();
            }
            _ if reads => {
                self.view.highlight = None;
                if matches!(
                    interaction,
                    Interaction::Desired(_) | Interaction::Actual(_) | Interaction::File(_)
                ) {
                    self.playback.playing = false;
                }
                self.changed();
            }
            _ => {}
        }
        self.work.session.record(interaction, reads);
        self.work.remember();
    }

    /// The operations of the plan on screen that change the cluster.
    fn planned_changes(&self) -> Vec<gitops_core::Operation> {
        let plan = self.panes.report.as_ref().map(|report| report.plan.as_slice()).unwrap_or_default();
        plan.iter().filter(|operation| operation.changes_cluster()).cloned().collect()
    }

    /// One beat of Play: Step, or where the next wave waits for an earlier
    /// one to be Healthy, time runs a step; Play stops where the sync failed.
    pub fn tick(&mut self) {
        match &self.panes.hold {
            Some(Hold::Waiting { .. }) if self.can_advance() => self.interact(Interaction::Advance),
            Some(_) => self.playback.playing = false,
            None => self.interact(Interaction::Step),
        }
    }

    /// A text typed in a pane. The editor, the plan and the session follow
    /// at once; the world takes the text when typing pauses or anything
    /// else happens (`settle`), so that a keystroke does not pay for a
    /// commit (which hashes every file).
    pub fn type_text(&mut self, pane: Pane, typed: TypedText) {
        self.work.undone.clear();
        let other_pane = match pane {
            Pane::Desired => matches!(self.panes.pending, Some(Interaction::Actual(_))),
            Pane::Actual => matches!(self.panes.pending, Some(Interaction::Desired(_))),
        };
        if other_pane {
            self.settle();
        }
        self.panes.take_text(pane, &typed, &self.world);
        self.panes.uncommitted |= pane == Pane::Desired;
        let text = typed.text;
        let interaction = match pane {
            Pane::Desired => Interaction::Desired(text),
            Pane::Actual => Interaction::Actual(text),
        };
        let reads = self.panes.editor(pane).error.is_none()
            && self.world.clusters.contains_key(&self.environment);
        if reads {
            self.view.highlight = None;
            self.playback.playing = false;
            self.playback.done.clear();
            self.panes.preview(pane, &self.world, &self.environment);
        }
        self.work.session.record(interaction.clone(), reads);
        self.work.remember();
        self.panes.pending = Some(interaction);
        self.panes.keystrokes += 1;
    }

    /// Drops the working copy: the files and the Desired pane show Git's head
    /// again, as the person's texts, so that the session records them.
    pub(crate) fn discard(&mut self) {
        let environment = self.environment.clone();
        for (path, in_git) in self.world.drafted_files_in_git(&environment) {
            // Each file typed back as Git has it: a working copy no more.
            self.interact(Interaction::file(&path, &in_git));
        }
        if self.world.draft(&environment).is_none() {
            return;
        }
        let Ok(head) = self.world.desired_state(&self.environment) else {
            return;
        };
        let shown = self.world.proposal(&self.environment).unwrap_or(head);
        let text = gitops_core::state::render::render(&shown, self.panes.desired.format).text;
        self.interact(Interaction::Desired(text.into()));
    }

    /// The world takes the text typed last, if it has not yet.
    pub(super) fn settle(&mut self) {
        let Some(interaction) = self.panes.pending.take() else {
            return;
        };
        let environment = self.environment.clone();
        if self.world_takes(&environment, &interaction) == Some(true) {
            self.changed();
        }
    }

    /// The world does what the person did; a pane's text goes with the state
    /// the page read it as, so that the world does not read it again.
    fn world_takes(&mut self, environment: &str, interaction: &Interaction) -> Option<bool> {
        let typed = match interaction {
            Interaction::Desired(text) => Some((Pane::Desired, text)),
            Interaction::Actual(text) => Some((Pane::Actual, text)),
            _ => None,
        };
        let read = typed.and_then(|(pane, text)| {
            let editor = self.panes.editor(pane);
            editor.text.same(text).then(|| editor.reads_as.clone()).flatten()
        });
        self.world_mut().interact_read(environment, interaction, read.as_deref())
    }
}
