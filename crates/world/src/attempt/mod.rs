//! A student's work on an exercise, replayed and checked: each goal
//! against the world after it, each answer against what running the
//! question's preset shows. `goals` checks one goal; `solution` reads a
//! solution file and finds what in it cannot fit the exercise; `link`
//! reads the work a share link carries.

use crate::exercise::{Exercise, Question};
use crate::person::Interaction;
use crate::scenario::Scenario;
use crate::World;
use serde::{Deserialize, Serialize};

mod goals;
mod link;
mod solution;

pub use link::is_link;
pub use solution::validate_questions;

/// A student's work: what they did, and their answers (a choice's index
/// per question). Answers may also come as `answer` interactions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    #[serde(default)]
    pub interactions: Vec<Interaction>,
    #[serde(default)]
    pub answers: Vec<Option<usize>>,
}

/// One goal or question, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub what: String,
    pub passed: bool,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checked {
    pub goals: Vec<Outcome>,
    pub questions: Vec<Outcome>,
    pub solved: bool,
}

/// The world after the student's work and `settle` more steps, with the
/// events of those last steps.
pub struct Checkpoint {
    pub world: World,
    /// The first step the check ran itself.
    pub from_step: u32,
    pub environment: String,
}

/// Replays an attempt's interactions, then runs the world `settle` steps on.
pub fn replay(scenario: &Scenario, interactions: &[Interaction], settle: u32) -> Checkpoint {
    let mut world = World::new(scenario);
    let mut environment = scenario
        .environments()
        .into_iter()
        .next()
        .unwrap_or_default();
    for interaction in interactions {
        if world.interact(&environment, interaction) == Some(true) {
            if let Interaction::Environment(name) = interaction {
                environment = name.clone();
            }
        }
    }
    let from_step = if world.started { world.step + 1 } else { 0 };
    for _ in 0..settle {
        world.next_step();
    }
    let first = scenario
        .environments()
        .into_iter()
        .next()
        .unwrap_or_default();
    Checkpoint {
        world,
        from_step,
        environment: first,
    }
}

/// Checks an attempt: its goals against the world after it, its answers
/// against the presets' outcomes (`preset` gives a preset's text by file).
pub fn check(
    scenario: &Scenario,
    exercise: &Exercise,
    attempt: &Attempt,
    preset: &dyn Fn(&str) -> Option<String>,
) -> Checked {
    let checkpoint = replay(scenario, &attempt.interactions, exercise.settle);
    let answers = attempt.answers_given();
    let goals: Vec<Outcome> = exercise
        .goals
        .iter()
        .map(|goal| {
            let result = goal.check(&checkpoint);
            Outcome {
                what: goal.describe(),
                passed: result.is_ok(),
                why: result.unwrap_or_else(|why| why),
            }
        })
        .collect();
    let questions: Vec<Outcome> = exercise
        .questions
        .iter()
        .enumerate()
        .map(|(index, question)| answer(question, answers.get(index).copied().flatten(), preset))
        .collect();
    let solved = goals.iter().chain(&questions).all(|outcome| outcome.passed);
    Checked {
        goals,
        questions,
        solved,
    }
}

fn answer(
    question: &Question,
    chosen: Option<usize>,
    preset: &dyn Fn(&str) -> Option<String>,
) -> Outcome {
    let what = question.ask.clone();
    let Some(text) = preset(&question.run) else {
        return Outcome {
            what,
            passed: false,
            why: format!(
                "the preset {} is not among this playground's presets (presets/index.json)",
                question.run
            ),
        };
    };
    let Ok(scenario) = Scenario::parse(&question.run, &text) else {
        return Outcome {
            what,
            passed: false,
            why: format!("the preset {} does not read", question.run),
        };
    };
    // Named as the page's menu names it, not by its file.
    let run = match &scenario.title {
        Some(title) => format!("the preset \"{title}\""),
        None => question.run.clone(),
    };
    let checkpoint = Checkpoint {
        world: World::run(&scenario),
        from_step: 0,
        environment: scenario
            .environments()
            .into_iter()
            .next()
            .unwrap_or_default(),
    };
    let true_choices: Vec<usize> = question
        .choices
        .iter()
        .enumerate()
        .filter(|(_, choice)| choice.when.check(&checkpoint).is_ok())
        .map(|(index, _)| index)
        .collect();
    let outcome = match true_choices.as_slice() {
        [] => "no choice holds".to_string(),
        indexes => indexes
            .iter()
            .map(|index| question.choices[*index].text.as_str())
            .collect::<Vec<_>>()
            .join("; "),
    };
    let told = if question.explain.is_empty() {
        String::new()
    } else {
        format!(" {}", question.explain)
    };
    match chosen {
        None => Outcome {
            what,
            passed: false,
            why: "no answer yet".into(),
        },
        Some(choice) if true_choices.contains(&choice) => Outcome {
            what,
            passed: true,
            why: format!("right: running {run} shows it: {outcome}.{told}"),
        },
        Some(choice) => Outcome {
            what,
            passed: false,
            why: format!(
                "not so: you said \"{}\", but running {run} shows: {outcome}.{told}",
                question
                    .choices
                    .get(choice)
                    .map_or("?", |choice| choice.text.as_str()),
            ),
        },
    }
}

impl Attempt {
    /// The answers, with those given as `answer` interactions over them.
    pub fn answers_given(&self) -> Vec<Option<usize>> {
        let mut answers = self.answers.clone();
        for interaction in &self.interactions {
            if let Interaction::Answer(question, choice) = interaction {
                if answers.len() <= *question {
                    answers.resize(question + 1, None);
                }
                answers[*question] = Some(*choice);
            }
        }
        answers
    }
}
