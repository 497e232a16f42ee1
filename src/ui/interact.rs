//! What a person does on the page: the world acts on it
//! (`World::interact`), the page keeps the person's texts and what Step
//! applied, and the session records it, so that a link or saved work
//! replays it exactly.

use crate::core::render::Format;
use crate::core::State;
use crate::share::Interaction;
use crate::ui::model::Model;
use crate::world::person::ignore_rules;

impl Model {
    /// Does what the person did, and records it.
    pub fn interact(&mut self, interaction: Interaction) {
        let moves_the_world = matches!(
            interaction,
            Interaction::Step | Interaction::Advance | Interaction::Revert(_)
        );
        if moves_the_world && self.is_stale() {
            self.playing = false;
            return;
        }
        match &interaction {
            Interaction::Desired(text) => self.take_text(true, text),
            Interaction::Actual(text) => self.take_text(false, text),
            Interaction::Ignore(text) => {
                self.ignore_text = text.clone();
                self.ignore_error = ignore_rules(text).err();
            }
            _ => {}
        }
        let applied = match &interaction {
            Interaction::Step => self
                .report
                .as_ref()
                .and_then(|report| report.plan.iter().find(|op| op.changes_cluster()).cloned()),
            _ => None,
        };
        let environment = self.environment.clone();
        let Some(reads) = self.world_mut().interact(&environment, &interaction) else {
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

    /// Puts the person's text in its editor as it is, with its error.
    fn take_text(&mut self, desired: bool, text: &str) {
        let name = if desired { "desired" } else { "actual" };
        let parsed = State::parse(name, text);
        let editor = if desired {
            &mut self.desired
        } else {
            &mut self.actual
        };
        editor.format = Format::of(text);
        editor.lines.clear();
        editor.text = text.to_string();
        match parsed {
            Ok(state) => {
                editor.error = None;
                editor.reads_as = Some(std::rc::Rc::new(state));
            }
            Err(error) => {
                editor.error = Some(error);
                editor.reads_as = None;
            }
        }
    }
}
