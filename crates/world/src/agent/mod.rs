//! The agent of the pull model: inside the cluster, it reads Git (every few
//! steps, or when a webhook says Git moved), compares, and syncs as its
//! policy says. When it cannot do its job it says so, in its own health and
//! last error, and an alert fires: "merged but nothing happened" is visible.

use crate::cluster::{comparable, Cluster};
use crate::event::{Event, Place};
use crate::repository::{desired_state, Repository};
use crate::scenario::{Layout, Trigger, WorldOptions};
use gitops_core::diff::changes::Change;
use gitops_core::Workspace;
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
        if options.trigger == Trigger::Edge && self.fetched_once {
            self.reconcile_edge(step, workspace, repository, clusters, options, &mut events);
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
                    workspace,
                    step,
                    &environment,
                    repository,
                    options.layout,
                    webhook,
                    &mut events,
                );
            }
            self.act(workspace, step, &environment, cluster, options, manual, &mut events);
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
        match desired_state(workspace, &files, &directory) {
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

    fn act(
        &mut self,
        workspace: &mut Workspace,
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
        if manual {
            // A person's sync takes the place of the retries, and of the
            // failure of the revision.
            application.failed_revision = None;
            application.sync_error = None;
            application.retry = None;
        }
        let (target, revision) = match &application.retry {
            Some(retry) => (retry.target.clone(), retry.revision.clone()),
            None => match &application.target {
                Some(target) => (
                    target.clone(),
                    application.target_revision.clone().unwrap_or_default(),
                ),
                None => return,
            },
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
        let reconcile = options.reconcile();
        let found = workspace.report(&target, cluster.actual(), &reconcile);
        let sync_of = |why, following_git| Sync {
            environment,
            revision: &revision,
            target: &target,
            plan: &found.plan,
            why,
            following_git,
            options: &reconcile,
        };
        if let Some(retry) = &application.retry {
            // The failed operation is still Argo CD's: nothing else starts
            // until its retries end.
            if step < retry.at && !application.syncing {
                return;
            }
            let why = format!("{retry} the sync to {revision}, which failed");
            let retried = sync_of(&why, true);
            return sync_pass(application, step, cluster, &retried, true, options, events);
        }
        let new_revision = application.synced_revision != application.target_revision;
        let failed = application.failed_revision.is_some()
            && application.failed_revision == application.target_revision;
        let heal = options.auto_sync && options.self_heal && !new_revision && !failed;
        let starts = !manual && !application.syncing;
        // selfHealRemainingBackoff: the next revert waits after the last sync.
        let heal_at = application.last_sync.map_or(0, |last| {
            last.saturating_add(steps_for(self_heal_delay(application.reverts)))
        });
        let heals = heal && has_work(&found.plan) && starts && step >= heal_at;
        let sync = manual
            || application.syncing
            || (options.auto_sync && new_revision && !failed)
            || heals;
        let why = if manual {
            "a person asked for a sync".to_string()
        } else if new_revision && options.auto_sync {
            format!("Git moved to {revision} and auto-sync is on")
        } else if heals && application.reverts > 0 {
            format!(
                "self-heal is on: revert {} of this revision, {} s or more after the last sync \
                 (Argo CD's self-heal backoff)",
                application.reverts + 1,
                self_heal_delay(application.reverts)
            )
        } else {
            "self-heal is on".to_string()
        };
        if sync && starts && wipes_out_everything(&target, &found.plan, options) {
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
            // The syncs that run hooks: a person's, or an automated one of a
            // new revision with work (self-heal's names resources: skipHooks).
            let full = manual || (new_revision && has_work(&found.plan));
            if !application.syncing {
                // A new operation: a revert counts (and waited above); a new
                // revision or a person's sync starts the count again.
                application.by_hand = manual;
                application.self_heal_at = None;
                application.reverts = if heals { application.reverts + 1 } else { 0 };
            }
            let this_sync = sync_of(&why, new_revision || manual);
            return sync_pass(
                application,
                step,
                cluster,
                &this_sync,
                full,
                options,
                events,
            );
        }
        let backing_off = heal && has_work(&found.plan) && step < heal_at;
        application.self_heal_at = backing_off.then_some(heal_at);
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
            "auto-sync is off: it waits for a person to sync".to_string()
        } else if failed {
            "the sync of this revision failed, so it waits for a new revision or a person's sync"
                .to_string()
        } else if backing_off {
            format!(
                "self-heal backs off: revert {} of this revision waits until step {heal_at} \
                 ({} s after the last sync; Argo CD's self-heal backoff: 2 s, tripled at each \
                 revert, at most 5 min; a step is a minute)",
                application.reverts + 1,
                self_heal_delay(application.reverts)
            )
        } else if has_work(&found.plan) {
            "self-heal is off, so it reports the change and leaves it".to_string()
        } else if skipped {
            "a protected object is never pruned; it stays until a person decides".to_string()
        } else {
            "prune is off, so what Git no longer declares stays".to_string()
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
mod sync_phases;
pub mod retry;
pub mod waves;

use retry::{self_heal_delay, steps_for, Retry, RetryStrategy};
use waves::{Progress, Sync};

/// One pass of a sync, with its hooks when it is a `full` one (`sync_phases.rs`),
/// and what the agent does when it ends (`settle`).
fn sync_pass(
    application: &mut Application,
    step: u32,
    cluster: &mut Cluster,
    sync: &Sync,
    full: bool,
    options: &WorldOptions,
    events: &mut Vec<Event>,
) {
    let progress = sync_phases::sync_with_hooks(application, step, cluster, sync, full, events);
    settle(application, step, sync, progress, options, events);
}

/// What the agent does when a pass of a sync ends: a finished sync is the
/// revision synced; a failed one is retried while its retry strategy allows
/// (`retry.rs`), after which the revision's sync has failed and is not tried
/// again by itself (Argo CD's `autoSync`: "failed previous sync attempt").
fn settle(
    application: &mut Application,
    step: u32,
    sync: &Sync,
    progress: Progress,
    options: &WorldOptions,
    events: &mut Vec<Event>,
) {
    let Sync {
        environment,
        revision,
        target,
        ..
    } = *sync;
    application.syncing = progress == Progress::Waiting;
    let message = match progress {
        Progress::Waiting => return,
        Progress::Finished => {
            application.synced_revision = Some(revision.to_string());
            application.retry = None;
            application.sync_error = None;
            application.last_sync = Some(step);
            application.by_hand = false;
            return;
        }
        Progress::Failed(message) => message,
    };
    application.last_sync = Some(step);
    // The Application's syncPolicy.retry, else autoSync's for an automated
    // sync; a person's sync without one is not retried (the API server's Sync).
    let (strategy, policy) = match (&options.retry, application.by_hand) {
        (Some(retry), _) => (
            retry.clone(),
            "the option retry, Argo CD's syncPolicy.retry",
        ),
        (None, false) => (
            RetryStrategy::automated(),
            "Argo CD retries an automated sync 5 times, 5 s doubling to at most 3 min, \
             unless the Application's syncPolicy.retry says otherwise",
        ),
        (None, true) => (RetryStrategy::none(), ""),
    };
    let retries = application.retry.as_ref().map_or(0, |retry| retry.count);
    let delay = strategy.delay(retries).unwrap_or_default();
    if strategy.retries_after(retries) {
        let retry = Retry {
            revision: revision.to_string(),
            count: retries + 1,
            limit: strategy.most(),
            at: step.saturating_add(steps_for(delay)),
            message: message.clone(),
            target: target.clone(),
        };
        events.push(
            Event::new(
                step,
                "agent",
                format!("{environment}: the sync to {revision} failed: {message}"),
            )
            .because(format!(
                "{retry} at minute {}: a failed sync is tried again {delay} s later ({policy}; \
                 a step is a minute)",
                retry.at
            )),
        );
        application.retry = Some(retry);
        return;
    }
    let retried = match retries {
        0 => String::new(),
        1 => " (retried once)".to_string(),
        n => format!(" (retried {n} times)"),
    };
    events.push(
        Event::new(
            step,
            "agent",
            format!("{environment}: the sync to {revision} failed: {message}{retried}"),
        )
        .because(
            "the agent does not sync this revision again by itself, only when Git moves or a \
             person syncs (Argo CD's \"failed previous sync attempt\")",
        ),
    );
    application.retry = None;
    application.by_hand = false;
    application.failed_revision = Some(revision.to_string());
    application.sync_error = Some(format!("{message}{retried}"));
}

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
            .in_cluster(environment)
        }
    };
    let why = match operation {
        Operation::Delete { .. } => format!("{why}; it is not in Git and prune is on"),
        _ => why.to_string(),
    };
    Event::new(step, "agent", what)
        .because(why)
        .in_cluster(environment)
}

/// `/spec/replicas (5 → 2), /image (a → b)`: live value to desired value.
pub fn describe_changes(changes: &[Change]) -> String {
    const SHOWN: usize = 3;
    let show = |value: &Option<serde_json::Value>| match value {
        None => "absent".to_string(),
        Some(serde_json::Value::String(text)) => crate::registry::shorten_digests(text),
        Some(other) => other.to_string(),
    };
    crate::event::first_and_more(changes, SHOWN, |change| {
        format!(
            "{} ({} → {})",
            change.path,
            show(&change.from),
            show(&change.to)
        )
    })
}
