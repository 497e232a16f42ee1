//! What can be known wrong with a scenario file as it is read: its version,
//! layout, environments, forms, controllers and script, each an
//! `InputError` at its JSON pointer.

use super::*;

impl Scenario {
    pub(super) fn from_raw(source: &str, raw: RawScenario) -> Result<Self, InputError> {
        check_version(source, raw.version.as_ref())?;
        let lesson_form = raw.desired.is_some();
        let mut actual_texts = BTreeMap::new();
        let (repository, mut clusters) = match (raw.desired, raw.repository) {
            (Some(desired), None) => {
                let state = state_of(source, "/desired", &desired)?;
                let actual = match &raw.actual {
                    Some(actual) => state_of(source, "/actual", actual)?,
                    None => State::empty(state.form().clone()),
                };
                if let Some(Value::String(text)) = &raw.actual {
                    actual_texts.insert(DEFAULT_ENVIRONMENT.to_string(), text.clone());
                }
                let file = match desired.is_string() {
                    true => "manifests.yaml",
                    false => "manifests.json",
                };
                let files = Files::from([(format!("envs/{DEFAULT_ENVIRONMENT}/{file}"), desired)]);
                let repository = InitialRepository {
                    author: default_author(),
                    message: default_message(),
                    files,
                    branches: BTreeMap::new(),
                };
                (
                    repository,
                    BTreeMap::from([(DEFAULT_ENVIRONMENT.to_string(), actual)]),
                )
            }
            (None, Some(repository)) => {
                if raw.actual.is_some() {
                    return Err(InputError::shape(
                        source,
                        "/actual",
                        "with `repository`, write each cluster under `clusters`",
                    ));
                }
                (repository, BTreeMap::new())
            }
            (Some(_), Some(_)) => {
                return Err(InputError::shape(
                    source,
                    "/repository",
                    "a scenario has `desired` or `repository`, not both",
                ))
            }
            (None, None) => {
                return Err(InputError::shape(
                    source,
                    "",
                    "a scenario needs `desired`, the state Git declares (or a `repository`)",
                ))
            }
        };
        let mut written_at: BTreeMap<String, String> = gitops_core::collect::map_of(
            clusters
                .keys()
                .map(|environment| (environment.clone(), "/actual".to_string())),
        );
        for (environment, value) in raw.clusters {
            let pointer = format!("/clusters/{}", gitops_core::pointer::escape(&environment));
            let state = state_of(source, &pointer, &value)?;
            if let Value::String(text) = value {
                actual_texts.insert(environment.clone(), text);
            }
            written_at.insert(environment.clone(), pointer);
            clusters.insert(environment, state);
        }
        check_layout(source, &repository, raw.options.layout)?;
        let paths = environment_paths(source, &raw.environments, raw.options.layout)?;
        let declared = declared_environments(&repository, &paths, raw.options.layout);
        if declared.is_empty() {
            return Err(InputError::shape(
                source,
                "/repository/files",
                "no file is under `envs/<environment>/` (or, with branches, under a branch's `app/`), so no environment is declared",
            ));
        }
        for (environment, pointer) in &written_at {
            if !declared.iter().any(|(name, _)| name == environment) {
                let names: Vec<&str> = declared.iter().map(|(name, _)| name.as_str()).collect();
                let where_declared = match raw.options.layout {
                    Layout::Directories => "a directory under `envs/` (or `environments`)",
                    Layout::Branches => "a branch",
                };
                return Err(InputError::shape(
                    source,
                    pointer.clone(),
                    format!(
                        "Git declares no environment {environment}: its environments are {}, each {where_declared}; \
                         a cluster is an environment's, so name it after one of them",
                        names.join(", ")
                    ),
                ));
            }
        }
        for (environment, files) in &declared {
            let escaped = gitops_core::pointer::escape(environment);
            let path = match raw.options.layout {
                Layout::Directories => paths.of(environment),
                Layout::Branches => crate::repository::paths::default_path(environment),
            };
            if !crate::repository::paths::exists(files, &path) {
                let at = match raw.environments.get(environment) {
                    Some(spec) if spec.get("path").is_some() => {
                        format!("/environments/{escaped}/path")
                    }
                    Some(_) => format!("/environments/{escaped}"),
                    None => format!("/repository/branches/{escaped}"),
                };
                let place = match raw.options.layout {
                    Layout::Directories => path.clone(),
                    Layout::Branches => format!("app/ of branch {environment}"),
                };
                return Err(InputError::shape(
                    source,
                    at,
                    format!("no file of the first commit is under {place}, so {environment}'s path does not exist (Git keeps no empty directories)"),
                ));
            }
            let desired = crate::repository::desired_state(&mut gitops_core::Workspace::new(), files, &path)
                .map_err(|error| locate_file_error(source, error))?;
            let Some(actual) = clusters.remove(environment) else {
                clusters.insert(environment.clone(), State::empty(desired.form().clone()));
                continue;
            };
            let places = match written_at.get(environment) {
                Some(pointer) if lesson_form && pointer == "/actual" => Places {
                    pointer: pointer.clone(),
                    desired: "`desired`".into(),
                    actual: "`actual`".into(),
                },
                pointer => Places {
                    pointer: pointer.cloned().unwrap_or_default(),
                    desired: match raw.options.layout {
                        Layout::Directories => format!("Git's `{}/`", paths.of(environment)),
                        Layout::Branches => format!("Git's branch {environment}"),
                    },
                    actual: format!("the {environment} cluster"),
                },
            };
            let actual = in_form_of(source, &places, &desired, actual)?;
            let actual = as_the_agent_left_it(actual, &raw.options.application);
            clusters.insert(environment.clone(), actual);
        }
        if raw.options.poll_every == 0 {
            return Err(InputError::shape(
                source,
                "/options/pollEvery",
                "the agent polls every 1 step or more",
            ));
        }
        if let Some((pointer, error)) = raw
            .options
            .retry
            .as_ref()
            .and_then(|retry| retry.unreadable())
        {
            return Err(InputError::shape(
                source,
                format!("/options/retry{pointer}"),
                format!("{error}: a duration is a number of seconds or as Go writes one (5s, 2m, 1h30m)"),
            ));
        }
        if raw.steps.is_some_and(|steps| steps > MAX_STEPS) {
            return Err(InputError::shape(
                source,
                "/steps",
                format!("a scenario runs at most {MAX_STEPS} steps"),
            ));
        }
        let environments: BTreeSet<String> = gitops_core::collect::set_of(clusters.keys().cloned());
        check_controllers(source, &raw.controllers, &environments)?;
        check_script(
            source,
            &raw.script,
            raw.steps,
            &environments,
            &raw.controllers,
            &paths,
        )?;
        check_file_edits(source, &raw.script, &repository)?;
        let last_action = raw.script.iter().map(|step| step.at).max().unwrap_or(0);
        let steps = raw
            .steps
            .unwrap_or(last_action.saturating_add(SETTLE_STEPS).min(MAX_STEPS));
        if let Some(exercise) = &raw.exercise {
            let environments: Vec<String> = environments.iter().cloned().collect();
            exercise.validate(source, &environments)?;
        }
        Ok(Scenario {
            title: raw.title,
            explanation: raw.explanation,
            section: raw.section,
            repository,
            paths,
            clusters,
            actual_texts,
            registry: raw.registry,
            controllers: raw.controllers,
            options: raw.options,
            script: raw.script,
            steps,
            exercise: raw.exercise,
        })
    }
}

/// The state at `pointer` of the scenario file `source`: written as values,
/// or as JSON or YAML text (a `---` stream of manifests, as the panes and
/// `api.js` read one), whose errors say their line and column in that text.
fn state_of(source: &str, pointer: &str, value: &Value) -> Result<State, InputError> {
    let Value::String(text) = value else {
        return State::from_value(source, value.clone()).map_err(|e| e.nested_in(source, pointer));
    };
    State::read(source, text).map_err(|error| match (error.line, error.column) {
        (Some(line), Some(column)) => InputError {
            line: None,
            column: None,
            pointer: Some(pointer.to_string()),
            message: format!("line {line}, column {column} of its text: {}", error.message),
            ..error
        },
        _ => error.nested_in(source, pointer),
    })
}

/// The paths `environments` declares, each a directory of the repository;
/// with a branch per environment, each is its branch's `app/` instead.
fn environment_paths(
    source: &str,
    environments: &BTreeMap<String, Value>,
    layout: Layout,
) -> Result<Paths, InputError> {
    if layout == Layout::Branches && !environments.is_empty() {
        return Err(InputError::shape(
            source,
            "/environments",
            "with `layout: branches` each environment is its branch's `app/`; declare environments by their branches",
        ));
    }
    let mut declared = BTreeMap::new();
    for (environment, spec) in environments {
        let at = format!(
            "/environments/{}",
            gitops_core::pointer::escape(environment)
        );
        let refuse = |at: String, why: String| InputError::shape(source, at, why);
        let fields = match spec {
            Value::Null => Default::default(),
            Value::Object(fields) => fields.clone(),
            other => {
                let why = format!(
                    "an environment is `{{path: apps/{environment}}}`; found {}",
                    gitops_core::state::describe(other)
                );
                return Err(refuse(at, why));
            }
        };
        if let Some(field) = fields.keys().find(|field| *field != "path") {
            let why = format!("unknown field `{field}`; an environment has a `path`");
            return Err(refuse(
                format!("{at}/{}", gitops_core::pointer::escape(field)),
                why,
            ));
        }
        let path = match fields.get("path") {
            None | Some(Value::Null) => crate::repository::paths::default_path(environment),
            Some(Value::String(path)) => crate::repository::paths::normalized(path)
                .map_err(|why| refuse(format!("{at}/path"), why))?,
            Some(other) => {
                let why = format!(
                    "a path is text, found {}",
                    gitops_core::state::describe(other)
                );
                return Err(refuse(format!("{at}/path"), why));
            }
        };
        declared.insert(environment.clone(), path);
    }
    Ok(Paths::declared(declared))
}

/// Branches go with `layout: branches`, and their files live under `app/`.
fn check_layout(
    source: &str,
    repository: &InitialRepository,
    layout: Layout,
) -> Result<(), InputError> {
    if layout == Layout::Directories && !repository.branches.is_empty() {
        return Err(InputError::shape(
            source,
            "/repository/branches",
            "branches per environment need `options.layout: branches`",
        ));
    }
    for (branch, files) in &repository.branches {
        if let Some(path) = files.keys().find(|path| !path.starts_with("app/")) {
            let pointer = format!(
                "/repository/branches/{branch}/{}",
                gitops_core::pointer::escape(path)
            );
            return Err(InputError::shape(
                source,
                pointer,
                format!("a branch holds its environment's files under `app/` (`app/{path}`)"),
            ));
        }
    }
    Ok(())
}

fn check_version(source: &str, version: Option<&Value>) -> Result<(), InputError> {
    match version {
        None => Ok(()),
        Some(Value::Number(number)) if number.as_u64() == Some(SCENARIO_VERSION) => Ok(()),
        Some(other) => Err(InputError::shape(
            source,
            "/version",
            format!("this playground reads scenario version {SCENARIO_VERSION}; found {other}"),
        )),
    }
}

/// A file's error, reported against the scenario at that file.
fn locate_file_error(source: &str, error: InputError) -> InputError {
    let file = gitops_core::pointer::escape(&error.source);
    let prefix = format!("/repository/files/{file}");
    match error.kind {
        ErrorKind::Syntax => {
            let position = match (error.line, error.column) {
                (Some(line), Some(column)) => {
                    format!(" (line {line}, column {column} of the file)")
                }
                _ => String::new(),
            };
            InputError::shape(source, prefix, format!("{}{position}", error.message))
        }
        _ => error.nested_in(source, &prefix),
    }
}

/// Where a state and its desired state are written, for errors.
struct Places {
    /// The pointer of the actual state in the scenario file.
    pointer: String,
    desired: String,
    actual: String,
}

/// An actual state in the form its desired state is written in, since a
/// sync writes desired objects into it: an empty one takes that form, and
/// one that holds objects of the other form is an error.
fn in_form_of(
    source: &str,
    places: &Places,
    desired: &State,
    actual: State,
) -> Result<State, InputError> {
    forms_agree(desired, &places.desired, &actual, &places.actual)
        .map_err(|message| InputError::shape(source, places.pointer.clone(), message))?;
    let named = |state: &State| matches!(state.form(), Form::Named);
    if actual.is_empty() && !desired.is_empty() && named(desired) != named(&actual) {
        return Ok(State::empty(desired.form().clone()));
    }
    Ok(actual)
}

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
fn check_controllers(
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

/// A `set` on a file that is in no commit of Git when it happens: not in the
/// first commit (of any branch), nor written by the script at or before its step.
fn check_file_edits(
    source: &str,
    script: &[ScriptStep],
    repository: &InitialRepository,
) -> Result<(), InputError> {
    use crate::script::ScriptedAction;
    let first_commit = || {
        repository
            .files
            .keys()
            .chain(repository.branches.values().flat_map(|files| files.keys()))
    };
    let written_by = |step: u32| {
        script
            .iter()
            .filter(move |scripted| scripted.at <= step)
            .flat_map(|scripted| match &scripted.action {
                ScriptedAction::Commit { write, .. } | ScriptedAction::OpenPullRequest { write, .. } => {
                    Some(write.keys())
                }
                _ => None,
            })
            .flatten()
    };
    for (index, scripted) in script.iter().enumerate() {
        let (ScriptedAction::Commit { set, .. } | ScriptedAction::OpenPullRequest { set, .. }) = &scripted.action
        else {
            continue;
        };
        for (number, edit) in set.iter().enumerate() {
            let exists = first_commit()
                .chain(written_by(scripted.at))
                .any(|path| *path == edit.file);
            if exists {
                continue;
            }
            let files: BTreeSet<&String> = gitops_core::collect::set_of(first_commit());
            let listed = files.iter().take(8).map(|path| path.as_str()).collect::<Vec<_>>();
            let more = match files.len().saturating_sub(listed.len()) {
                0 => String::new(),
                more => format!(" and {more} more"),
            };
            return Err(InputError::shape(
                source,
                format!("/script/{index}/set/{number}/file"),
                format!(
                    "no commit has a file {} at step {}: Git's first commit has {}{more}, and the \
                     script writes no such file before; name one of them, or `write` the file first",
                    edit.file,
                    scripted.at,
                    listed.join(", ")
                ),
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
fn check_script(
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
                    "this action is at step {}, but a scenario runs at most {MAX_STEPS} steps",
                    scripted.at
                ),
            );
        }
        if let Some(steps) = steps.filter(|steps| scripted.at > *steps) {
            return refuse(
                "at",
                format!(
                    "this action is at step {}, after the last step the scenario runs (`steps: {steps}`), \
                     so it would never happen; move it to step {steps} or earlier, or raise `steps`",
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
            | ScriptedAction::LoseCluster { environment } => (vec![("environment", environment)], vec![]),
            ScriptedAction::UpdateImage { environment, .. } => (vec![], vec![("environment", environment)]),
            ScriptedAction::Promote { from, to, .. } | ScriptedAction::MergeBranch { from, to, .. } => {
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
