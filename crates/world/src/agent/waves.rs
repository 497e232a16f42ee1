//! A sync runs wave by wave, as Argo CD's does: the next wave starts only
//! when the objects of the earlier waves are healthy. Within a wave the
//! deletions run first, then the creates and updates (gitops-engine's
//! `runTasks`: "prune first", "finally create resources"); the plan gives
//! each deletion the wave it runs in. A deleted object has nothing to wait
//! for. An object of an earlier wave that turns Degraded fails the sync
//! (gitops-engine marks its task failed, and the operation with it), and
//! the agent does not sync that revision again by itself (Argo CD's
//! `autoSync`: "failed previous sync attempt").

use super::{operation_event, Application};
use crate::cluster::Cluster;
use crate::event::Event;
use gitops_core::health::{health, Health};
use gitops_core::state::State;
use gitops_core::sync::hooks::resources;
use gitops_core::sync::order::wave;
use gitops_core::sync::plan::Operation;

/// Applies what the sync can apply now; whether the sync is finished.
#[allow(clippy::too_many_arguments)]
pub(super) fn sync_wave(
    application: &mut Application,
    step: u32,
    environment: &str,
    cluster: &mut Cluster,
    target: &State,
    plan: &[Operation],
    why: &str,
    following_git: bool,
    events: &mut Vec<Event>,
) -> bool {
    // What changes the cluster, in sync order; a skip waits for nothing and
    // is told when the sync finishes.
    let work: Vec<&Operation> = plan.iter().filter(|op| op.changes_cluster()).collect();
    match hold(target, cluster.actual(), plan) {
        Some(Hold::Degraded { wave, key }) => {
            let revision = application.target_revision.clone().unwrap_or_default();
            events.push(
                Event::new(
                    step,
                    "agent",
                    format!(
                        "{environment}: the sync to {revision} failed: {key} is Degraded, so wave {wave} never starts"
                    ),
                )
                .because(
                    "an object a sync waits for that turns Degraded fails the sync; the agent \
                     does not retry this revision by itself, only when Git moves or a person syncs",
                ),
            );
            application.waiting = None;
            application.syncing = false;
            application.failed_revision = Some(revision);
            return false;
        }
        Some(waiting @ Hold::Waiting { .. }) => {
            let waiting = waiting.to_string();
            if application.waiting.as_ref() != Some(&waiting) {
                events.push(
                    Event::new(step, "agent", format!("{environment}: {waiting}"))
                        .because("a wave starts only when the earlier waves are healthy"),
                );
                application.waiting = Some(waiting);
            }
            application.syncing = true;
            return false;
        }
        None => {}
    }
    let batch: Vec<Operation> = match work.first().map(|op| op.wave()) {
        Some(first) if work.iter().any(|op| op.wave() != first) => work
            .into_iter()
            .filter(|op| op.wave() == first)
            .cloned()
            .collect(),
        _ => plan.to_vec(),
    };
    for operation in &batch {
        if let Operation::Delete { key, .. } = operation {
            if cluster.actual().get(key).is_none() {
                // It went with its Namespace, deleted just before.
                continue;
            }
        }
        events.push(operation_event(
            step,
            environment,
            operation,
            why,
            following_git,
            cluster.actual(),
        ));
        cluster.apply(std::slice::from_ref(operation));
    }
    application.waiting = None;
    application.reported = None;
    let finished = batch.len() == plan.len();
    application.syncing = !finished;
    if finished {
        application.synced_revision = application.target_revision.clone();
    }
    finished
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
        }
    }
}

/// What keeps the next operation of `plan` that changes the cluster from
/// running now, if anything does.
pub fn hold(target: &State, actual: &State, plan: &[Operation]) -> Option<Hold> {
    let wave_now = plan.iter().find(|op| op.changes_cluster())?.wave();
    hold_before(target, actual, wave_now)
}

/// What keeps wave `wave_now` from starting, if anything does: the
/// resources of the earlier waves (a hook is none: its phase waits for it).
pub fn hold_before(target: &State, actual: &State, wave_now: i64) -> Option<Hold> {
    let mut waiting = None;
    let earlier = resources(target).filter(|(_, object)| wave(object) < wave_now);
    for (key, _) in earlier {
        let state = match actual.get(key).map(health) {
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
