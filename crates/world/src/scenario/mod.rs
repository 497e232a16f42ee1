//! Scenario files: the one format `gitops-sim` reads, presets are written
//! in, and share links carry. The lesson's form is a scenario too:
//! `{"desired": ..., "actual": ..., "options": ...}`; a world adds a
//! repository, clusters, a registry, controllers and a script.

pub mod applications;
mod read_options;
mod read_parts;
pub mod retry;
mod validate;

pub use crate::repository::{Files, Layout, Paths, DEFAULT_ENVIRONMENT};

use crate::script::ScriptStep;
use gitops_core::diff::ignore::IgnoreRule;
use gitops_core::diff::flux_labels::{is_labelled_by, with_owner_labels};
use gitops_core::diff::ssa::flux_apply;
use gitops_core::diff::tracking::{with_tracking, TRACKING_ID};
use gitops_core::options::Agent;
use gitops_core::error::{ErrorKind, InputError};
use gitops_core::options::Options;
use gitops_core::state::meta::annotation;
use gitops_core::state::{forms_agree, Form, State};
use gitops_core::text::document;
use gitops_core::text::typed::typed;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub const SCENARIO_VERSION: u64 = 1;

/// Read by `read_parts.rs`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitialRepository {
    pub author: String,
    pub message: String,
    pub files: Files,
    /// With `layout: branches`, the first commit of each environment's branch.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub branches: BTreeMap<String, Files>,
}

fn default_author() -> String {
    "alice".into()
}

fn default_message() -> String {
    "Initial state".into()
}

/// An image in the registry at the start.
/// Read by `read_parts.rs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageSpec {
    /// `repository:tag`.
    pub tag: String,
    /// Its digest; made from the tag when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// The image exits at start: its workloads never become available.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub crashes: bool,
    /// Built by an attacker.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub malicious: bool,
}

/// A controller that writes one field of one object every step, such as an
/// autoscaler setting replicas.
/// Read by `read_parts.rs`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ControllerSpec {
    /// Its name, which is the actor of its events (`autoscaler`).
    pub name: String,
    pub environment: String,
    pub key: String,
    /// The JSON pointer of the field it owns (`/spec/replicas`).
    pub path: String,
    pub value: Value,
    /// Why it writes, for its events (`load needs 5 replicas`).
    #[serde(skip_serializing_if = "String::is_empty")]
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

/// The Application's name when a scenario gives none.
pub const DEFAULT_APPLICATION: &str = "playground";

fn is_default_application(name: &String) -> bool {
    name == DEFAULT_APPLICATION
}

/// A cluster's objects at the start, as the agent left them: each one that
/// carries no mark of the agent's gets the application's, so that what the
/// scenario's clusters hold is the agent's, and what appears later without
/// one (a pod started by hand) is not. Argo CD's mark is its tracking id;
/// Flux's, its owner labels, and the field managers of its server-side apply
/// (`kustomize-controller` owning each field, as its last apply left them).
pub fn as_the_agent_left_it(state: State, application: &str, agent: Agent) -> State {
    if *state.form() == gitops_core::state::Form::Named {
        return state;
    }
    let objects = gitops_core::collect::map_of(state.objects().iter().map(|(key, object)| {
        let stamped = match agent {
            Agent::ArgoCd => match annotation(object, TRACKING_ID) {
                Some(_) => object.value().clone(),
                None => with_tracking(object.view(), application).into_owned(),
            },
            Agent::Flux if is_labelled_by(object.view(), application) => object.value().clone(),
            Agent::Flux => {
                let labelled = with_owner_labels(object.view(), application).into_owned();
                flux_apply(None, &labelled).object
            }
        };
        (key.to_string(), stamped)
    }));
    State::new(state.form().clone(), objects)
}

/// How the world runs: the reconciler's options and the agent's policy.
/// Read by `read_options`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldOptions {
    /// The tool whose agent reconciles: Argo CD (the default) or Flux's
    /// kustomize-controller, each with its own tool's defaults (`agent/`).
    #[serde(skip_serializing_if = "Agent::is_argo_cd")]
    pub agent: Agent,
    pub mode: Mode,
    /// Delete what Git no longer declares (off by default, as in Argo CD; Flux's `prune` has no default).
    pub prune: bool,
    /// Let an automatic sync with prune delete every object when Git
    /// declares none (off by default, as Argo CD's `automated.allowEmpty`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub allow_empty: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<IgnoreRule>,
    /// Argo CD's `RespectIgnoreDifferences=true`: a sync keeps the live value
    /// of fields Argo CD's ignore rules name (else it writes Git's).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub respect_ignore_differences: bool,
    /// The Argo CD Application each environment's agent syncs: its tracking
    /// id is on every object the agent (or CI) applies, and only objects
    /// carrying theirs are the agent's to report and prune.
    #[serde(skip_serializing_if = "is_default_application")]
    pub application: String,
    /// The Application's `destination.namespace`: where Argo CD puts an object
    /// that names no namespace (`NormalizeTargetObjects`); `default` when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// What the Applications in Git (`applications`) say of their
    /// environments, over these options (`of`).
    #[serde(skip)]
    pub applications: Vec<(String, applications::ApplicationSettings)>,
    /// The path of the root Application whose Applications and
    /// ApplicationSets declare the environments (`applications.rs`), which
    /// the world reads again as Git moves (`crate::applications`).
    #[serde(skip)]
    pub applications_root: Option<String>,
    /// argocd-cm's `resource.customizations.health.argoproj.io_Application`,
    /// the health check Argo CD's docs give an Application (its
    /// `status.health.status`): the root Application's sync then waits at
    /// each wave until the Applications of the waves before are Healthy.
    /// Off, as in Argo CD 3.x, an Application has no health and no wave waits
    /// for one (`crate::applications`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub application_health_check: bool,
    /// Argo CD's sync option `ServerSideApply=true`: its sync applies
    /// server-side as `argocd-controller` and compares as that apply merges.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub server_side_apply: bool,
    /// Flux's `spec.force` (as Argo CD's `argocd app sync --force`): an
    /// update the API server refuses deletes and creates the object instead.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub force: bool,
    /// Argo CD's `syncPolicy.retry`: how often, and after how long, a
    /// failed automated sync is tried again; unset, Argo CD's default for
    /// an automated sync (5 times, 5 s doubling to at most 3 min).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<retry::RetryStrategy>,
    /// Sync when Git moves to a new revision.
    pub auto_sync: bool,
    /// Revert changes made to the cluster outside Git.
    pub self_heal: bool,
    /// The agent reads Git every this many steps (Flux's `interval`, of its
    /// GitRepository and of its Kustomization).
    pub poll_every: u32,
    /// Flux's `retryInterval`: the steps after which a failed reconcile is
    /// tried again (its interval when unset).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_interval: Option<u32>,
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
            agent: Agent::ArgoCd,
            mode: Mode::Pull,
            prune: false,
            allow_empty: false,
            ignore: Vec::new(),
            respect_ignore_differences: false,
            application: DEFAULT_APPLICATION.into(),
            namespace: None,
            applications: Vec::new(),
            applications_root: None,
            application_health_check: false,
            server_side_apply: false,
            force: false,
            retry: None,
            auto_sync: true,
            self_heal: true,
            poll_every: 3,
            retry_interval: None,
            webhook: false,
            protected_environments: vec![DEFAULT_ENVIRONMENT.into()],
            require_pull_requests: false,
            trigger: Trigger::Level,
            layout: Layout::Directories,
        }
    }
}

impl WorldOptions {
    /// The options of `environment`: what its Application in Git says, over
    /// these (Argo CD's; Flux reads none of them), its name the application's.
    pub fn of(&self, environment: &str) -> std::borrow::Cow<'_, WorldOptions> {
        let Some((_, settings)) = self.applications.iter().find(|(name, _)| name == environment).filter(|_| self.agent == Agent::ArgoCd) else {
            return std::borrow::Cow::Borrowed(self);
        };
        let automated = settings.automated.unwrap_or_default();
        let says = |option: &str| settings.sync_options.iter().any(|item| item == option);
        std::borrow::Cow::Owned(WorldOptions {
            auto_sync: settings.automated.is_some(),
            prune: automated.prune,
            self_heal: automated.self_heal,
            allow_empty: automated.allow_empty,
            server_side_apply: says("ServerSideApply=true"),
            respect_ignore_differences: says("RespectIgnoreDifferences=true"),
            retry: settings.retry.clone(),
            ignore: settings.ignore.clone(),
            namespace: settings.namespace.clone(),
            application: environment.to_string(),
            applications: Vec::new(),
            ..self.clone()
        })
    }

    /// What the core needs to plan.
    pub fn reconcile(&self) -> Options {
        Options {
            prune: self.prune,
            ignore: self.ignore.clone(),
            respect_ignore_differences: self.respect_ignore_differences,
            application: Some(self.application.clone()),
            force: self.force,
            agent: self.agent,
            server_side_apply: self.server_side_apply,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub title: Option<String>,
    pub explanation: Option<String>,
    pub section: Option<String>,
    pub repository: InitialRepository,
    /// Where each environment's desired state is on the one branch.
    pub paths: Paths,
    /// The actual state of each environment's cluster at the start, as the
    /// scenario writes it: `cluster_at_start` gives it as the agent left it.
    pub clusters: BTreeMap<String, State>,
    /// The clusters' states as the author wrote them, where written as text
    /// (`actual: |`): the page shows that text until it is edited.
    pub actual_texts: BTreeMap<String, String>,
    /// The images in the registry at the start; `None` (no `registry:`
    /// list) is an open registry, holding every image asked for.
    pub registry: Option<Vec<ImageSpec>>,
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
    #[serde(default, deserialize_with = "read_apart")]
    repository: Option<InitialRepository>,
    /// Each declared environment's `{path: ...}` (read in `validate`).
    #[serde(default)]
    environments: BTreeMap<String, Value>,
    /// The path of the root Application whose Applications and
    /// ApplicationSets declare the environments (`applications.rs`).
    applications: Option<String>,
    #[serde(default)]
    clusters: BTreeMap<String, Value>,
    #[serde(default, deserialize_with = "read_apart")]
    registry: Option<Vec<ImageSpec>>,
    #[serde(default, deserialize_with = "read_apart")]
    controllers: Vec<ControllerSpec>,
    /// The options as written, read by `read_options` (`from_raw`).
    #[serde(default, rename = "options")]
    written_options: Option<Value>,
    #[serde(skip)]
    options: WorldOptions,
    #[serde(default, deserialize_with = "read_apart")]
    script: Vec<ScriptStep>,
    steps: Option<u32>,
    #[serde(default, deserialize_with = "read_apart")]
    exercise: Option<crate::exercise::Exercise>,
}

/// A field's reader as a function of its own, not inlined into the scenario's. The
/// browser compiles a function the first time it is called: with every field's reader
/// inlined, the scenario's was one large function that a phone took long to compile
/// as the page started, readers of exercises and registries included where the worked
/// example has neither. `inline(never)` keeps it apart in LLVM; wasm-opt, which inlines
/// any function with one caller by default, keeps it apart because index.html has it
/// inline only small ones (`-ocimfs 100`).
#[inline(never)]
fn read_apart<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(field: D) -> Result<T, D::Error> {
    T::deserialize(field)
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
                    gitops_core::state::describe(&value)
                ),
            ));
        }
        let raw: RawScenario = typed(source, value)?;
        Scenario::from_raw(source, raw)
    }

    /// The environments, in name order.
    pub fn environments(&self) -> Vec<String> {
        self.clusters.keys().cloned().collect()
    }

    /// The first environment's desired and actual states at the start: what
    /// `plan` and `sync` read when no environment is named.
    pub fn initial(&self) -> (State, State) {
        let environment = self
            .clusters
            .keys()
            .next()
            .cloned()
            .unwrap_or_else(default_environment);
        self.initial_of(&environment)
    }

    /// `environment`'s desired and actual states at the start, or which
    /// environments there are when it is not one of them.
    pub fn initial_in(&self, environment: &str) -> Result<(State, State), String> {
        if self.clusters.contains_key(environment) {
            return Ok(self.initial_of(environment));
        }
        Err(format!(
            "the scenario has no environment `{environment}`; it has {}",
            self.environments()
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// The texts an author wrote for `environment`'s Git and cluster, where
    /// they wrote text: its one file of Git, when that file is text, and its
    /// cluster's `actual: |`.
    pub fn author_texts(&self, environment: &str) -> (Option<&str>, Option<&str>) {
        let path = self.path_of(environment);
        let desired = declared_environments(&self.repository, &self.paths, self.options.layout)
            .into_iter()
            .find(|(name, _)| name == environment)
            .and_then(|(_, files)| {
                let mut under = files
                    .into_iter()
                    .filter(|(file, _)| crate::repository::paths::is_under(file, &path));
                match (under.next(), under.next()) {
                    (Some((file, Value::String(_))), None) => Some(file),
                    _ => None,
                }
            })
            .and_then(|file| self.repository_text(environment, &file));
        let actual = self.actual_texts.get(environment).map(String::as_str);
        (desired, actual)
    }

    /// The text of `file` in the first commit that `environment` reads.
    fn repository_text(&self, environment: &str, file: &str) -> Option<&str> {
        let files = match self.options.layout {
            Layout::Directories => &self.repository.files,
            Layout::Branches => self.repository.branches.get(environment)?,
        };
        files.get(file)?.as_str()
    }

    fn initial_of(&self, environment: &str) -> (State, State) {
        let files = declared_environments(&self.repository, &self.paths, self.options.layout)
            .into_iter()
            .find(|(name, _)| name == environment)
            .map(|(_, files)| files)
            .unwrap_or_default();
        let options = self.options.of(environment);
        let desired = crate::repository::flux::desired_under(
            &mut gitops_core::Workspace::new(),
            &files,
            &self.path_of(environment),
            self.options.agent,
            (&options.application, options.namespace.as_deref()),
        )
        .map(|(state, _)| state)
        .unwrap_or_else(|_| State::empty(gitops_core::state::Form::Named));
        let actual = self
            .cluster_at_start(environment)
            .unwrap_or_else(|| State::empty(desired.form().clone()));
        (desired, actual)
    }

    /// `environment`'s cluster at the start, as the scenario's agent left it
    /// (`as_the_agent_left_it`).
    pub fn cluster_at_start(&self, environment: &str) -> Option<State> {
        let state = self.clusters.get(environment)?;
        // What Argo CD left there, it left in its destination namespace.
        let state = match (&self.options.of(environment).namespace, self.options.agent) {
            (Some(destination), Agent::ArgoCd) => crate::repository::flux::placed(state, destination),
            _ => state.clone(),
        };
        Some(as_the_agent_left_it(state, &self.options.of(environment).application, self.options.agent))
    }
}

impl Scenario {
    /// The directory `environment`'s desired state is read from in the
    /// files `declared_environments` gives it.
    fn path_of(&self, environment: &str) -> String {
        match self.options.layout {
            Layout::Directories => self.paths.of(environment),
            Layout::Branches => crate::repository::paths::default_path(environment),
        }
    }
}

/// Each environment the repository declares, with its files (with a
/// branch per environment, as `envs/<environment>/` files).
fn declared_environments(
    repository: &InitialRepository,
    paths: &Paths,
    layout: Layout,
) -> Vec<(String, Files)> {
    match layout {
        Layout::Directories => paths
            .environments(&repository.files)
            .into_iter()
            .map(|environment| (environment, repository.files.clone()))
            .collect(),
        Layout::Branches => repository
            .branches
            .iter()
            .map(|(branch, files)| {
                (
                    branch.clone(),
                    crate::repository::branch_view(branch, files),
                )
            })
            .collect(),
    }
}

/// Ignore rules read as `options.ignore` and an Application's `ignoreDifferences`
/// are, each rule's error at the rule.
#[derive(Deserialize)]
pub(crate) struct IgnoreRules(#[serde(deserialize_with = "gitops_core::diff::ignore::deserialize_rules")] pub Vec<IgnoreRule>);
