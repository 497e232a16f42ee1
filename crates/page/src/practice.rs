//! The exercise of the scenario on screen: hints, answers, the check, and
//! the student's progress.

use crate::model::Model;
use gitops_world::attempt::{check, Attempt, Checked};
use gitops_world::exercise::Exercise;
use sha2::{Digest, Sha256};
use std::rc::Rc;

impl Model {
    pub fn exercise(&self) -> Option<&Exercise> {
        self.scenario.exercise.as_ref()
    }

    /// The key the progress of the exercise just loaded is kept under: one of
    /// the playground's exercises by its file (also when a link carries its
    /// very text), any other (a link's) by a hash of its scenario's text, so
    /// that each exercise keeps its own and the same link finds it again.
    pub(super) fn progress_key(&self) -> String {
        if self.scenario.exercise.is_none() {
            return self.preset.file.clone();
        }
        let preset = self.loading.preset(&self.preset.file).or_else(|| {
            self.loading
                .presets
                .iter()
                .find(|preset| preset.text == self.preset.text)
        });
        match preset {
            Some(preset) => preset.file.clone(),
            None => {
                format!(
                    "scenario-sha256:{:x}",
                    Sha256::digest(self.preset.text.as_bytes())
                )
            }
        }
    }

    pub(super) fn show_hint(&mut self) {
        let Some(exercise) = self.exercise() else {
            return;
        };
        let total = exercise.hints.len();
        let key = self.work.exercise_key.clone();
        let progress = Rc::make_mut(&mut self.work.progress).or_default(key);
        progress.hints = (progress.hints + 1).min(total);
    }

    /// Checks the student's work on the exercise: what they did since its
    /// start, and their answers, the questions run against the presets.
    pub(super) fn check(&mut self) {
        let Some(checked) = self.judged() else {
            return;
        };
        if checked.solved {
            let key = self.work.exercise_key.clone();
            Rc::make_mut(&mut self.work.progress).or_default(key).solved = true;
        }
        self.work.checked = Some(Rc::new(checked));
    }

    /// The student's work on the exercise as Check finds it now (none without
    /// an exercise): what a lesson's host is told as the goals change.
    pub fn judged(&self) -> Option<Checked> {
        let exercise = self.scenario.exercise.as_ref()?;
        let attempt = Attempt {
            interactions: self.work.session.interactions.clone(),
            answers: self.work.answers.clone(),
        };
        let preset = |file: &str| {
            self.loading
                .presets
                .iter()
                .find(|preset| preset.file == file)
                .map(|preset| preset.text.to_string())
        };
        Some(check(&self.scenario, exercise, &attempt, &preset))
    }
}
