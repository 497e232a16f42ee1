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

use super::waves::{self, hold_before, sync_wave, Hold, Sync};
use gitops_core::Workspace;
use super::Application;
use crate::cluster::Cluster;
use crate::event::Event;
use gitops_core::health::has_health_check;
use gitops_core::options::Options;
use gitops_core::state::State;
use gitops_core::sync::hook_tasks::{hook_tasks, outcome, DeletePolicy, HookTask, Outcome, Phase, Run};
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

impl HookRun {
    /// One step of the sync; where it stands then.
    fn advance(
        &mut self,
        application: &mut Application,
        cluster: &mut Cluster,
        now: &SyncStep,
        events: &mut Vec<Event>,
    ) -> waves::Progress {
        loop {
            let next = match self.phase {
                Phase::PreSync => self.run_phase(Phase::PreSync, application, cluster, now, events),
                Phase::Sync => self.sync_phase(application, cluster, now, events),
                Phase::PostSync => self.post_sync(application, cluster, now, events),
                Phase::SyncFail => {
                    return match self.run_phase(Phase::SyncFail, application, cluster, now, events)
                    {
                        Next::Wait => waves::Progress::Waiting,
                        Next::Done | Next::Fail(_) => {
                            self.end(false, application, cluster, now, events);
                            waves::Progress::Failed(self.failure.clone().unwrap_or_default())
                        }
                    }
                }
            };
            match next {
                Next::Wait => return waves::Progress::Waiting,
                Next::Fail(why) => self.fail(why, application),
                Next::Done => match self.phase {
                    Phase::PreSync => self.phase = Phase::Sync,
                    Phase::Sync => self.phase = Phase::PostSync,
                    _ => {
                        self.end(true, application, cluster, now, events);
                        return waves::Progress::Finished;
                    }
                },
            }
        }
    }

    /// The hooks of a phase run wave by wave: a wave starts once the hooks
    /// of the one before completed.
    fn run_phase(
        &mut self,
        phase: Phase,
        application: &mut Application,
        cluster: &mut Cluster,
        now: &SyncStep,
        events: &mut Vec<Event>,
    ) -> Next {
        if let Some(next) = self.check(phase, application, cluster, now, events) {
            return next;
        }
        let pending = self.pending(phase);
        // SyncFail hooks start together (`executeSyncFailPhase`).
        let wave = match phase {
            Phase::SyncFail => None,
            _ => pending.iter().map(|&index| self.tasks[index].0.wave).min(),
        };
        let starting: Vec<usize> = pending
            .into_iter()
            .filter(|&index| wave.is_none_or(|wave| self.tasks[index].0.wave == wave))
            .collect();
        if starting.is_empty() {
            return Next::Done;
        }
        self.create(&starting, application, cluster, now, events);
        Next::Wait
    }

    /// The Sync phase: the plan's waves with the Sync hooks in theirs. A
    /// wave starts once the resources of the earlier waves are Healthy and
    /// the hooks of the earlier waves completed.
    fn sync_phase(
        &mut self,
        application: &mut Application,
        cluster: &mut Cluster,
        now: &SyncStep,
        events: &mut Vec<Event>,
    ) -> Next {
        if let Some(next) = self.check(Phase::Sync, application, cluster, now, events) {
            return next;
        }
        let pending = self.pending(Phase::Sync);
        let hook_wave = pending.iter().map(|&index| self.tasks[index].0.wave).min();
        let plan_wave = now
            .plan
            .iter()
            .find(|operation| operation.changes_cluster())
            .map(Operation::wave);
        let Some(wave) = hook_wave.filter(|hooks| plan_wave.is_none_or(|plan| *hooks <= plan))
        else {
            return match waves(application, cluster, now, events) {
                waves::Progress::Finished if pending.is_empty() => Next::Done,
                waves::Progress::Failed(why) => Next::Fail(why),
                _ => Next::Wait,
            };
        };
        match hold_before(&mut Workspace::new(), now.target, cluster.actual(), wave) {
            Some(Hold::Degraded { key, .. }) => {
                return Next::Fail(format!("{key} is Degraded, so wave {wave} never starts"))
            }
            Some(waiting @ Hold::Waiting { .. }) => {
                let waiting = waiting.to_string();
                say_once(
                    application,
                    now,
                    waiting,
                    "a wave starts only when the earlier waves are healthy",
                    events,
                );
                return Next::Wait;
            }
            Some(Hold::Confirm { .. } | Hold::Refused { .. }) | None => {}
        }
        let starting: Vec<usize> = pending
            .into_iter()
            .filter(|&index| self.tasks[index].0.wave == wave)
            .collect();
        self.create(&starting, application, cluster, now, events);
        if plan_wave == Some(wave) {
            if let waves::Progress::Failed(why) = waves(application, cluster, now, events) {
                return Next::Fail(why);
            }
        }
        Next::Wait
    }

    /// The PostSync hooks start once every resource is Healthy.
    fn post_sync(
        &mut self,
        application: &mut Application,
        cluster: &mut Cluster,
        now: &SyncStep,
        events: &mut Vec<Event>,
    ) -> Next {
        let started = self.tasks.iter().any(|(task, progress)| {
            task.phase == Phase::PostSync && *progress != Progress::Pending
        });
        if !started && !self.pending(Phase::PostSync).is_empty() {
            match hold_before(&mut Workspace::new(), now.target, cluster.actual(), i64::MAX) {
                Some(Hold::Degraded { key, .. }) => {
                    return Next::Fail(format!(
                        "{key} is Degraded, so the PostSync hooks never start"
                    ))
                }
                Some(Hold::Waiting { key, state, .. }) => {
                    let waiting = format!("PostSync waits until {key} is Healthy (it is {state})");
                    say_once(
                        application,
                        now,
                        waiting,
                        "the PostSync hooks run once every object of the sync is Healthy",
                        events,
                    );
                    return Next::Wait;
                }
                Some(Hold::Confirm { .. } | Hold::Refused { .. }) | None => {}
            }
        }
        self.run_phase(Phase::PostSync, application, cluster, now, events)
    }

    /// How the hooks of `phase` that run are doing: what the sync does
    /// while one still runs or one failed (none when all completed). A
    /// failure counts once none runs any more, as gitops-engine waits for
    /// every running task before it fails a sync.
    fn check(
        &mut self,
        phase: Phase,
        application: &mut Application,
        cluster: &Cluster,
        now: &SyncStep,
        events: &mut Vec<Event>,
    ) -> Option<Next> {
        let mut running = None;
        let mut failed = None;
        for (task, progress) in self
            .tasks
            .iter_mut()
            .filter(|(task, _)| task.phase == phase)
        {
            if *progress == Progress::Running {
                match outcome(cluster.actual().get(&task.key)) {
                    Outcome::Running(health) => {
                        running.get_or_insert(format!(
                            "{phase} waits until hook {} completes (it is {health})",
                            task.key
                        ));
                    }
                    Outcome::Succeeded => {
                        *progress = Progress::Succeeded;
                        events.push(
                            Event::new(
                                now.step,
                                "agent",
                                format!("{}: {phase} hook {} completed", now.environment, task.key),
                            )
                            .because(why_done(task)),
                        );
                    }
                    Outcome::Failed(why) => {
                        *progress = Progress::Failed;
                        failed.get_or_insert(format!("{phase} hook {} failed ({why})", task.key));
                    }
                }
            }
            if *progress == Progress::Failed {
                failed.get_or_insert(format!("{phase} hook {} failed", task.key));
            }
        }
        if let Some(waiting) = running {
            say_once(
                application,
                now,
                waiting,
                "a phase, and each wave in it, ends when its hooks have completed",
                events,
            );
            return Some(Next::Wait);
        }
        failed.map(Next::Fail)
    }

    fn pending(&self, phase: Phase) -> Vec<usize> {
        (0..self.tasks.len())
            .filter(|&index| {
                let (task, progress) = &self.tasks[index];
                task.phase == phase && *progress == Progress::Pending
            })
            .collect()
    }

    /// Creates the objects of these hooks, deleting first a hook's object
    /// left from before when its policy says BeforeHookCreation; one whose
    /// policy does not is kept as it is, and runs nothing new.
    fn create(
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

    /// The sync failed: the SyncFail hooks run, and then the agent says
    /// why, retries or gives the revision up (`settle`).
    fn fail(&mut self, why: String, application: &mut Application) {
        self.failure.get_or_insert(why);
        application.waiting = None;
        self.phase = Phase::SyncFail;
    }

    /// The sync ended: the hooks' objects its outcome deletes go, as their
    /// policies say (a hook still running stays).
    fn end(
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

/// Why a hook counts as completed, in words.
fn why_done(task: &HookTask) -> &'static str {
    if has_health_check(&task.object) {
        "it is Healthy"
    } else {
        "its kind has no health check, so it is done once created"
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

/// Says what the sync waits for, unless it said so last.
fn say_once(
    application: &mut Application,
    now: &SyncStep,
    waiting: String,
    why: &str,
    events: &mut Vec<Event>,
) {
    if application.waiting.as_ref() != Some(&waiting) {
        events.push(
            Event::new(now.step, "agent", format!("{}: {waiting}", now.environment)).because(why),
        );
        application.waiting = Some(waiting);
    }
}
