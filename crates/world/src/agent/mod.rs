//! The agent of the pull model: inside the cluster, it reads Git (every few
//! steps, or when a webhook says Git moved), compares, and syncs as its
//! policy says. When it cannot do its job it says so, in its own health and
//! last error, and an alert fires: "merged but nothing happened" is visible.

use crate::cluster::{comparable, Cluster};
use crate::event::Event;
use crate::repository::{desired_state, Repository};
use crate::scenario::{Layout, Trigger, WorldOptions};
use gitops_core::diff::changes::Change;
use gitops_core::report::report;
use gitops_core::state::State;
use gitops_core::sync::apply::deleted_with;
use gitops_core::sync::plan::{has_work, Operation};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What the agent knows about one environment.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Application {
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
    /// What the sync last waited for, so it is reported once.
    #[serde(skip)]
    waiting: Option<String>,
    /// The revision whose sync failed: not synced again automatically.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_revision: Option<String>,
    /// The hooks of the sync in progress, when it runs any.
    #[serde(skip)]
    hooks: Option<hooks::HookRun>,
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
            applications: environments
                .iter()
                .map(|environment| (environment.clone(), Application::default()))
                .collect(),
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

    pub fn request_sync(&mut self, environment: &str) {
        self.sync_requests.insert(environment.to_string());
    }

    /// One pass of the control loop: observe, compare, act.
    pub fn reconcile(
        &mut self,
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
        if options.trigger == Trigger::Edge && self.fetched_once {
            self.reconcile_edge(step, repository, clusters, options, &mut events);
            self.update_health(step, &mut events);
            return events;
        }
        self.inbox.clear();
        let poll = !self.fetched_once || webhook || step.is_multiple_of(options.poll_every);
        let environments: Vec<String> = self.applications.keys().cloned().collect();
        for environment in environments {
            let Some(cluster) = clusters.get_mut(&environment) else {
                continue;
            };
            let manual = self.sync_requests.remove(&environment);
            if poll || manual {
                self.fetch(
                    step,
                    &environment,
                    repository,
                    options.layout,
                    webhook,
                    &mut events,
                );
            }
            self.act(step, &environment, cluster, options, manual, &mut events);
        }
        self.fetched_once = true;
        self.update_health(step, &mut events);
        events
    }

    /// Reads Git: the environment's desired state at the head, if it reads.
    fn fetch(
        &mut self,
        step: u32,
        environment: &str,
        repository: &Repository,
        layout: Layout,
        webhook: bool,
        events: &mut Vec<Event>,
    ) {
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
                        .because("its credentials for Git were revoked"),
                );
                application.last_error = Some(error);
            }
            return;
        }
        let (head, files) = repository.environment_files(environment, layout);
        if application.target_revision.as_deref() == Some(head.id.as_str())
            && application.last_error.is_none()
        {
            return;
        }
        match desired_state(&files, environment) {
            Ok(state) => {
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
                        .because(how),
                    );
                }
                application.target = Some(state);
                application.target_revision = Some(head.id.clone());
            }
            Err(error) => {
                let message = format!(
                    "revision {} of envs/{environment} is invalid: {error}",
                    head.id
                );
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

    fn act(
        &mut self,
        step: u32,
        environment: &str,
        cluster: &mut Cluster,
        options: &WorldOptions,
        manual: bool,
        events: &mut Vec<Event>,
    ) {
        let Some(application) = self.applications.get_mut(environment) else {
            return;
        };
        let Some(target) = application.target.clone() else {
            return;
        };
        if let Some(error) = application.last_error.clone() {
            // Argo CD marks the comparison failed (sync status Unknown) and skips
            // every automated sync, self-heal included (controller/state.go
            // CompareAppState, appcontroller.go autoSync); a person's sync fails too.
            let halt = Event::new(
                step,
                "agent",
                format!("{environment} is Unknown: it syncs nothing, self-heal included, until Git is fixed"),
            )
            .because(format!("the comparison failed: {error}"));
            return report_once(application, halt, events);
        }
        if let Err(why) = comparable(&target, cluster.actual()) {
            let refusal = Event::new(
                step,
                "agent",
                format!("{environment}: syncs nothing: {why}"),
            )
            .because("the objects of one form cannot be written into a state of the other");
            return report_once(application, refusal, events);
        }
        let found = report(&target, cluster.actual(), &options.reconcile());
        let revision = application.target_revision.clone().unwrap_or_default();
        let new_revision = application.synced_revision != application.target_revision;
        let why = if manual {
            "a person asked for a sync".to_string()
        } else if new_revision && options.auto_sync {
            format!("Git moved to {revision} and auto-sync is on")
        } else {
            "self-heal is on".to_string()
        };
        let heal = options.auto_sync && options.self_heal && !new_revision;
        if manual {
            application.failed_revision = None;
        }
        let failed = application.failed_revision.is_some()
            && application.failed_revision == application.target_revision;
        let sync = manual
            || application.syncing
            || (options.auto_sync && new_revision && !failed)
            || (heal && has_work(&found.plan));
        let automatic = !manual && !application.syncing;
        if sync && automatic && wipes_out_everything(&target, &found.plan, options) {
            let refusal = Event::new(
                step,
                "agent",
                format!(
                    "{environment}: skipped the automatic sync to {revision}: it would delete every object"
                ),
            )
            .because(
                "Git declares nothing for it, prune is on and allowEmpty is off: an empty \
                 revision is more likely a mistake than a wish to delete everything \
                 (Argo CD's automated.allowEmpty); a person can still sync by hand",
            );
            return report_once(application, refusal, events);
        }
        if sync {
            let now = hooks::SyncStep {
                step,
                environment,
                target: &target,
                plan: &found.plan,
                why: &why,
                following_git: new_revision || manual,
                full: manual || (new_revision && has_work(&found.plan)),
                options: &options.reconcile(),
            };
            return hooks::sync_with_hooks(application, cluster, &now, events);
        }
        if found.drift.is_empty() {
            application.reported = None;
            return;
        }
        let fingerprint = serde_json::to_string(&found.drift).unwrap_or_default();
        if application.reported.as_ref() == Some(&fingerprint) {
            return;
        }
        application.reported = Some(fingerprint);
        let mut parts = Vec::new();
        for (key, changes) in &found.drift.changes {
            parts.push(format!("{key} drifted at {}", describe_changes(changes)));
        }
        if !found.drift.missing.is_empty() {
            parts.push(format!("missing {}", found.drift.missing.join(", ")));
        }
        if !found.drift.extra.is_empty() {
            parts.push(format!("not in Git: {}", found.drift.extra.join(", ")));
        }
        let skipped = found
            .plan
            .iter()
            .any(|operation| !operation.changes_cluster());
        let reason = if !options.auto_sync {
            "auto-sync is off: it waits for a person to sync"
        } else if failed {
            "the sync of this revision failed, so it waits for a new revision or a person's sync"
        } else if has_work(&found.plan) {
            "self-heal is off, so it reports the change and leaves it"
        } else if skipped {
            "a protected object is never pruned; it stays until a person decides"
        } else {
            "prune is off, so what Git no longer declares stays"
        };
        events.push(
            Event::new(
                step,
                "agent",
                format!("{environment} is OutOfSync: {}", parts.join("; ")),
            )
            .because(reason),
        );
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

mod edge;
mod hooks;
pub mod waves;

/// Tells why the agent does not act, unless it told the same last time.
fn report_once(application: &mut Application, refusal: Event, events: &mut Vec<Event>) {
    if application.reported.as_ref() != Some(&refusal.what) {
        application.reported = Some(refusal.what.clone());
        events.push(refusal);
    }
}

/// Whether an automatic sync would prune every object of the environment
/// because Git declares none, which Argo CD refuses unless `allowEmpty`.
fn wipes_out_everything(target: &State, plan: &[Operation], options: &WorldOptions) -> bool {
    options.prune && !options.allow_empty && target.is_empty() && !plan.is_empty()
}

pub(super) fn operation_event(
    step: u32,
    environment: &str,
    operation: &Operation,
    why: &str,
    following_git: bool,
    actual: &State,
) -> Event {
    let what = match operation {
        Operation::Create { key, .. } => format!("created {key} in {environment}"),
        Operation::Update { key, changes, .. } if following_git => format!(
            "updated {key} in {environment} at {}",
            describe_changes(changes)
        ),
        Operation::Update { key, changes, .. } => format!(
            "{key} in {environment} drifted at {}; reverting",
            describe_changes(changes)
        ),
        Operation::Delete { key, .. } => match deleted_with(actual, key).as_slice() {
            [] => format!("deleted {key} from {environment}"),
            contents => format!(
                "deleted {key} from {environment}, and with it everything in it: {}",
                contents.join(", ")
            ),
        },
        Operation::Skip { key, reason, .. } => {
            return Event::new(
                step,
                "agent",
                format!("kept {key} in {environment}, which Git no longer declares"),
            )
            .because(reason.clone())
        }
    };
    let why = match operation {
        Operation::Delete { .. } => format!("{why}; it is not in Git and prune is on"),
        _ => why.to_string(),
    };
    Event::new(step, "agent", what).because(why)
}

/// `/spec/replicas (5 → 2), /image (a → b)`: live value to desired value.
pub fn describe_changes(changes: &[Change]) -> String {
    const SHOWN: usize = 3;
    let show = |value: &Option<serde_json::Value>| match value {
        None => "absent".to_string(),
        Some(serde_json::Value::String(text)) => crate::registry::shorten_digests(text),
        Some(other) => other.to_string(),
    };
    let mut parts: Vec<String> = changes
        .iter()
        .take(SHOWN)
        .map(|change| {
            format!(
                "{} ({} → {})",
                change.path,
                show(&change.from),
                show(&change.to)
            )
        })
        .collect();
    if changes.len() > SHOWN {
        parts.push(format!("and {} more", changes.len() - SHOWN));
    }
    parts.join(", ")
}
