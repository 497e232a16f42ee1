//! The agent of the pull model: inside the cluster, it reads Git (every few
//! steps, or when a webhook says Git moved), compares, and syncs as its
//! policy says. When it cannot do its job it says so, in its own health and
//! last error, and an alert fires: "merged but nothing happened" is visible.

use crate::cluster::Cluster;
use crate::event::{Event, Place};
use crate::repository::flux::desired_under;
use crate::repository::Repository;
use crate::scenario::{Trigger, WorldOptions};
use gitops_core::Workspace;
use gitops_core::state::State;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What the agent knows about one environment.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Application {
    /// Git declares it no longer (`crate::applications`): the agent leaves its environment.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// The root Application has not created it yet: its wave waits for the
    /// Applications of the waves before to be Healthy (`crate::applications`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pending: bool,
    /// The revision whose desired state the agent compares with.
    pub target_revision: Option<String>,
    /// The revision it last synced.
    pub synced_revision: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    #[serde(skip)]
    target: Option<State>,
    /// The drift last reported without acting, so it is reported once.
    #[serde(skip)]
    reported: Option<String>,
    /// A sync runs wave by wave: true while later waves wait.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub syncing: bool,
    /// The desired state and revision of the sync in progress: a commit that
    /// lands meanwhile changes `target`, not the running operation.
    #[serde(skip)]
    operation: Option<(State, String)>,
    /// What the sync last waited for, so it is reported once.
    #[serde(skip)]
    waiting: Option<String>,
    /// The revision whose sync failed: not synced again automatically.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_revision: Option<String>,
    /// Why the sync of `failed_revision` failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sync_error: Option<String>,
    /// A failed automated sync waiting to be tried again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<Retry>,
    /// Self-heal waits until this step to revert again (its backoff).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_heal_at: Option<u32>,
    /// The reverts of this revision so far (Argo CD's `SelfHealAttemptsCount`).
    #[serde(skip)]
    reverts: u32,
    /// The step the last sync ended at (Argo CD's `FinishedAt`).
    #[serde(skip)]
    last_sync: Option<u32>,
    /// The sync in progress was asked for by a person (retried only with
    /// the option retry).
    #[serde(skip)]
    by_hand: bool,
    /// The hooks of the sync in progress, when it runs any.
    #[serde(skip)]
    hooks: Option<sync_phases::HookRun>,
    /// Under Flux's agent, the status of each of the environment's
    /// Kustomizations, in the order they reconcile.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kustomizations: Vec<flux::Kustomization>,
    /// Under Flux's agent, the Kustomizations Git declares in the
    /// environment's directory, read with `target` (none: the root alone).
    #[serde(skip)]
    flux_layout: Vec<crate::repository::flux::KustomizationSpec>,
}

impl Application {
    pub fn target(&self) -> Option<&State> {
        self.target.as_ref()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum AgentHealth {
    Healthy,
    Degraded,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Agent {
    pub running: bool,
    pub has_access: bool,
    pub health: AgentHealth,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    pub applications: BTreeMap<String, Application>,
    /// Environments a person asked to sync now.
    #[serde(skip)]
    sync_requests: BTreeSet<String>,
    #[serde(skip)]
    fetched_once: bool,
    /// What it was told while running (an edge-triggered agent acts only on these).
    #[serde(skip)]
    inbox: Vec<Notice>,
}

/// A notification an agent receives while it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Git moved (a webhook).
    GitMoved,
    /// Someone changed this object of this environment's cluster.
    Changed { environment: String, key: String },
}

impl Agent {
    pub fn new(environments: &[String]) -> Self {
        Agent {
            running: true,
            has_access: true,
            health: AgentHealth::Healthy,
            last_error: None,
            applications: gitops_core::collect::map_of(
                environments
                    .iter()
                    .map(|environment| (environment.clone(), Application::default())),
            ),
            sync_requests: BTreeSet::new(),
            fetched_once: false,
            inbox: Vec::new(),
        }
    }

    /// Tells the agent something happened; a stopped agent misses it.
    pub fn notify(&mut self, notice: Notice) {
        if self.running {
            self.inbox.push(notice);
        }
    }

    /// A new agent for `environment` (its cluster was rebuilt): it knows nothing yet.
    pub fn forget(&mut self, environment: &str) {
        self.applications
            .insert(environment.to_string(), Application::default());
        self.fetched_once = false;
    }

    /// The environments whose Application it syncs.
    fn synced_environments(&self) -> Vec<String> {
        self.applications.iter().filter(|(_, application)| !application.deleted && !application.pending).map(|(environment, _)| environment.clone()).collect()
    }

    pub fn request_sync(&mut self, environment: &str) {
        self.sync_requests.insert(environment.to_string());
    }

    /// One pass of the control loop: observe, compare, act.
    pub fn reconcile(
        &mut self,
        workspace: &mut Workspace,
        step: u32,
        repository: &Repository,
        clusters: &mut BTreeMap<String, Cluster>,
        options: &WorldOptions,
        webhook: bool,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        if !self.running {
            return events;
        }
        let flux = options.agent == gitops_core::options::Agent::Flux;
        if options.trigger == Trigger::Edge && self.fetched_once && !flux {
            self.reconcile_edge(step, workspace, repository, clusters, options, &mut events);
            self.update_health(step, &mut events);
            return events;
        }
        self.inbox.clear();
        let poll = !self.fetched_once || webhook || step.is_multiple_of(options.poll_every);
        for environment in self.synced_environments() {
            let Some(cluster) = clusters.get_mut(&environment) else {
                continue;
            };
            let options = &*options.of(&environment);
            let manual = self.sync_requests.remove(&environment);
            if poll || manual {
                self.fetch(
                    workspace,
                    step,
                    &environment,
                    repository,
                    options,
                    webhook,
                    &mut events,
                );
            }
            if flux {
                self.reconcile_flux(workspace, step, &environment, cluster, options, manual, &mut events);
            } else {
                self.act(workspace, step, &environment, cluster, options, manual, &mut events);
            }
        }
        self.fetched_once = true;
        self.update_health(step, &mut events);
        events
    }

    /// Reads Git: the environment's desired state at the head, if it reads.
    fn fetch(
        &mut self,
        workspace: &mut Workspace,
        step: u32,
        environment: &str,
        repository: &Repository,
        options: &WorldOptions,
        webhook: bool,
        events: &mut Vec<Event>,
    ) {
        let layout = options.layout;
        let has_access = self.has_access;
        let application = self
            .applications
            .entry(environment.to_string())
            .or_default();
        if !has_access {
            let error = "cannot read the state repository: access denied".to_string();
            if application.last_error.as_ref() != Some(&error) {
                events.push(
                    Event::new(step, "agent", format!("{environment}: {error}"))
                        .because("its credentials for Git were revoked")
                        .at(Place::Git)
                        .refused(),
                );
                application.last_error = Some(error);
            }
            return;
        }
        let (head, files) = repository.environment_files(environment, layout);
        let directory = repository.path_of(environment, layout);
        if application.target_revision.as_deref() == Some(head.id.as_str())
            && application.last_error.is_none()
        {
            return;
        }
        match desired_under(workspace, &files, &directory, options.agent, (&options.application, options.namespace.as_deref())) {
            Ok((state, flux_layout)) => {
                application.flux_layout = flux_layout;
                let changed = application.target.as_ref() != Some(&state);
                if application.last_error.take().is_some() {
                    events.push(
                        Event::new(
                            step,
                            "agent",
                            format!("{environment}: reads Git again at revision {}", head.id),
                        )
                        .because("the error is fixed"),
                    );
                }
                if changed {
                    let how = if webhook {
                        "a webhook said Git moved"
                    } else {
                        "it polls Git"
                    };
                    events.push(
                        Event::new(
                            step,
                            "agent",
                            format!(
                                "{environment}: fetched revision {} ({})",
                                head.id, head.message
                            ),
                        )
                        .because(how)
                        .at(Place::Git),
                    );
                }
                application.target = Some(state);
                application.target_revision = Some(head.id.clone());
            }
            Err(error) => {
                let message = format!("revision {} of {directory} is invalid: {error}", head.id);
                if application.last_error.as_ref() != Some(&message) {
                    let staying = application.target_revision.as_deref().unwrap_or("none");
                    events.push(
                        Event::new(step, "agent", format!("{environment}: cannot use {message}"))
                            .because(format!("it keeps the last good revision ({staying}); nothing new is applied until Git is fixed")),
                    );
                    application.last_error = Some(message);
                }
            }
        }
    }

    fn update_health(&mut self, step: u32, events: &mut Vec<Event>) {
        let error = self
            .applications
            .iter()
            .find_map(|(environment, application)| {
                application
                    .last_error
                    .as_ref()
                    .map(|error| format!("{environment}: {error}"))
            });
        let health = if error.is_some() {
            AgentHealth::Degraded
        } else {
            AgentHealth::Healthy
        };
        if health != self.health {
            let event = match &error {
                Some(error) => Event::new(step, "alert", format!("the agent is Degraded: {error}"))
                    .because("the reconciler's own health is monitored"),
                None => Event::new(step, "alert", "resolved: the agent is Healthy again"),
            };
            events.push(event);
        }
        self.health = health;
        self.last_error = error;
    }
}

mod act;
mod edge;
pub mod flux;
pub(crate) mod operation_events;
mod settle;
mod sync_phases;
pub mod retry;
pub mod waves;

pub use operation_events::describe_changes;
pub(super) use operation_events::operation_event;
use retry::Retry;

