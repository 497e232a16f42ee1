//! Scenario files: the one format `gitops-sim` reads, presets are written
//! in, and share links carry. The lesson's form is a scenario too:
//! `{"desired": ..., "actual": ..., "options": ...}`; a world adds a
//! repository, clusters, a registry, controllers and a script.

use super::script::ScriptStep;
use crate::core::document;
use crate::core::error::{ErrorKind, InputError};
use crate::core::ignore::IgnoreRule;
use crate::core::options::Options;
use crate::core::pointer;
use crate::core::state::{forms_agree, Form, State};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub const SCENARIO_VERSION: u64 = 1;

/// The environment that `desired` and `actual` stand for.
pub const DEFAULT_ENVIRONMENT: &str = "prod";

/// A repository's files: path to content, a JSON value or a text (JSON or
/// YAML, possibly broken on purpose).
pub type Files = BTreeMap<String, Value>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InitialRepository {
    #[serde(default = "default_author")]
    pub author: String,
    #[serde(default = "default_message")]
    pub message: String,
    #[serde(default)]
    pub files: Files,
    /// With `layout: branches`, the first commit of each environment's branch.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub branches: BTreeMap<String, Files>,
}

fn default_author() -> String {
    "alice".into()
}

fn default_message() -> String {
    "Initial state".into()
}

/// An image in the registry at the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ImageSpec {
    /// `repository:tag`.
    pub tag: String,
    /// Its digest; made from the tag when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// The image exits at start: its workloads never become available.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub crashes: bool,
    /// Built by an attacker.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub malicious: bool,
}

/// A controller that writes one field of one object every step, such as an
/// autoscaler setting replicas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ControllerSpec {
    /// Its name, which is the actor of its events (`autoscaler`).
    pub name: String,
    #[serde(default = "default_environment")]
    pub environment: String,
    pub key: String,
    /// The JSON pointer of the field it owns (`/spec/replicas`).
    pub path: String,
    pub value: Value,
    /// Why it writes, for its events (`load needs 5 replicas`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

fn default_environment() -> String {
    DEFAULT_ENVIRONMENT.into()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Mode {
    /// An agent in the cluster pulls Git; CI only builds and proposes.
    #[default]
    Pull,
    /// CI holds cluster credentials and applies on every commit.
    Push,
}

/// Where each environment's desired state lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Layout {
    /// One branch, a directory per environment (`envs/<environment>/`).
    #[default]
    Directories,
    /// A branch per environment, each with its `app/` directory.
    Branches,
}

/// What makes the agent act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Trigger {
    /// It recomputes the whole difference every pass (how real reconcilers work).
    #[default]
    Level,
    /// It replays the events it receives while running, and nothing else.
    Edge,
}

/// How the world runs: the reconciler's options and the agent's policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", default)]
pub struct WorldOptions {
    pub mode: Mode,
    /// Delete what Git no longer declares (off by default, as in Argo CD and Flux).
    pub prune: bool,
    /// Let an automatic sync with prune delete every object when Git
    /// declares none (off by default, as Argo CD's `automated.allowEmpty`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub allow_empty: bool,
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::core::ignore::deserialize_rules"
    )]
    pub ignore: Vec<IgnoreRule>,
    /// Sync when Git moves to a new revision.
    pub auto_sync: bool,
    /// Revert changes made to the cluster outside Git.
    pub self_heal: bool,
    /// The agent reads Git every this many steps.
    pub poll_every: u32,
    /// Git tells the agent about a commit at once.
    pub webhook: bool,
    /// Environments whose pull requests need an approval by someone other than the author.
    pub protected_environments: Vec<String>,
    /// A person's edits of a protected environment open a pull request
    /// instead of committing (branch protection).
    pub require_pull_requests: bool,
    /// Level-triggered (the default) or edge-triggered, for contrast.
    pub trigger: Trigger,
    /// Directories on one branch (the default) or a branch per environment.
    pub layout: Layout,
}

impl Default for WorldOptions {
    fn default() -> Self {
        WorldOptions {
            mode: Mode::Pull,
            prune: false,
            allow_empty: false,
            ignore: Vec::new(),
            auto_sync: true,
            self_heal: true,
            poll_every: 3,
            webhook: false,
            protected_environments: vec![DEFAULT_ENVIRONMENT.into()],
            require_pull_requests: false,
            trigger: Trigger::Level,
            layout: Layout::Directories,
        }
    }
}

impl WorldOptions {
    /// What the core needs to plan.
    pub fn reconcile(&self) -> Options {
        Options {
            prune: self.prune,
            ignore: self.ignore.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub title: Option<String>,
    pub explanation: Option<String>,
    pub section: Option<String>,
    pub repository: InitialRepository,
    /// The actual state of each environment's cluster at the start.
    pub clusters: BTreeMap<String, State>,
    pub registry: Vec<ImageSpec>,
    pub controllers: Vec<ControllerSpec>,
    pub options: WorldOptions,
    pub script: Vec<ScriptStep>,
    /// How many steps `run` takes after the start.
    pub steps: u32,
    /// The exercise this scenario is the start of, if it is one.
    pub exercise: Option<crate::exercise::Exercise>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawScenario {
    version: Option<Value>,
    title: Option<String>,
    explanation: Option<String>,
    section: Option<String>,
    desired: Option<Value>,
    actual: Option<Value>,
    repository: Option<InitialRepository>,
    #[serde(default)]
    clusters: BTreeMap<String, Value>,
    #[serde(default)]
    registry: Vec<ImageSpec>,
    #[serde(default)]
    controllers: Vec<ControllerSpec>,
    #[serde(default)]
    options: WorldOptions,
    #[serde(default)]
    script: Vec<ScriptStep>,
    steps: Option<u32>,
    exercise: Option<crate::exercise::Exercise>,
}

/// Steps a run takes after the last scripted action, when `steps` is left out.
const SETTLE_STEPS: u32 = 6;

/// The most steps a scenario may run, so that no file can hang a page.
pub const MAX_STEPS: u32 = 10_000;

/// How many steps time may run on after a scenario's last step.
pub const MAX_STEPS_AFTER_SCRIPT: u32 = 100;

impl Scenario {
    /// Reads a scenario from JSON or YAML text; `source` (a file name) names it in errors.
    pub fn parse(source: &str, text: &str) -> Result<Self, InputError> {
        let value = document::parse_one(source, text)?;
        if !value.is_object() {
            return Err(InputError::shape(
                source,
                "",
                format!(
                    "a scenario is an object with `desired` (or `repository`), `actual` and `options`; found {}",
                    crate::core::state::describe(&value)
                ),
            ));
        }
        let raw: RawScenario = serde_path_to_error::deserialize(value).map_err(|error| {
            let pointer = pointer::of_serde_path(error.path());
            InputError::shape(source, pointer, error.into_inner().to_string())
        })?;
        Scenario::from_raw(source, raw)
    }

    fn from_raw(source: &str, raw: RawScenario) -> Result<Self, InputError> {
        check_version(source, raw.version.as_ref())?;
        let lesson_form = raw.desired.is_some();
        let (repository, mut clusters) = match (raw.desired, raw.repository) {
            (Some(desired), None) => {
                let state = State::from_value("desired", desired.clone())
                    .map_err(|e| e.nested_in(source, "/desired"))?;
                let actual = match raw.actual {
                    Some(actual) => State::from_value("actual", actual)
                        .map_err(|e| e.nested_in(source, "/actual"))?,
                    None => State::empty(state.form().clone()),
                };
                let files = Files::from([(
                    format!("envs/{DEFAULT_ENVIRONMENT}/manifests.json"),
                    desired,
                )]);
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
        let mut written_at: BTreeMap<String, String> = clusters
            .keys()
            .map(|environment| (environment.clone(), "/actual".to_string()))
            .collect();
        for (environment, value) in raw.clusters {
            let pointer = format!("/clusters/{}", crate::core::pointer::escape(&environment));
            let state = State::from_value(&environment, value)
                .map_err(|e| e.nested_in(source, &pointer))?;
            written_at.insert(environment.clone(), pointer);
            clusters.insert(environment, state);
        }
        check_layout(source, &repository, raw.options.layout)?;
        let declared = declared_environments(&repository, raw.options.layout);
        if declared.is_empty() {
            return Err(InputError::shape(
                source,
                "/repository/files",
                "no file is under `envs/<environment>/` (or, with branches, under a branch's `app/`), so no environment is declared",
            ));
        }
        for (environment, files) in &declared {
            let desired = super::repository::desired_state(files, environment)
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
                        Layout::Directories => format!("Git's `envs/{environment}/`"),
                        Layout::Branches => format!("Git's branch {environment}"),
                    },
                    actual: format!("the {environment} cluster"),
                },
            };
            let actual = in_form_of(source, &places, &desired, actual)?;
            clusters.insert(environment.clone(), actual);
        }
        if raw.options.poll_every == 0 {
            return Err(InputError::shape(
                source,
                "/options/pollEvery",
                "the agent polls every 1 step or more",
            ));
        }
        if raw.steps.is_some_and(|steps| steps > MAX_STEPS) {
            return Err(InputError::shape(
                source,
                "/steps",
                format!("a scenario runs at most {MAX_STEPS} steps"),
            ));
        }
        let environments: BTreeSet<String> = clusters.keys().cloned().collect();
        check_controllers(source, &raw.controllers, &environments)?;
        check_script(
            source,
            &raw.script,
            raw.steps,
            &environments,
            &raw.controllers,
        )?;
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
            clusters,
            registry: raw.registry,
            controllers: raw.controllers,
            options: raw.options,
            script: raw.script,
            steps,
            exercise: raw.exercise,
        })
    }

    /// The environments, in name order.
    pub fn environments(&self) -> Vec<String> {
        self.clusters.keys().cloned().collect()
    }

    /// The first environment's desired and actual states at the start: what
    /// `plan` and `sync` read.
    pub fn initial(&self) -> (State, State) {
        let environment = self
            .clusters
            .keys()
            .next()
            .cloned()
            .unwrap_or_else(default_environment);
        let files = declared_environments(&self.repository, self.options.layout)
            .into_iter()
            .find(|(name, _)| *name == environment)
            .map(|(_, files)| files)
            .unwrap_or_default();
        let desired = super::repository::desired_state(&files, &environment)
            .unwrap_or_else(|_| State::empty(crate::core::state::Form::Named));
        let actual = self
            .clusters
            .get(&environment)
            .cloned()
            .unwrap_or_else(|| State::empty(desired.form().clone()));
        (desired, actual)
    }
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
                crate::core::pointer::escape(path)
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

/// Each environment the repository declares, with its files as
/// `envs/<environment>/` files.
fn declared_environments(repository: &InitialRepository, layout: Layout) -> Vec<(String, Files)> {
    match layout {
        Layout::Directories => super::repository::environments_of(&repository.files)
            .into_iter()
            .map(|environment| (environment, repository.files.clone()))
            .collect(),
        Layout::Branches => repository
            .branches
            .iter()
            .map(|(branch, files)| {
                (
                    branch.clone(),
                    super::repository::branch_view(branch, files),
                )
            })
            .collect(),
    }
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
    let file = crate::core::pointer::escape(&error.source);
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
    crate::core::pointer::Pattern::parse(path)
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
) -> Result<(), InputError> {
    use super::script::Action;
    // Environments in Git may also come from the script's own commits.
    let mut in_git = environments.clone();
    for scripted in script {
        match &scripted.action {
            Action::Commit { branch, write, .. } => {
                in_git.extend(branch.iter().cloned());
                in_git.extend(
                    write
                        .keys()
                        .filter_map(|path| super::repository::environment_of(path))
                        .map(str::to_string),
                );
            }
            Action::OpenPullRequest { write, .. } => in_git.extend(
                write
                    .keys()
                    .filter_map(|path| super::repository::environment_of(path))
                    .map(str::to_string),
            ),
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
            Action::EditCluster { environment, .. }
            | Action::CiApply { environment, .. }
            | Action::Restart { environment, .. }
            | Action::Sync { environment, .. }
            | Action::SetCluster { environment, .. }
            | Action::ApplyNext { environment, .. }
            | Action::LoseCluster { environment } => (vec![("environment", environment)], vec![]),
            Action::UpdateImage { environment, .. } => (vec![], vec![("environment", environment)]),
            Action::Promote { from, to, .. } | Action::MergeBranch { from, to, .. } => {
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
            Action::SetController { name, .. }
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
            Action::Commit { set, .. } | Action::OpenPullRequest { set, .. } => {
                for (number, edit) in set.iter().enumerate() {
                    if let Some(problem) = pointer_problem(&edit.path) {
                        return refuse(&format!("set/{number}/path"), problem);
                    }
                }
            }
            Action::EditCluster { path, .. } | Action::CiApply { path, .. } => {
                if let Some(problem) = pointer_problem(path) {
                    return refuse("path", problem);
                }
            }
            _ => {}
        }
    }
    Ok(())
}
