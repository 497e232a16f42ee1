//! The exercise of the scenario on screen: hints, answers, the check, and
//! the student's progress.

use crate::exercise::{check, Attempt, Exercise};
use crate::ui::model::{Model, Progress};
use std::rc::Rc;

impl Model {
    pub fn exercise(&self) -> Option<&Exercise> {
        self.scenario.exercise.as_ref()
    }

    /// The progress of the exercise on screen.
    pub fn exercise_progress(&self) -> Progress {
        self.progress
            .get(&self.preset.file)
            .copied()
            .unwrap_or_default()
    }

    pub(super) fn show_hint(&mut self) {
        let Some(exercise) = self.exercise() else {
            return;
        };
        let total = exercise.hints.len();
        let file = self.preset.file.clone();
        let progress = Rc::make_mut(&mut self.progress).entry(file).or_default();
        progress.hints = (progress.hints + 1).min(total);
    }

    /// Checks the student's work on the exercise: what they did since its
    /// start, and their answers, the questions run against the presets.
    pub(super) fn check(&mut self) {
        let Some(exercise) = self.exercise().cloned() else {
            return;
        };
        let attempt = Attempt {
            interactions: self.session.interactions.clone(),
            answers: self.answers.clone(),
        };
        let presets = self.presets.clone();
        let preset = |file: &str| {
            presets
                .iter()
                .find(|preset| preset.file == file)
                .map(|preset| preset.text.to_string())
        };
        let checked = check(&self.scenario, &exercise, &attempt, &preset);
        if checked.solved {
            let file = self.preset.file.clone();
            Rc::make_mut(&mut self.progress)
                .entry(file)
                .or_default()
                .solved = true;
        }
        self.checked = Some(Rc::new(checked));
    }
}
