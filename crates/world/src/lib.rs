//! The simulated world: a state repository, an image registry, clusters
//! with their controllers, CI and the agent, advancing step by step. Plain
//! Rust beside the core, with no web dependency; deterministic: the same
//! scenario gives the same events every time.

// An `InputError` is large, but errors are rare and never on a hot path.
#![allow(clippy::result_large_err)]

mod actions;
pub mod agent;
mod applications;
pub mod attempt;
mod ci;
pub mod cluster;
pub mod credentials;
mod edits;
pub mod durations;
mod image_changes;
pub mod event;
pub mod exercise;
pub mod person;
pub mod registry;
pub mod repository;
pub mod save;
pub mod scenario;
pub mod script;
mod secrets;
pub mod share;
pub mod summary;
pub mod workspace;
mod working_files;
pub use working_files::file_text;

use agent::Agent;
use cluster::Cluster;
use event::Event;
use gitops_core::error::InputError;
use gitops_core::state::State;
use gitops_core::text::edit::SharedText;
use registry::Registry;
use repository::Repository;
use scenario::{ControllerSpec, Files, Mode, Scenario, WorldOptions};
use script::ScriptStep;
use std::collections::BTreeMap;
use std::rc::Rc;
use workspace::SharedWorkspace;

#[derive(Debug, Clone, PartialEq)]
pub struct World {
    /// The step last run (0 before the start, too).
    pub step: u32,
    /// Whether step 0 has run.
    pub started: bool,
    /// The last step the scenario runs.
    pub steps: u32,
    pub repository: Repository,
    pub registry: Registry,
    pub clusters: BTreeMap<String, Cluster>,
    /// The agent, in pull mode.
    pub agent: Option<Agent>,
    pub controllers: Vec<ControllerSpec>,
    pub options: WorldOptions,
    pub events: Vec<Event>,
    /// The actions, scripted or a person's, that did nothing (they were
    /// refused, failed, or found nothing to do): the index in `events` of
    /// the event that says why, in order. `gitops-sim run --strict` names
    /// them, and the page's checklist.
    pub did_nothing: Vec<usize>,
    script: Vec<ScriptStep>,
    /// The person's edit burst in progress, which the next edit of the
    /// same kind amends.
    editing: Option<edits::Burst>,
    /// The person's working copies: what they typed in the Desired pane of an
    /// environment and have not committed yet, which Git does not hold.
    drafts: Vec<(String, SharedText)>,
    /// The person's working copies of files of Git, by environment and path
    /// (`working_files.rs`).
    file_drafts: Vec<(String, String, SharedText)>,
    /// Git moved during the last step (for push-mode CI, and for a webhook
    /// the agent hears at the next step).
    committed: bool,
    /// What the world remembers of its reads and reports (`workspace.rs`).
    pub workspace: SharedWorkspace,
    /// The clusters at the start as the scenario writes them, before an agent
    /// left its marks (`Scenario::cluster_at_start`): what a change of agent
    /// before the start stamps again.
    written_clusters: Rc<BTreeMap<String, State>>,
    /// The revision the Applications in Git were last read at (`applications.rs`).
    applications_read: Option<String>,
    /// Where the root Application's sync of its children stands (`applications.rs`).
    root_sync: applications::RootSync,
    /// The controllers (by index) that said their object is not there, until it is.
    controllers_without_object: Vec<usize>,
}

impl World {
    /// The world at the start of a scenario, before step 0 has run.
    pub fn new(scenario: &Scenario) -> Self {
        let environments = scenario.environments();
        let clusters =
            gitops_core::collect::map_of(scenario.clusters.keys().filter_map(|environment| {
                let state = scenario.cluster_at_start(environment)?;
                Some((environment.clone(), Cluster::new(environment, state)))
            }));
        let initial = &scenario.repository;
        let mut repository = Repository::new(
            &initial.author,
            &initial.message,
            initial.files.clone(),
            scenario.options.protected_environments.clone(),
        )
        .with_paths(scenario.paths.clone());
        for (branch, files) in &initial.branches {
            repository.create_branch(branch, &initial.author, &initial.message, files.clone(), 0);
        }
        World {
            step: 0,
            started: false,
            steps: scenario.steps,
            repository,
            registry: Registry::new(scenario.registry.as_deref()),
            clusters,
            agent: (scenario.options.mode == Mode::Pull).then(|| Agent::new(&environments)),
            controllers: scenario.controllers.clone(),
            options: scenario.options.clone(),
            events: Vec::new(),
            did_nothing: Vec::new(),
            script: scenario.script.clone(),
            editing: None,
            drafts: Vec::new(),
            file_drafts: Vec::new(),
            committed: false,
            workspace: SharedWorkspace::default(),
            written_clusters: Rc::new(scenario.clusters.clone()),
            controllers_without_object: Vec::new(),
            applications_read: None,
            root_sync: applications::RootSync::default(),
        }
    }

    /// The commit `environment` follows and its files as
    /// `envs/<environment>/` files, in either layout.
    pub fn desired_files(&self, environment: &str) -> (&repository::Commit, Rc<Files>) {
        self.repository
            .environment_files(environment, self.options.layout)
    }

    /// Where Git keeps `environment`: `envs/prod` (or the path the scenario
    /// declares), or `branch prod, app/`.
    pub fn source_of(&self, environment: &str) -> String {
        match self.options.layout {
            scenario::Layout::Directories => self.repository.paths().of(environment),
            scenario::Layout::Branches => format!("branch {environment}, app/"),
        }
    }

    /// The directory `environment`'s desired state is read from in the
    /// files `desired_files` gives.
    pub fn desired_path(&self, environment: &str) -> String {
        self.repository.path_of(environment, self.options.layout)
    }

    /// Whether kustomize builds `environment` at the commit it follows: a
    /// `kustomization.yaml`, or under Flux's agent the Kustomizations in its
    /// directory (whose files a commit of the built state would overwrite).
    pub fn is_kustomized(&self, environment: &str) -> bool {
        let files = self.desired_files(environment).1;
        matches!(repository::kustomize::kustomization_file(&files, &self.desired_path(environment)), Ok(Some(_)))
            || !self.kustomizations_in_git(environment).is_empty()
    }

    /// The Kustomizations Git declares in `environment`'s directory at the commit
    /// it follows, as Flux's agent reads them; none under Argo CD's, or where the
    /// directory does not read.
    fn kustomizations_in_git(&self, environment: &str) -> Vec<repository::flux::KustomizationSpec> {
        let files = self.desired_files(environment).1;
        let directory = self.desired_path(environment);
        let options = &self.options;
        self.workspace
            .with(|workspace| repository::flux::desired_under(workspace, &files, &directory, options.agent, (&options.application, options.namespace.as_deref())))
            .map(|(_, kustomizations)| kustomizations)
            .unwrap_or_default()
    }

    /// The core's options for `environment`: the scenario's, and under Flux's
    /// agent the ignore rules of the Kustomizations Git declares there
    /// (`spec.ignore`), as its agent compares.
    pub fn reconcile_options(&self, environment: &str) -> gitops_core::Options {
        let mut options = self.options.of(environment).reconcile();
        if self.options.agent == gitops_core::options::Agent::Flux {
            repository::flux::with_kustomization_ignore(&mut options, &self.kustomizations_in_git(environment));
        }
        options
    }

    /// The desired state of `environment` at the commit it follows.
    pub fn desired_state(&self, environment: &str) -> Result<State, InputError> {
        let files = self.desired_files(environment).1;
        self.rendered(environment, &files, &self.desired_path(environment))
    }

    /// What an environment whose directory is `directory` in `files` declares,
    /// as the agent reads it (under Flux's, what its Kustomizations apply:
    /// `repository::flux`).
    pub fn rendered(&self, environment: &str, files: &Files, directory: &str) -> Result<State, InputError> {
        let options = &*self.options.of(environment);
        self.workspace.with(|workspace| {
            repository::flux::desired_under(workspace, files, directory, options.agent, (&options.application, options.namespace.as_deref()))
                .map(|(state, _)| state)
        })
    }

    /// Runs every step of a scenario: step 0 and `scenario.steps` more.
    pub fn run(scenario: &Scenario) -> Self {
        let mut world = World::new(scenario);
        while world.step < scenario.steps || !world.started {
            world.next_step();
        }
        world
    }

    /// Runs the next step: step 0 first.
    pub fn next_step(&mut self) {
        self.editing = None;
        let next = if self.started { self.step + 1 } else { 0 };
        self.started = true;
        self.advance(next);
    }

    /// Does `action` now, at the current step, as a scripted actor would
    /// (in push mode, CI deploys what it commits).
    /// The operation it applied to a cluster, if it applied one.
    pub fn perform(&mut self, action: &script::ScriptedAction) -> Option<gitops_core::Operation> {
        self.editing = None;
        self.forget_applied();
        let committed_before = std::mem::take(&mut self.committed);
        let applied = self.act(self.step, action);
        if self.committed && self.options.mode == Mode::Push {
            let from = self.events.len();
            self.ci_deploy(self.step);
            self.name_credentials(from);
        }
        if self.committed {
            self.notify(agent::Notice::GitMoved);
        }
        self.committed |= committed_before;
        applied
    }

    /// One step: the agent observes the world as the last step left it and
    /// acts; then the scripted actors act (and, in push mode, CI deploys what
    /// they committed); then the controllers and the kubelet.
    fn advance(&mut self, step: u32) {
        self.step = step;
        self.forget_applied();
        let from = self.events.len();
        let webhook = self.options.webhook && self.committed;
        self.follow_applications(step, webhook || step.is_multiple_of(self.options.poll_every));
        self.sync_root_application(step);
        if let Some(agent) = self.agent.as_mut() {
            let events = self.workspace.with(|workspace| {
                agent.reconcile(
                    workspace,
                    step,
                    &self.repository,
                    &mut self.clusters,
                    &self.options,
                    webhook,
                )
            });
            self.events.extend(events);
        }
        self.committed = step == 0;
        let actions: Vec<ScriptStep> = self
            .script
            .iter()
            .filter(|scripted| scripted.at == step)
            .cloned()
            .collect();
        for scripted in actions {
            self.act(step, &scripted.action);
        }
        if self.committed && self.options.mode == Mode::Push {
            self.ci_deploy(step);
        }
        if self.committed {
            self.notify(agent::Notice::GitMoved);
        }
        self.run_controllers(step);
        for cluster in self.clusters.values_mut() {
            let events = cluster.external_secrets(step);
            self.events.extend(events);
            let events = cluster.kubelet(&self.registry, step);
            self.events.extend(events);
            let events = cluster.disruption_budgets(step);
            self.events.extend(events);
        }
        self.name_credentials(from);
    }

    /// A new act begins: what the last one applied is no longer just done.
    fn forget_applied(&mut self) {
        for cluster in self.clusters.values_mut() {
            cluster.applied.clear();
        }
    }

    /// Names the credential each event from `from` on used.
    fn name_credentials(&mut self, from: usize) {
        let mode = self.options.mode;
        for event in self.events.iter_mut().skip(from) {
            credentials::name_credential(event, None, mode);
        }
    }

    /// Tells the agent, if there is one and it runs, what happened.
    fn notify(&mut self, notice: agent::Notice) {
        if let Some(agent) = self.agent.as_mut() {
            agent.notify(notice);
        }
    }

    fn run_controllers(&mut self, step: u32) {
        let mut changed = Vec::new();
        for (index, controller) in self.controllers.iter().enumerate() {
            let Some(cluster) = self.clusters.get_mut(&controller.environment) else {
                continue;
            };
            let told = self.controllers_without_object.iter().position(|told| *told == index);
            let Some(current) = cluster.actual().get(&controller.key) else {
                if told.is_none() {
                    self.controllers_without_object.push(index);
                    let what = format!(
                        "found no {} in {}, whose {} it sets",
                        controller.key, controller.environment, controller.path
                    );
                    self.events.push(
                        Event::new(step, &controller.name, what)
                            .because("the object whose field it owns is not in the cluster (an autoscaler says FailedGetScale); it sets the field once the object is there")
                            .in_cluster(&controller.environment),
                    );
                }
                continue;
            };
            if let Some(at) = told {
                self.controllers_without_object.remove(at);
            }
            if current.pointer(&controller.path) == Some(&controller.value) {
                continue;
            }
            let old = current.pointer(&controller.path).cloned();
            if cluster
                .set_field(
                    &controller.key,
                    &controller.path,
                    controller.value.clone(),
                    cluster::Writer::controller(&controller.name, &controller.path),
                )
                .is_ok()
            {
                let old = old.map_or("absent".into(), |value| value.to_string());
                let what = format!(
                    "set {} in {} at {} ({old} → {})",
                    controller.key, controller.environment, controller.path, controller.value
                );
                self.events.push(
                    Event::new(step, &controller.name, what)
                        .because(controller.reason.clone())
                        .in_cluster(&controller.environment),
                );
                changed.push(agent::Notice::Changed {
                    environment: controller.environment.clone(),
                    key: controller.key.clone(),
                });
            }
        }
        for notice in changed {
            self.notify(notice);
        }
    }
}
