//! One pass of a sync, and what the agent does when it ends: the revision synced,
//! or a retry, or the revision's sync failed.

use super::*;
use crate::cluster::Cluster;
use crate::event::Event;
use crate::scenario::WorldOptions;
use retry::{steps_for, Retry, RetryStrategy};
use waves::{Progress, Sync};

/// One pass of a sync, with its hooks when it is a `full` one (`sync_phases.rs`),
/// and what the agent does when it ends (`settle`).
pub(super) fn sync_pass(
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
    application.operation = application.syncing.then(|| (target.clone(), revision.to_string()));
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
                 the playground's time moves a minute at a time)",
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

