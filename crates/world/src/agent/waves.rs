//! A sync runs wave by wave, as Argo CD's does: the next wave starts only
//! when the objects of the earlier waves are healthy. Within a wave the
//! deletions run first, then the creates and updates (gitops-engine's
//! `runTasks`: "prune first", "finally create resources"); the plan gives
//! each deletion the wave it runs in. A deleted object has nothing to wait
//! for. An object of an earlier wave that turns Degraded fails the sync
//! (gitops-engine marks its task failed, and the operation with it); so
//! does an update the API server refuses, once the rest of its wave is
//! applied (`sync::immutable`). What the agent does after a failure is in
//! `retry.rs`.

use super::{operation_event, Application};
use crate::cluster::Cluster;
use crate::event::Event;
use gitops_core::health::Health;
use gitops_core::options::Options;
use gitops_core::state::State;
use gitops_core::Workspace;
use gitops_core::sync::immutable::{outcome, Outcome};
use gitops_core::sync::plan::Operation;
use std::collections::BTreeSet;

/// Where a sync stands after a pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Progress {
    /// Every operation ran.
    Finished,
    /// A later wave waits for an earlier one to be Healthy.
    Waiting,
    /// The sync failed, and why (the operation's message).
    Failed(String),
}

/// The sync of one pass: what is being synced, and why.
pub(super) struct Sync<'a> {
    pub environment: &'a str,
    pub revision: &'a str,
    pub target: &'a State,
    pub plan: &'a [Operation],
    pub why: &'a str,
    pub following_git: bool,
    pub options: &'a Options,
}

/// Applies what the sync can apply now; where it stands then.
pub(super) fn sync_wave(
    application: &mut Application,
    step: u32,
    cluster: &mut Cluster,
    sync: &Sync,
    events: &mut Vec<Event>,
) -> Progress {
    let Sync {
        environment,
        target,
        plan,
        why,
        following_git,
        ..
    } = *sync;
    // What changes the cluster, in sync order; a skip waits for nothing and
    // is told when the sync finishes.
    let work: Vec<&Operation> = plan.iter().filter(|op| op.changes_cluster()).collect();
    match hold(&mut Workspace::new(), target, cluster.actual(), plan, &cluster.confirmed_prunes) {
        Some(Hold::Degraded { wave, key }) => {
            application.waiting = None;
            return Progress::Failed(format!("{key} is Degraded, so wave {wave} never starts"));
        }
        Some(waiting @ (Hold::Waiting { .. } | Hold::Confirm { .. })) => {
            let because = match waiting {
                Hold::Confirm { .. } => "Prune=confirm: a person approves the deletion",
                _ => "a wave starts only when the earlier waves are healthy",
            };
            let waiting = waiting.to_string();
            if application.waiting.as_ref() != Some(&waiting) {
                events.push(
                    Event::new(step, "agent", format!("{environment}: {waiting}")).because(because),
                );
                application.waiting = Some(waiting);
            }
            return Progress::Waiting;
        }
        Some(Hold::Refused { .. }) | None => {}
    }
    let batch: Vec<Operation> = match work.first().map(|op| op.wave()) {
        Some(first) if work.iter().any(|op| op.wave() != first) => work
            .into_iter()
            .filter(|op| op.wave() == first)
            .cloned()
            .collect(),
        _ => plan.to_vec(),
    };
    let mut refused = Vec::new();
    for operation in &batch {
        if let Operation::Delete { key, .. } = operation {
            if cluster.actual().get(key).is_none() {
                // It went with its Namespace, deleted just before.
                continue;
            }
        }
        let applied = operation_event(
            step,
            environment,
            operation,
            why,
            following_git,
            cluster.actual(),
        );
        match cluster.carry_out(operation, target, sync.options) {
            Outcome::Accepted => events.push(applied),
            Outcome::Refused(refusal) => {
                events.push(refused_event(step, environment, &refusal.message));
                refused.push(refusal.message);
            }
            Outcome::Recreated {
                why: option,
                refusal,
                ..
            } => {
                events.push(recreated_event(
                    step,
                    environment,
                    operation.key(),
                    &option,
                    refusal.as_ref().map(|r| r.message.as_str()),
                ));
            }
        }
    }
    application.waiting = None;
    application.reported = None;
    if !refused.is_empty() {
        // gitops-engine's executeSyncFailPhase: the failed tasks' messages.
        return Progress::Failed(format!(
            "one or more objects failed to apply, reason: {}",
            refused.join(",")
        ));
    }
    if batch.len() == plan.len() {
        Progress::Finished
    } else {
        Progress::Waiting
    }
}

/// The event of an update the API server refused.
pub(super) fn refused_event(step: u32, environment: &str, message: &str) -> Event {
    Event::new(step, "agent", format!("{environment}: the API server refused: {message}")).because(
        "it does not change this field of an object in place; the annotation \
         argocd.argoproj.io/sync-options: Force=true (Argo CD), \
         or Flux's kustomize.toolkit.fluxcd.io/force: enabled, deletes and creates the object instead",
    )
    .in_cluster(environment)
    .refused()
}

/// The event of an object deleted and created again instead of updated.
pub(super) fn recreated_event(
    step: u32,
    environment: &str,
    key: &str,
    option: &str,
    refusal: Option<&str>,
) -> Event {
    let why = match refusal {
        Some(message) => format!("{option}; the API server refuses the update: {message}"),
        None => option.to_string(),
    };
    Event::new(
        step,
        "agent",
        format!("recreated {key} in {environment}: deleted it and created it again"),
    )
    .because(why)
    .in_cluster(environment)
    .on(key)
}

/// What keeps the next wave of a sync from starting: an object of an
/// earlier wave that is Degraded (the sync fails), else the first one not
/// yet Healthy. A sync started by hand waits the same way (gitops-engine's
/// `sync_context.go` runs the waves of every sync alike).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hold {
    Degraded {
        wave: i64,
        key: String,
    },
    /// The object, and what it is instead: missing, or its health.
    Waiting {
        wave: i64,
        key: String,
        state: String,
    },
    /// Deletions of the wave that wait for a person to confirm them
    /// (`Prune=confirm`; gitops-engine's "waiting for pruning confirmation").
    Confirm {
        wave: i64,
        keys: Vec<String>,
    },
    /// The API server refuses the next update (a Step stops there).
    Refused {
        key: String,
        message: String,
    },
}

impl std::fmt::Display for Hold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Hold::Degraded { wave, key } => {
                write!(
                    f,
                    "the sync fails: {key} is Degraded, so wave {wave} never starts"
                )
            }
            Hold::Waiting { wave, key, state } => {
                write!(
                    f,
                    "wave {wave} waits until {key} is Healthy (it is {state})"
                )
            }
            Hold::Confirm { wave, keys } => write!(
                f,
                "wave {wave} waits for a person to confirm the deletion of {} (Prune=confirm)",
                keys.join(", ")
            ),
            Hold::Refused { key, message } => {
                write!(f, "the API server refuses to update {key}: {message}")
            }
        }
    }
}

/// What keeps the next operation of `plan` that changes the cluster from
/// running now, if anything does: an earlier wave, or a deletion of this
/// one that no one has confirmed (`confirmed` holds those confirmed).
pub fn hold(
    workspace: &mut Workspace,
    target: &State,
    actual: &State,
    plan: &[Operation],
    confirmed: &BTreeSet<String>,
) -> Option<Hold> {
    let wave_now = plan.iter().find(|op| op.changes_cluster())?.wave();
    if let Some(earlier) = hold_before(workspace, target, actual, wave_now) {
        return Some(earlier);
    }
    let unconfirmed: Vec<String> = plan
        .iter()
        .filter(|op| op.wave() == wave_now && op.waits_for_confirmation())
        .map(|op| op.key().to_string())
        .filter(|key| !confirmed.contains(key))
        .collect();
    (!unconfirmed.is_empty()).then_some(Hold::Confirm {
        wave: wave_now,
        keys: unconfirmed,
    })
}

/// What keeps wave `wave_now` from starting, if anything does: the
/// resources of the earlier waves (a hook is none: its phase waits for it).
pub fn hold_before(workspace: &mut Workspace, target: &State, actual: &State, wave_now: i64) -> Option<Hold> {
    let mut waiting = None;
    let earlier = workspace.resources_before(target, wave_now);
    for (key, _) in earlier {
        let state = match actual
            .objects()
            .get(key)
            .map(|live| workspace.health(key, live))
        {
            None => "missing".to_string(),
            Some(None | Some(Health::Healthy)) => continue,
            Some(Some(Health::Degraded)) => {
                return Some(Hold::Degraded {
                    wave: wave_now,
                    key: key.to_string(),
                })
            }
            Some(Some(other)) => other.to_string(),
        };
        waiting.get_or_insert(Hold::Waiting {
            wave: wave_now,
            key: key.to_string(),
            state,
        });
    }
    waiting
}

/// What keeps a person's Step from applying the next operation of `plan`:
/// what keeps its wave from starting, else an update the API server
/// refuses (and no option recreates), where a sync would fail.
pub fn step_hold(
    workspace: &mut Workspace,
    target: &State,
    actual: &State,
    plan: &[Operation],
    options: &Options,
    confirmed: &BTreeSet<String>,
) -> Option<Hold> {
    hold(workspace, target, actual, plan, confirmed).or_else(|| {
        let next = plan.iter().find(|op| op.changes_cluster())?;
        match outcome(next, target, actual, options) {
            Outcome::Refused(refusal) => Some(Hold::Refused {
                key: refusal.key,
                message: refusal.message,
            }),
            _ => None,
        }
    })
}
