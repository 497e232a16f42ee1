//! What the agent does with an environment once it has read Git: compare, then
//! sync (automatically, by a person's request, or to heal drift), or say why not.

use super::*;
use crate::cluster::{comparable, Cluster};
use crate::event::Event;
use crate::scenario::WorldOptions;
use gitops_core::report::SyncStatus;
use gitops_core::state::State;
use gitops_core::sync::plan::{has_work, Operation};
use gitops_core::Workspace;
use retry::{self_heal_delay, steps_for};
use settle::sync_pass;
use waves::Sync;

impl Agent {
    pub(super) fn act(
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
        // An operation keeps its revision to its end (appcontroller.go: the
        // operation's sync.revision is set when it starts); the retries of a
        // failed one keep theirs.
        let (target, revision) = match (&application.retry, &application.operation) {
            (Some(retry), _) => (retry.target.clone(), retry.revision.clone()),
            (None, Some((target, revision))) if application.syncing => (target.clone(), revision.clone()),
            (None, _) => match &application.target {
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
        // Automated sync starts only for an application OutOfSync (appcontroller.go
        // `autoSync`): work left by what IgnoreExtraneous keeps out of its status waits.
        let auto_sync_may_start = found.status.sync == SyncStatus::OutOfSync || !has_work(&found.plan);
        let heals = heal && has_work(&found.plan) && auto_sync_may_start && starts && step >= heal_at;
        let sync = manual
            || application.syncing
            || (options.auto_sync && new_revision && !failed && auto_sync_may_start)
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
        // IgnoreExtraneous: what Git does not declare is drift, and the application Synced.
        let synced = found.status.sync != SyncStatus::OutOfSync;
        let reason = if synced {
            "what is not in Git says argocd.argoproj.io/compare-options: IgnoreExtraneous, which leaves \
             the application Synced, so no automated sync starts for it"
                .to_string()
        } else if !options.auto_sync {
            "auto-sync is off: it waits for a person to sync".to_string()
        } else if failed {
            "the sync of this revision failed, so it waits for a new revision or a person's sync"
                .to_string()
        } else if backing_off {
            format!(
                "self-heal backs off: revert {} of this revision waits until minute {heal_at} \
                 ({} s after the last sync; Argo CD's self-heal backoff: 2 s, tripled at each \
                 revert, at most 5 min; the playground's time moves a minute at a time)",
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
                format!("{environment} is {}: {}", if synced { "Synced" } else { "OutOfSync" }, parts.join("; ")),
            )
            .because(reason),
        );
    }

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

