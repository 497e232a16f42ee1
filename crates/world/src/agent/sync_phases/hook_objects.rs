//! The hooks' objects in the cluster: created when their phase starts
//! them (an object left from before deleted first, as BeforeHookCreation
//! says), and deleted when the sync ends, as their `hook-delete-policy` says.

use super::{HookRun, Progress, SyncStep};
use crate::agent::Application;
use crate::cluster::Cluster;
use crate::event::Event;
use gitops_core::sync::hook_tasks::{DeletePolicy, HookTask, Phase};
use gitops_core::sync::plan::Operation;

impl HookRun {
    /// Creates the objects of these hooks, deleting first a hook's object
    /// left from before when its policy says BeforeHookCreation; one whose
    /// policy does not is kept as it is, and runs nothing new.
    pub(super) fn create(
        &mut self,
        starting: &[usize],
        application: &mut Application,
        cluster: &mut Cluster,
        now: &SyncStep,
        events: &mut Vec<Event>,
    ) {
        for &index in starting {
            let (task, progress) = &mut self.tasks[index];
            *progress = Progress::Running;
            let phase = task.phase;
            if cluster.actual().get(&task.key).is_some() {
                if !task.deletes(DeletePolicy::BeforeHookCreation) {
                    events.push(
                        Event::new(
                            now.step,
                            "agent",
                            format!("kept {phase} hook {} in {} from an earlier sync", task.key, now.environment),
                        )
                        .because("its hook-delete-policy has no BeforeHookCreation, so the sync applies the hook over its object and runs nothing new"),
                    );
                    continue;
                }
                delete(cluster, task);
                events.push(
                    Event::new(
                        now.step,
                        "agent",
                        format!("deleted {phase} hook {} from {} to create it again", task.key, now.environment),
                    )
                    .because("its hook-delete-policy is BeforeHookCreation (Argo CD's default when a hook names none)")
                    .in_cluster(now.environment),
                );
            }
            cluster.apply(&[Operation::Create {
                key: task.key.clone(),
                wave: task.wave,
                object: task.object.clone(),
            }]);
            events.push(
                Event::new(
                    now.step,
                    "agent",
                    format!("created {phase} hook {} in {}", task.key, now.environment),
                )
                .because(format!("{}; {}", now.why, runs_when(phase)))
                .in_cluster(now.environment),
            );
        }
        application.waiting = None;
        application.reported = None;
    }

    /// The sync ended: the hooks' objects its outcome deletes go, as their
    /// policies say (a hook still running stays).
    pub(super) fn end(
        &mut self,
        succeeded: bool,
        application: &mut Application,
        cluster: &mut Cluster,
        now: &SyncStep,
        events: &mut Vec<Event>,
    ) {
        let policy = match succeeded {
            true => DeletePolicy::HookSucceeded,
            false => DeletePolicy::HookFailed,
        };
        let done = |progress: &Progress| matches!(progress, Progress::Succeeded | Progress::Failed);
        for (task, _) in self
            .tasks
            .iter()
            .filter(|(task, progress)| done(progress) && task.deletes(policy))
        {
            if cluster.actual().get(&task.key).is_none() {
                continue;
            }
            delete(cluster, task);
            let outcome = match succeeded {
                true => "the sync succeeded",
                false => "the sync failed",
            };
            events.push(
                Event::new(
                    now.step,
                    "agent",
                    format!(
                        "deleted {} hook {} from {}",
                        task.phase, task.key, now.environment
                    ),
                )
                .because(format!("{outcome} and its hook-delete-policy is {policy}"))
                .in_cluster(now.environment),
            );
        }
        application.waiting = None;
    }
}

fn delete(cluster: &mut Cluster, task: &HookTask) {
    cluster.apply(&[Operation::Delete {
        key: task.key.clone(),
        wave: task.wave,
        confirm: false,
    }]);
}

/// When the hooks of a phase run, in words.
fn runs_when(phase: Phase) -> &'static str {
    match phase {
        Phase::PreSync => "a PreSync hook runs before the sync applies anything",
        Phase::Sync => "a Sync hook runs in its wave, beside the objects of that wave",
        Phase::PostSync => {
            "a PostSync hook runs once every wave is applied and every object is Healthy"
        }
        Phase::SyncFail => "a SyncFail hook runs when the sync has failed",
    }
}
