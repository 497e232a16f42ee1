//! A sync's phases, as gitops-engine's `syncContext.Sync` runs them
//! (pkg/sync/sync_context.go): the PreSync hooks first, wave by wave, each
//! wave once the earlier one completed; then the Sync phase, the waves of
//! the plan (`waves.rs`) with the Sync hooks in their waves; then, once
//! every resource is Healthy, the PostSync hooks. A hook that fails fails
//! the sync, and then the SyncFail hooks run (`executeSyncFailPhase`).
//! When the sync has ended, its hooks' objects are deleted by their
//! `hook-delete-policy` (`deleteHooks`): HookSucceeded ones when it
//! succeeded, HookFailed ones when it failed; BeforeHookCreation deletes a
//! hook's object left from before when the hook is created again
//! (`runTasks`), the default when no policy is given. Hooks run in a full
//! sync only: a person's, or an automated one of a new revision that has
//! work (Argo CD syncs an application by itself only when it is
//! OutOfSync); self-heal syncs the objects that drifted alone, and a sync
//! of some objects runs no hooks (controller/sync.go: `skipHooks` when the
//! operation names resources). Which objects are hooks, their tasks and
//! how one is doing are the core's (`gitops_core::sync::hook_tasks`).

mod hook_objects;
mod phases;

use super::waves::{self, sync_wave, Sync};
use super::Application;
use crate::cluster::Cluster;
use crate::event::Event;
use gitops_core::options::Options;
use gitops_core::state::State;
use gitops_core::sync::hook_tasks::{hook_tasks, HookTask, Phase, Run};
use gitops_core::sync::plan::Operation;

/// The hooks of the sync in progress: its tasks as they were when it
/// started (a hook's name is made then), how far each got, and the phase.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct HookRun {
    revision: String,
    /// Why the sync started, and whether it follows Git: what every step
    /// of it says.
    why: String,
    following_git: bool,
    tasks: Vec<(HookTask, Progress)>,
    phase: Phase,
    /// Why the sync failed, once it has (its SyncFail hooks then run).
    failure: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Progress {
    Pending,
    /// Created (or found from before), not known to be done yet.
    Running,
    Succeeded,
    Failed,
}

/// What the sync is to do now with its hooks.
#[derive(Debug, Clone, PartialEq)]
enum Next {
    /// Every hook of the phase completed.
    Done,
    /// It waits (what for, said once), or it just created hooks.
    Wait,
    /// The sync failed: why.
    Fail(String),
}

/// What a sync step works with.
pub(super) struct SyncStep<'a> {
    pub step: u32,
    pub environment: &'a str,
    pub target: &'a State,
    pub plan: &'a [Operation],
    pub why: &'a str,
    pub following_git: bool,
    /// A person's sync, or an automated one of a new revision with work:
    /// the syncs that run hooks.
    pub full: bool,
    pub options: &'a Options,
}

/// Runs the sync a step further, hooks and waves: a sync with no hook to
/// run is the waves alone (`sync_wave`). `full` says whether it is a sync
/// that runs hooks.
pub(super) fn sync_with_hooks(
    application: &mut Application,
    step: u32,
    cluster: &mut Cluster,
    sync: &Sync,
    full: bool,
    events: &mut Vec<Event>,
) -> waves::Progress {
    let now = SyncStep {
        step,
        environment: sync.environment,
        target: sync.target,
        plan: sync.plan,
        why: sync.why,
        following_git: sync.following_git,
        full,
        options: sync.options,
    };
    let mut run = match application.hooks.take() {
        Some(run) => run,
        None => match start(application, &now) {
            Some(run) => run,
            None => return waves(application, cluster, &now, events),
        },
    };
    let why = run.why.clone();
    let now = SyncStep {
        why: &why,
        following_git: run.following_git,
        ..now
    };
    let progress = run.advance(application, cluster, &now, events);
    if progress == waves::Progress::Waiting {
        application.hooks = Some(run);
    }
    progress
}

/// The plan's waves a step further (`sync_wave`).
fn waves(
    application: &mut Application,
    cluster: &mut Cluster,
    now: &SyncStep,
    events: &mut Vec<Event>,
) -> waves::Progress {
    let revision = application.target_revision.clone().unwrap_or_default();
    let sync = Sync {
        environment: now.environment,
        revision: &revision,
        target: now.target,
        plan: now.plan,
        why: now.why,
        following_git: now.following_git,
        options: now.options,
    };
    sync_wave(application, now.step, cluster, &sync, events)
}

/// The hooks of a sync that starts now, if it runs any.
fn start(application: &Application, now: &SyncStep) -> Option<HookRun> {
    if !now.full || application.syncing {
        return None;
    }
    let revision = application.target_revision.clone().unwrap_or_default();
    let run = Run {
        revision: &revision,
        started: u64::from(now.step),
    };
    let tasks = hook_tasks(now.target, run, now.options);
    if tasks.is_empty() {
        return None;
    }
    Some(HookRun {
        tasks: tasks
            .into_iter()
            .map(|task| (task, Progress::Pending))
            .collect(),
        revision,
        why: now.why.to_string(),
        following_git: now.following_git,
        phase: Phase::PreSync,
        failure: None,
    })
}
