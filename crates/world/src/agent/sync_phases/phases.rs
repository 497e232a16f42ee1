//! The phases of a sync with hooks, a step at a time: which hooks of a
//! phase start (wave by wave, the Sync hooks beside the plan's waves, the
//! PostSync ones once every resource is Healthy), how those running are
//! doing, and when the sync waits, moves on to the next phase or fails.

use super::{waves, HookRun, Next, Progress, SyncStep};
use crate::agent::waves::{hold_before, Hold};
use crate::agent::Application;
use crate::cluster::Cluster;
use crate::event::Event;
use gitops_core::health::has_health_check;
use gitops_core::sync::hook_tasks::{outcome, HookTask, Outcome, Phase};
use gitops_core::sync::plan::Operation;
use gitops_core::Workspace;

impl HookRun {
    /// One step of the sync; where it stands then.
    pub(super) fn advance(
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
            match hold_before(
                &mut Workspace::new(),
                now.target,
                cluster.actual(),
                i64::MAX,
            ) {
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

    /// The sync failed: the SyncFail hooks run, and then the agent says
    /// why, retries or gives the revision up (`settle`).
    fn fail(&mut self, why: String, application: &mut Application) {
        self.failure.get_or_insert(why);
        application.waiting = None;
        self.phase = Phase::SyncFail;
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
