//! What a person does on the page, as world actions; each is recorded in
//! the session, so that a link or saved work replays it exactly.

use crate::core::document::parse_one;
use crate::core::render::Format;
use crate::core::{IgnoreRule, State};
use crate::share::Interaction;
use crate::ui::model::{Model, YOU};
use crate::world::scenario::WorldOptions;
use crate::world::script::Action as WorldAction;

impl Model {
    /// Does what the person did, and records it.
    pub fn interact(&mut self, interaction: Interaction) {
        let reads = match &interaction {
            Interaction::Desired(text) => self.edit_desired(text),
            Interaction::Actual(text) => self.edit_actual(text),
            Interaction::Step => self.step(),
            Interaction::Advance => self.advance(),
            Interaction::Revert(commit) => self.revert(commit),
            Interaction::Prune(on) => self.set_options(|options| options.prune = *on),
            Interaction::SelfHeal(on) => self.set_options(|options| options.self_heal = *on),
            Interaction::AutoSync(on) => self.set_options(|options| options.auto_sync = *on),
            Interaction::Mode(mode) => self.set_options(|options| options.mode = *mode),
            Interaction::Ignore(text) => self.edit_ignore(text),
            Interaction::Environment(environment) => self.select_environment(environment),
        };
        if let Some(reads) = reads {
            self.session.record(interaction, reads);
            self.remember();
        }
    }

    /// `Some(reads)` when the text was taken (whether it reads or not).
    fn edit_desired(&mut self, text: &str) -> Option<bool> {
        let parsed = self.take_text(true, text);
        if parsed.is_ok() {
            let environment = self.environment.clone();
            self.world_mut().edit_desired(YOU, &environment, text);
            self.changed();
        }
        Some(parsed.is_ok())
    }

    fn edit_actual(&mut self, text: &str) -> Option<bool> {
        let parsed = self.take_text(false, text);
        if let Ok(state) = &parsed {
            let environment = self.environment.clone();
            self.world_mut().edit_actual(YOU, &environment, state);
            self.changed();
        }
        Some(parsed.is_ok())
    }

    /// Puts the person's text in its editor as it is, with its error.
    fn take_text(&mut self, desired: bool, text: &str) -> Result<State, ()> {
        let name = if desired { "desired" } else { "actual" };
        let parsed = State::parse(name, text);
        let editor = if desired {
            &mut self.desired
        } else {
            &mut self.actual
        };
        editor.format = Format::of(text);
        editor.lines.clear();
        editor.error = parsed.as_ref().err().cloned();
        editor.text = text.to_string();
        if parsed.is_ok() {
            self.playing = false;
            self.highlight = None;
        }
        parsed.map_err(|_| ())
    }

    /// Applies the next operation of the plan; its card moves to done and
    /// the object is highlighted.
    fn step(&mut self) -> Option<bool> {
        if !self.can_step() {
            self.playing = false;
            return None;
        }
        let next = self
            .report
            .as_ref()
            .and_then(|report| report.plan.iter().find(|op| op.changes_cluster()).cloned());
        let environment = self.environment.clone();
        self.world_mut().perform(&WorldAction::ApplyNext {
            by: YOU.into(),
            environment,
        });
        let done = std::mem::take(&mut self.done);
        self.refresh();
        self.done = done;
        if let Some(operation) = next {
            self.token += 1;
            self.highlight = Some((operation.key().to_string(), self.token));
            self.done.push(operation);
        }
        if !self.can_step() {
            self.playing = false;
        }
        Some(true)
    }

    fn advance(&mut self) -> Option<bool> {
        if !self.can_advance() {
            return None;
        }
        self.world_mut().next_step();
        self.highlight = None;
        self.changed();
        Some(true)
    }

    fn revert(&mut self, commit: &str) -> Option<bool> {
        if self.is_stale() {
            return None;
        }
        self.world_mut().perform(&WorldAction::Revert {
            author: YOU.into(),
            commit: commit.into(),
        });
        self.changed();
        Some(true)
    }

    fn set_options(&mut self, change: impl FnOnce(&mut WorldOptions)) -> Option<bool> {
        change(&mut self.world_mut().options);
        self.changed();
        Some(true)
    }

    fn edit_ignore(&mut self, text: &str) -> Option<bool> {
        let rules = match text.trim() {
            "" => Ok(Vec::new()),
            _ => parse_one("ignore rules", text)
                .map_err(|error| error.to_string())
                .and_then(|value| {
                    serde_json::from_value::<Vec<IgnoreRule>>(value)
                        .map_err(|error| format!("ignore rules: {error}"))
                }),
        };
        self.ignore_text = text.to_string();
        match rules {
            Ok(rules) => {
                self.ignore_error = None;
                self.set_options(|options| options.ignore = rules)
            }
            Err(error) => {
                self.ignore_error = Some(error);
                Some(false)
            }
        }
    }

    fn select_environment(&mut self, environment: &str) -> Option<bool> {
        if !self.world.clusters.contains_key(environment) {
            return None;
        }
        self.environment = environment.to_string();
        self.desired.error = None;
        self.actual.error = None;
        self.highlight = None;
        self.changed();
        Some(true)
    }
}
