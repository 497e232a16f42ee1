//! What can be known wrong with a solution file, and with an exercise's
//! questions once their presets run: each an `InputError` with its JSON
//! pointer.

use super::{Attempt, Checkpoint};
use crate::exercise::{Exercise, GoalContext};
use crate::person::Interaction;
use crate::scenario::Scenario;
use crate::World;
use gitops_core::{InputError, State};
use serde_json::Value;

/// What can only be known wrong with the questions by running their
/// presets (`preset` gives a preset's text by file, or says where it
/// looked): a preset that is missing or does not read, a choice about an
/// environment the preset does not have, a question no choice of which
/// holds.
pub fn validate_questions(
    source: &str,
    exercise: &Exercise,
    preset: &dyn Fn(&str) -> Result<String, String>,
) -> Result<(), InputError> {
    for (index, question) in exercise.questions.iter().enumerate() {
        let at = format!("/exercise/questions/{index}");
        let run = &question.run;
        let text =
            preset(run).map_err(|why| InputError::shape(source, format!("{at}/run"), why))?;
        let scenario = Scenario::parse(run, &text).map_err(|error| {
            InputError::shape(
                source,
                format!("{at}/run"),
                format!("the preset {run} does not read: {error}"),
            )
        })?;
        let environments = scenario.environments();
        let context = GoalContext {
            environments: &environments,
            world: format!("the preset {run}"),
            window: scenario.steps + 1,
            window_set_by: format!("the preset {run} runs {} steps", scenario.steps + 1),
        };
        for (number, choice) in question.choices.iter().enumerate() {
            choice.when.validate(
                source,
                &format!("{at}/choices/{number}/when"),
                Some(&context),
            )?;
        }
        let checkpoint = Checkpoint {
            world: World::run(&scenario),
            from_step: 0,
            environment: environments.first().cloned().unwrap_or_default(),
        };
        let results: Vec<Result<String, String>> = question
            .choices
            .iter()
            .map(|choice| choice.when.check(&checkpoint))
            .collect();
        if results.iter().all(Result::is_err) {
            let whys: Vec<String> = question
                .choices
                .iter()
                .zip(&results)
                .enumerate()
                .map(|(number, (choice, result))| {
                    let why = result.clone().err().unwrap_or_default();
                    format!("choice {number} (\"{}\"): {why}", choice.text)
                })
                .collect();
            return Err(InputError::shape(
                source,
                format!("{at}/choices"),
                format!(
                    "after running {run}, no choice holds, so no answer can be right ({}); correct the choices' `when`",
                    whys.join("; ")
                ),
            ));
        }
    }
    Ok(())
}

/// The interactions a solution file may name: the name files write, the
/// short one links use, and what it takes (`None` for nothing).
const INTERACTIONS: [(&str, &str, Option<&str>); 20] = [
    ("desired", "d", Some("the Desired pane's whole text")),
    ("file", "f", Some("a file of Git's working copy: its path on the first line, then its text")),
    ("commit", "o", Some("the commit's message, as text")),
    ("actual", "a", Some("the Actual pane's whole text")),
    ("step", "s", None),
    ("advance", "n", None),
    (
        "revert",
        "r",
        Some("a commit: HEAD, HEAD~n or an id, as text"),
    ),
    ("prune", "p", Some("true or false")),
    ("selfHeal", "h", Some("true or false")),
    ("autoSync", "y", Some("true or false")),
    ("respectIgnoreDifferences", "k", Some("true or false")),
    ("serverSideApply", "u", Some("true or false")),
    ("mode", "m", Some("pull or push")),
    ("agent", "t", Some("argocd or flux")),
    ("ignore", "i", Some("ignore rules, as text")),
    ("environment", "e", Some("an environment's name")),
    ("approve", "v", Some("a pull request's number")),
    ("merge", "g", Some("a pull request's number")),
    ("confirmPrune", "c", None),
    ("answer", "q", Some("[question, choice], two indexes")),
];

fn interaction_names() -> String {
    INTERACTIONS
        .iter()
        .map(|(name, ..)| *name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Attempt {
    /// Reads a solution file's value (`source` names it in errors): each
    /// wrong field, interaction or answer is named by its JSON pointer.
    pub fn from_value(source: &str, value: Value) -> Result<Attempt, InputError> {
        let refuse =
            |pointer: String, message: String| Err(InputError::shape(source, pointer, message));
        let mut fields = match value {
            Value::Null => return Ok(Attempt::default()),
            Value::Object(fields) => fields,
            other => {
                return refuse(
                    String::new(),
                    format!(
                        "a solution is an object with `interactions` and `answers`; found {}",
                        gitops_core::state::describe(&other)
                    ),
                )
            }
        };
        if let Some(unknown) = fields
            .keys()
            .find(|field| !["interactions", "answers"].contains(&field.as_str()))
        {
            return refuse(
                format!("/{}", gitops_core::pointer::escape(unknown)),
                format!("unknown field `{unknown}`; a solution has `interactions` and `answers`"),
            );
        }
        let mut attempt = Attempt::default();
        match fields.remove("interactions") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (index, item) in items.into_iter().enumerate() {
                    attempt
                        .interactions
                        .push(read_interaction(source, index, item)?);
                }
            }
            Some(other) => {
                return refuse(
                    "/interactions".into(),
                    format!(
                        "`interactions` is a list of what the student did, such as `- advance`; found {}",
                        gitops_core::state::describe(&other)
                    ),
                )
            }
        }
        match fields.remove("answers") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (index, item) in items.into_iter().enumerate() {
                    let answer = match &item {
                        Value::Null => None,
                        Value::Number(number) => {
                            match number.as_u64().and_then(|n| usize::try_from(n).ok()) {
                                Some(choice) => Some(choice),
                                None => return refuse(
                                    format!("/answers/{index}"),
                                    format!("an answer is a choice's index (0, 1, ...) or null for none; found {number}"),
                                ),
                            }
                        }
                        other => {
                            return refuse(
                                format!("/answers/{index}"),
                                format!(
                                    "an answer is a choice's index (0, 1, ...) or null for none; found {}",
                                    gitops_core::state::describe(other)
                                ),
                            )
                        }
                    };
                    attempt.answers.push(answer);
                }
            }
            Some(other) => {
                return refuse(
                    "/answers".into(),
                    format!(
                        "`answers` is a list of choices' indexes, one per question; found {}",
                        gitops_core::state::describe(&other)
                    ),
                )
            }
        }
        Ok(attempt)
    }

    /// What is wrong with the attempt for this exercise, if anything: an
    /// answer to no question or out of its choices, an environment the
    /// scenario does not have, a text or ignore rules that do not read (the
    /// page would change nothing). `source` names the solution file.
    pub fn validate(
        &self,
        source: &str,
        scenario: &Scenario,
        exercise: &Exercise,
    ) -> Result<(), InputError> {
        let refuse =
            |pointer: String, message: String| Err(InputError::shape(source, pointer, message));
        let questions = exercise.questions.len();
        let answer_problem = |question: usize, choice: usize| -> Option<String> {
            let Some(asked) = exercise.questions.get(question) else {
                return Some(match questions {
                    0 => "this exercise has no questions, so there is nothing to answer; leave the answers out".into(),
                    1 => format!("answer {} has no question: the exercise has 1 question", question + 1),
                    n => format!("answer {} has no question: the exercise has {n} questions", question + 1),
                });
            };
            let choices = asked.choices.len();
            (choice >= choices).then(|| {
                format!(
                    "answer {} is {choice}; question {} has {choices} choices (0 to {})",
                    question + 1,
                    question + 1,
                    choices.saturating_sub(1)
                )
            })
        };
        if !self.answers.is_empty() && questions == 0 {
            return refuse("/answers".into(), answer_problem(0, 0).unwrap_or_default());
        }
        for (index, answer) in self.answers.iter().enumerate() {
            if index >= questions {
                return refuse(
                    format!("/answers/{index}"),
                    format!(
                        "there are {} answers for {questions} questions; answer {} has no question, so remove it",
                        self.answers.len(),
                        index + 1
                    ),
                );
            }
            if let Some(problem) = answer.and_then(|choice| answer_problem(index, choice)) {
                return refuse(format!("/answers/{index}"), problem);
            }
        }
        let environments = scenario.environments();
        for (index, interaction) in self.interactions.iter().enumerate() {
            let at = |field: &str| format!("/interactions/{index}/{field}");
            match interaction {
                Interaction::Answer(question, choice) => {
                    if let Some(problem) = answer_problem(*question, *choice) {
                        return refuse(at("answer"), problem);
                    }
                }
                Interaction::Environment(name) if !environments.contains(name) => {
                    return refuse(
                        at("environment"),
                        format!(
                            "there is no environment `{name}` in this exercise; it has {}",
                            environments.join(", ")
                        ),
                    )
                }
                Interaction::Desired(text) | Interaction::Actual(text) => {
                    let (field, pane) = match interaction {
                        Interaction::Desired(_) => ("desired", "Desired"),
                        _ => ("actual", "Actual"),
                    };
                    if let Err(error) = State::read_shared(field, text) {
                        return refuse(
                            at(field),
                            format!(
                                "the text does not read ({}); the page would leave the {pane} pane broken and change nothing, so correct it",
                                located(&error)
                            ),
                        );
                    }
                }
                Interaction::Ignore(text) => {
                    if let Err(error) = crate::person::ignore_rules(text) {
                        return refuse(
                            at("ignore"),
                            format!(
                                "{error}; the page would keep the rules it had, so correct them"
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// An error inside a text, without the text's name: `line 1, column 2: ...`.
fn located(error: &InputError) -> String {
    match (error.line, error.column, error.pointer.as_deref()) {
        (Some(line), Some(column), _) => {
            format!(
                "line {line}, column {column} of the text: {}",
                error.message
            )
        }
        (_, _, Some(pointer)) if !pointer.is_empty() => {
            format!("at {pointer} of the text: {}", error.message)
        }
        _ => error.message.clone(),
    }
}

/// One interaction of a solution file: a name (`- advance`) or a name with
/// its value (`- environment: prod`), as the page records them.
fn read_interaction(source: &str, index: usize, item: Value) -> Result<Interaction, InputError> {
    let at = format!("/interactions/{index}");
    let refuse = |pointer: String, message: String| InputError::shape(source, pointer, message);
    let (name, value) = match item {
        Value::String(name) => (name, None),
        Value::Object(fields) if fields.len() == 1 => {
            let (name, value) = fields.into_iter().next().expect("one field");
            (name, Some(value))
        }
        other => {
            let found = match &other {
                Value::Object(fields) => format!("an object with {} fields", fields.len()),
                other => gitops_core::state::describe(other).to_string(),
            };
            return Err(refuse(
                at,
                format!(
                    "an interaction is a name, such as `- advance`, or one name with its value, such as `- environment: prod`; found {found}"
                ),
            ));
        }
    };
    let Some((long, _, takes)) = INTERACTIONS
        .iter()
        .find(|(long, short, _)| name == *long || name == *short)
    else {
        return Err(refuse(
            at,
            format!(
                "unknown interaction `{name}`; the interactions are {}",
                interaction_names()
            ),
        ));
    };
    let here = format!("{at}/{}", gitops_core::pointer::escape(&name));
    match (takes, value) {
        // A commit with no message of its own takes the page's.
        (Some(_), None) if *long == "commit" => Ok(Interaction::Commit(String::new())),
        (None, None) => serde_json::from_value(Value::String(long.to_string()))
            .map_err(|error| refuse(at, error.to_string())),
        (None, Some(_)) => Err(refuse(
            here,
            format!("`{long}` takes no value: write `- {long}`, once for each time it was done"),
        )),
        (Some(takes), None) => Err(refuse(
            at,
            format!("`{long}` needs a value, {takes}: write `- {long}: <value>`"),
        )),
        (Some(takes), Some(value)) => {
            let found = match &value {
                Value::Number(number) => format!("{number}"),
                other => gitops_core::state::describe(other).to_string(),
            };
            let tagged = Value::Object(serde_json::Map::from_iter([(long.to_string(), value)]));
            serde_json::from_value(tagged)
                .map_err(|_| refuse(here, format!("`{long}` takes {takes}; found {found}")))
        }
    }
}
