//! How long the agent waits before it tries a failed sync again, and before
//! it reverts drift again, as Argo CD's application controller waits. The
//! world has no clock: a step stands for a minute, so that the agent's
//! default poll of every 3 steps is the longest Argo CD's controller goes
//! between two reads of Git (`--app-resync` 120 s, plus up to 60 s of
//! `--app-resync-jitter`), and a wait ends at the first step at least that
//! long after the attempt it follows (5 s and 54 s both end at the next
//! step).
//!
//! A failed automated sync is retried (`processRequestedAppOperation`:
//! while `RetryCount` is below the limit, the operation stays running and
//! is tried again at `RetryStrategy.NextRetryAt`), before "failed previous
//! sync attempt" holds. `autoSync` gives an automated sync
//! `RetryStrategy{Limit: 5}` unless the Application's `syncPolicy.retry`
//! says otherwise, with the default backoff of `NextRetryAt`: 5 s, doubling
//! (`DefaultSyncRetryDuration`, `DefaultSyncRetryFactor`), at most 3 min
//! (`DefaultSyncRetryMaxDuration`). A sync a person asks for gets the
//! Application's `syncPolicy.retry` (or what the request asks, `argocd app
//! sync --retry-limit`), and without one is not retried (the API server's
//! `Sync` in `server/application/application.go`).
//!
//! Self-heal backs off (`selfHealRemainingBackoff`): the n-th revert of one
//! revision waits, after the last sync, what the controller's backoff
//! gives at its n-th step: nothing before the first, then 2 s, tripled at
//! each revert, at most 5 min (`--self-heal-backoff-timeout-seconds` 2,
//! `--self-heal-backoff-factor` 3, `--self-heal-backoff-cap-seconds` 300).
//! The count starts again with a new revision or a person's sync.

pub use crate::scenario::retry::{Backoff, RetryStrategy};
use gitops_core::state::State;
use serde::Serialize;
use std::fmt;

pub use crate::durations::{steps_for, SECONDS_PER_STEP};

/// `selfHealRemainingBackoff` with the controller's default backoff: the
/// seconds the revert after `reverts` reverts of a revision waits after the
/// last sync. `wait.Backoff.Step` taken `reverts` times: 0, 2, 6, 18, 54,
/// 162, then the cap of 300.
pub fn self_heal_delay(reverts: u32) -> f64 {
    const DURATION: f64 = 2.0;
    const FACTOR: f64 = 3.0;
    const CAP: f64 = 300.0;
    match reverts {
        0 => 0.0,
        n => (DURATION * FACTOR.powf(f64::from(n - 1))).min(CAP),
    }
}

/// A failed automated sync waiting to be tried again: Argo CD's operation,
/// still running, with `RetryCount` retries and the time of the next.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Retry {
    /// The revision the retries sync (Argo CD's `retry.refresh` is off: a
    /// newer revision waits for them).
    pub revision: String,
    /// The retries so far: 1 after the first failure.
    pub count: u32,
    /// The most retries; none when there is no limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// The step it tries at.
    pub at: u32,
    /// Why the last attempt failed.
    pub message: String,
    /// The desired state of `revision`.
    #[serde(skip)]
    pub(super) target: State,
}

impl fmt::Display for Retry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.limit {
            Some(limit) => write!(f, "retrying ({}/{limit})", self.count),
            None => write!(f, "retrying ({}, no limit)", self.count),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_retry_at_doubles_from_5_seconds_up_to_3_minutes() {
        let default = RetryStrategy::automated();
        let waits: Vec<f64> = (0..7).map(|n| default.delay(n).unwrap()).collect();
        assert_eq!(waits, [5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 180.0]);
        let steps: Vec<u32> = waits.iter().map(|wait| steps_for(*wait)).collect();
        assert_eq!(steps, [1, 1, 1, 1, 2, 3, 3]);
        assert!(default.retries_after(4) && !default.retries_after(5));
        let unlimited = RetryStrategy {
            limit: -1,
            backoff: None,
        };
        assert!(unlimited.retries_after(1000) && unlimited.most().is_none());
    }

    #[test]
    fn self_heal_backs_off_as_the_controllers_default_backoff_steps() {
        let waits: Vec<f64> = (0..8).map(self_heal_delay).collect();
        assert_eq!(waits, [0.0, 2.0, 6.0, 18.0, 54.0, 162.0, 300.0, 300.0]);
        let steps: Vec<u32> = waits.iter().map(|wait| steps_for(*wait)).collect();
        assert_eq!(steps, [0, 1, 1, 1, 1, 3, 5, 5]);
    }
}
