//! What can be known wrong with an exercise before anything runs: the
//! author's mistakes (a goal about an environment the scenario does not
//! have, a path that is not a JSON pointer, a question without two
//! choices), each an `InputError` with its JSON pointer.

use super::{Exercise, Goal};
use gitops_core::InputError;

/// What a goal is checked against, for the checks an author's goal gets
/// before anything runs.
pub(crate) struct GoalContext<'a> {
    /// The environments of the world the goal is about.
    pub(crate) environments: &'a [String],
    /// That world, for errors: `this exercise`, `the preset x.yaml`.
    pub(crate) world: String,
    /// The most steps a `stable` goal can look back on.
    pub(crate) window: u32,
    /// What sets that window, for errors: `settle: 6`.
    pub(crate) window_set_by: String,
}

impl Exercise {
    /// What can be known wrong with the exercise before anything runs: a
    /// goal about an environment the scenario does not have, a path that is
    /// not a JSON pointer, `stable` longer than `settle`, a question without
    /// two choices. `environments` are the scenario's.
    pub fn validate(&self, source: &str, environments: &[String]) -> Result<(), InputError> {
        let context = GoalContext {
            environments,
            world: "this exercise".into(),
            window: self.settle,
            window_set_by: format!(
                "the check runs `settle: {}` steps after the student's work",
                self.settle
            ),
        };
        for (index, goal) in self.goals.iter().enumerate() {
            goal.validate(source, &format!("/exercise/goals/{index}"), Some(&context))?;
        }
        for (index, question) in self.questions.iter().enumerate() {
            let at = format!("/exercise/questions/{index}");
            if question.choices.len() < 2 {
                return Err(InputError::shape(
                    source,
                    format!("{at}/choices"),
                    format!(
                        "a question offers two choices or more; this one has {}",
                        question.choices.len()
                    ),
                ));
            }
            if let Some(problem) = preset_name_problem(&question.run) {
                return Err(InputError::shape(source, format!("{at}/run"), problem));
            }
            for (number, choice) in question.choices.iter().enumerate() {
                choice
                    .when
                    .validate(source, &format!("{at}/choices/{number}/when"), None)?;
            }
        }
        Ok(())
    }
}

/// What is wrong with a question's preset name, if anything: it names a
/// file in `presets/`, as the page's list of presets does.
fn preset_name_problem(name: &str) -> Option<String> {
    let plain = !name.is_empty()
        && !name.contains(['/', '\\'])
        && name != "."
        && name != ".."
        && !name.starts_with('.');
    (!plain).then(|| {
        format!("`{name}` is not a preset's file name; `run` names a file in presets/, such as `compromise-push.yaml`")
    })
}

impl Goal {
    /// The goal's name as files write it (`gitDecides`).
    fn name(&self) -> &'static str {
        match self {
            Goal::Stable(_) => "stable",
            Goal::Synced(_) => "synced",
            Goal::Healthy(_) => "healthy",
            Goal::Exists(_) => "exists",
            Goal::Absent(_) => "absent",
            Goal::NoWarning(_) => "noWarning",
            Goal::Field(_) => "field",
            Goal::GitDecides(_) => "gitDecides",
            Goal::Running(_) => "running",
            Goal::SameImages(_) => "sameImages",
            Goal::PullRequest(_) => "pullRequest",
            Goal::Event(_) => "event",
            Goal::GitMentions(_) => "gitMentions",
            Goal::Not(_) => "not",
        }
    }

    /// What can be known wrong with the goal at `at` (its JSON pointer in
    /// `source`) before anything runs; with a context, also its
    /// environments and how far `stable` looks back.
    pub(crate) fn validate(
        &self,
        source: &str,
        at: &str,
        context: Option<&GoalContext>,
    ) -> Result<(), InputError> {
        let here = format!("{at}/{}", self.name());
        let refuse = |field: &str, message: String| {
            let pointer = match field {
                "" => here.clone(),
                field => format!("{here}/{field}"),
            };
            Err(InputError::shape(source, pointer, message))
        };
        let environment = |field: &str, name: Option<&String>| match (name, context) {
            (Some(name), Some(context)) if !context.environments.contains(name) => refuse(
                field,
                format!(
                    "there is no environment `{name}` in {}; it has {}",
                    context.world,
                    context.environments.join(", ")
                ),
            ),
            _ => Ok(()),
        };
        let path = |path: &str| match path.starts_with('/') {
            true => match gitops_core::pointer::Pattern::parse(path) {
                Ok(_) => Ok(()),
                Err(problem) => refuse("path", problem),
            },
            false => refuse(
                "path",
                format!(
                    "`{path}` is not a JSON pointer to a field: it should start with `/` (`/{}`)",
                    path.trim_start_matches('/')
                ),
            ),
        };
        match self {
            Goal::Stable(steps) => match context {
                Some(context) if *steps > context.window => refuse(
                    "",
                    format!(
                        "`stable: {steps}` asks for {steps} quiet steps, but {}; lower `stable` to {} or less, or raise `settle`",
                        context.window_set_by, context.window
                    ),
                ),
                _ => Ok(()),
            },
            Goal::Synced(place) | Goal::Healthy(place) => {
                environment("environment", place.environment.as_ref())
            }
            Goal::Exists(target) | Goal::Absent(target) => {
                environment("environment", target.environment.as_ref())
            }
            Goal::NoWarning(rule) if !gitops_core::warnings::RULES.contains(&rule.as_str()) => refuse(
                "",
                format!(
                    "there is no warning rule `{rule}`; the rules are {}",
                    gitops_core::warnings::RULES.join(", ")
                ),
            ),
            Goal::NoWarning(_) => Ok(()),
            Goal::Field(field) => {
                environment("environment", field.environment.as_ref())?;
                path(&field.path)
            }
            Goal::GitDecides(field) => {
                environment("environment", field.environment.as_ref())?;
                path(&field.path)
            }
            Goal::Running(running) => environment("environment", running.environment.as_ref()),
            Goal::SameImages(same) => {
                environment("environments/0", Some(&same.environments[0]))?;
                environment("environments/1", Some(&same.environments[1]))
            }
            Goal::PullRequest(_) | Goal::Event(_) | Goal::GitMentions(_) => Ok(()),
            Goal::Not(goal) => goal.validate(source, &here, context),
        }
    }
}
