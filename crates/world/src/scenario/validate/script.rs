//! What the controllers and the script name: environments the scenario
//! has, controllers it declares, fields by their JSON pointers, and steps
//! it runs.

use crate::scenario::{ControllerSpec, Paths, MAX_STEPS};
use crate::script::ScriptStep;
use gitops_core::error::InputError;
use std::collections::BTreeSet;

/// Names the environments a scenario has, for errors.
fn list_environments(environments: &BTreeSet<String>) -> String {
    environments.iter().cloned().collect::<Vec<_>>().join(", ")
}

fn no_environment(environment: &str, environments: &BTreeSet<String>) -> String {
    format!(
        "there is no environment `{environment}` in this scenario; it has {}. Name one of those, \
         or declare `{environment}` with files under `envs/{environment}/` (or a cluster under `clusters`)",
        list_environments(environments)
    )
}

/// What is wrong with a field's JSON pointer, if anything (`""` is the whole object).
fn pointer_problem(path: &str) -> Option<String> {
    gitops_core::pointer::Pattern::parse(path)
        .err()
        .map(|error| match path.starts_with('/') {
            true => error,
            false => format!("{error} (write `/{path}`)"),
        })
}

/// Each controller owns a field of an environment the scenario has.
pub(super) fn check_controllers(
    source: &str,
    controllers: &[ControllerSpec],
    environments: &BTreeSet<String>,
) -> Result<(), InputError> {
    for (index, controller) in controllers.iter().enumerate() {
        if !environments.contains(&controller.environment) {
            return Err(InputError::shape(
                source,
                format!("/controllers/{index}/environment"),
                no_environment(&controller.environment, environments),
            ));
        }
        if let Some(problem) = pointer_problem(&controller.path) {
            return Err(InputError::shape(
                source,
                format!("/controllers/{index}/path"),
                problem,
            ));
        }
    }
    Ok(())
}

/// Fields of an action, by name, that name an environment.
type Fields<'a> = Vec<(&'static str, &'a String)>;

/// What can be known wrong with the script before it runs: an action after
/// the last step, an environment or a controller the scenario does not
/// have, a path that is not a JSON pointer.
pub(super) fn check_script(
    source: &str,
    script: &[ScriptStep],
    steps: Option<u32>,
    environments: &BTreeSet<String>,
    controllers: &[ControllerSpec],
    paths: &Paths,
) -> Result<(), InputError> {
    use crate::script::ScriptedAction;
    // Environments in Git may also come from the script's own commits.
    let mut in_git = environments.clone();
    for scripted in script {
        match &scripted.action {
            ScriptedAction::Commit { branch, write, .. } => {
                in_git.extend(branch.iter().cloned());
                in_git.extend(write.keys().filter_map(|path| paths.environment_of(path)));
            }
            ScriptedAction::OpenPullRequest { write, .. } => {
                in_git.extend(write.keys().filter_map(|path| paths.environment_of(path)))
            }
            _ => {}
        }
    }
    for (index, scripted) in script.iter().enumerate() {
        let at = format!("/script/{index}");
        let refuse = |field: &str, message: String| {
            Err(InputError::shape(source, format!("{at}/{field}"), message))
        };
        if scripted.at > MAX_STEPS {
            return refuse(
                "at",
                format!(
                    "this action is at minute {}, but a scenario runs at most {MAX_STEPS} minutes (`steps`)",
                    scripted.at
                ),
            );
        }
        if let Some(steps) = steps.filter(|steps| scripted.at > *steps) {
            return refuse(
                "at",
                format!(
                    "this action is at minute {}, after the last minute the scenario runs (`steps: {steps}`), \
                     so it would never happen; move it to minute {steps} or earlier, or raise `steps`",
                    scripted.at
                ),
            );
        }
        // The fields that name a cluster, and those that name a directory or branch in Git.
        let (clusters, gits): (Fields, Fields) = match &scripted.action {
            ScriptedAction::EditCluster { environment, .. }
            | ScriptedAction::CiApply { environment, .. }
            | ScriptedAction::Restart { environment, .. }
            | ScriptedAction::Sync { environment, .. }
            | ScriptedAction::SetCluster { environment, .. }
            | ScriptedAction::ApplyNext { environment, .. }
            | ScriptedAction::ConfirmPrune { environment, .. }
            | ScriptedAction::LoseCluster { environment } => {
                (vec![("environment", environment)], vec![])
            }
            ScriptedAction::UpdateImage { environment, .. } => {
                (vec![], vec![("environment", environment)])
            }
            ScriptedAction::Promote { from, to, .. }
            | ScriptedAction::MergeBranch { from, to, .. } => {
                (vec![], vec![("from", from), ("to", to)])
            }
            _ => (vec![], vec![]),
        };
        for (field, environment) in clusters {
            if !environments.contains(environment) {
                return refuse(field, no_environment(environment, environments));
            }
        }
        for (field, environment) in gits {
            if !in_git.contains(environment) {
                return refuse(field, no_environment(environment, environments));
            }
        }
        match &scripted.action {
            ScriptedAction::SetController { name, .. }
                if !controllers
                    .iter()
                    .any(|controller| controller.name == *name) =>
            {
                let names: Vec<&str> = controllers
                    .iter()
                    .map(|controller| controller.name.as_str())
                    .collect();
                let known = match names.as_slice() {
                    [] => "this scenario has none (declare it under `controllers`)".to_string(),
                    names => format!("its controllers are {}", names.join(", ")),
                };
                return refuse("name", format!("there is no controller `{name}`; {known}"));
            }
            ScriptedAction::Commit { set, .. } | ScriptedAction::OpenPullRequest { set, .. } => {
                for (number, edit) in set.iter().enumerate() {
                    if let Some(problem) = pointer_problem(&edit.path) {
                        return refuse(&format!("set/{number}/path"), problem);
                    }
                }
            }
            ScriptedAction::EditCluster { path, .. } | ScriptedAction::CiApply { path, .. } => {
                if let Some(problem) = pointer_problem(path) {
                    return refuse("path", problem);
                }
            }
            _ => {}
        }
    }
    Ok(())
}
