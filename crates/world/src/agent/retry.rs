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

use gitops_core::state::State;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The seconds a step of the world stands for.
pub const SECONDS_PER_STEP: f64 = 60.0;

/// The steps a wait of `seconds` takes: the first step at least that long after.
pub fn steps_for(seconds: f64) -> u32 {
    let steps = (seconds / SECONDS_PER_STEP).ceil();
    if steps.is_nan() || steps <= 0.0 {
        0
    } else if steps >= f64::from(u32::MAX) {
        u32::MAX
    } else {
        steps as u32
    }
}

/// Argo CD's `syncPolicy.retry` (`RetryStrategy`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RetryStrategy {
    /// The most retries of a failed sync; 0 none, -1 no limit.
    #[serde(default)]
    pub limit: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff: Option<Backoff>,
}

/// Argo CD's `Backoff`: durations in seconds (`30`) or as Go writes them
/// (`5s`, `2m`, `1h30m`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Backoff {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factor: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_duration: Option<String>,
}

/// `DefaultSyncRetryDuration`, `DefaultSyncRetryFactor`, `DefaultSyncRetryMaxDuration`.
const DEFAULT_DURATION: f64 = 5.0;
const DEFAULT_FACTOR: i64 = 2;
const DEFAULT_MAX_DURATION: f64 = 180.0;

impl RetryStrategy {
    /// What `autoSync` gives an automated sync when `syncPolicy.retry` is unset.
    pub fn automated() -> Self {
        RetryStrategy {
            limit: 5,
            backoff: None,
        }
    }

    /// No retries: a person's sync when the Application sets none.
    pub fn none() -> Self {
        RetryStrategy {
            limit: 0,
            backoff: None,
        }
    }

    /// Whether a sync that failed after `retries` retries is tried again.
    pub fn retries_after(&self, retries: u32) -> bool {
        self.limit < 0 || i64::from(retries) < self.limit
    }

    /// The most retries, if there is a limit.
    pub fn most(&self) -> Option<u32> {
        (self.limit >= 0).then(|| u32::try_from(self.limit).unwrap_or(u32::MAX))
    }

    /// `NextRetryAt`: the seconds from a failure, after `retries` retries,
    /// to the next attempt: duration × factor^retries, at most maxDuration
    /// (when it is above 0). `Err` names a duration that does not read.
    pub fn delay(&self, retries: u32) -> Result<f64, String> {
        let backoff = self.backoff.as_ref();
        let duration = match backoff.and_then(|b| b.duration.as_deref()) {
            Some(text) if !text.is_empty() => seconds(text)?,
            _ => DEFAULT_DURATION,
        };
        let max = match backoff.and_then(|b| b.max_duration.as_deref()) {
            Some(text) if !text.is_empty() => seconds(text)?,
            _ => DEFAULT_MAX_DURATION,
        };
        let factor = backoff.and_then(|b| b.factor).unwrap_or(DEFAULT_FACTOR);
        let wait = duration * (factor as f64).powf(f64::from(retries));
        Ok(if max > 0.0 { wait.min(max) } else { wait })
    }

    /// The durations that do not read, with where they are under `retry`.
    pub fn unreadable(&self) -> Option<(&'static str, String)> {
        let backoff = self.backoff.as_ref()?;
        let fields = [
            ("/backoff/duration", &backoff.duration),
            ("/backoff/maxDuration", &backoff.max_duration),
        ];
        fields.into_iter().find_map(|(pointer, text)| {
            let text = text.as_deref().filter(|text| !text.is_empty())?;
            seconds(text).err().map(|error| (pointer, error))
        })
    }
}

/// Argo CD's `parseStringToDuration`: a whole number is seconds, anything
/// else a Go duration (`time.ParseDuration`).
pub fn seconds(text: &str) -> Result<f64, String> {
    if let Ok(whole) = text.parse::<i64>() {
        return Ok(whole as f64);
    }
    go_duration(text).ok_or_else(|| format!("unable to parse {text} as a duration"))
}

/// `time.ParseDuration`: an optional sign, then numbers (decimals allowed),
/// each with a unit (ns, us, µs, ms, s, m, h), as `1h30m` or `2.5s`.
fn go_duration(text: &str) -> Option<f64> {
    let (sign, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest == "0" {
        return Some(0.0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total = 0.0;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(number_end);
        if number.is_empty() || number == "." {
            return None;
        }
        let number: f64 = number.parse().ok()?;
        let unit_end = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, after) = after.split_at(unit_end);
        let scale = match unit {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return None,
        };
        total += number * scale;
        rest = after;
    }
    Some(sign * total)
}

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
    fn durations_read_as_argo_cd_reads_them() {
        assert_eq!(seconds("30"), Ok(30.0), "a whole number is seconds");
        assert_eq!(seconds("5s"), Ok(5.0));
        assert_eq!(seconds("1h30m"), Ok(5400.0));
        assert_eq!(seconds("2.5m"), Ok(150.0));
        assert_eq!(seconds("500ms"), Ok(0.5));
        assert!(seconds("soon").is_err());
        assert!(seconds("5").is_ok() && seconds("5x").is_err() && seconds("").is_err());
    }

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
