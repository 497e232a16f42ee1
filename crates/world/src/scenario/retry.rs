//! Argo CD's `syncPolicy.retry` as a scenario writes it: how often, and
//! after how long, a failed sync is tried again (pkg/apis/application/
//! v1alpha1/types.go, `RetryStrategy`, `Backoff`, `NextRetryAt`). The
//! agent's use of it, in steps, is `agent/retry.rs`.

use serde::Serialize;

/// Argo CD's `syncPolicy.retry` (`RetryStrategy`), read field by field
/// (`read_parts.rs`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RetryStrategy {
    /// The most retries of a failed sync; 0 none, -1 no limit.
    pub limit: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backoff: Option<Backoff>,
}

/// Argo CD's `Backoff`: durations in seconds (`30`) or as Go writes them
/// (`5s`, `2m`, `1h30m`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Backoff {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub factor: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
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
pub use crate::durations::seconds;

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
        assert_eq!(
            seconds(".5s"),
            Ok(0.5),
            "Go reads a fraction without its whole part"
        );
        assert_eq!(
            seconds("5.s"),
            Ok(5.0),
            "and a whole part without its fraction"
        );
        assert!(seconds("1.2.3s").is_err());
    }
}
