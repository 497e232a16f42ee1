//! CronJob: a check Argo CD ships beside gitops-engine's, in Lua
//! (resource_customizations/batch/CronJob/health.lua).

use super::{flag, list, present, text, Health};
use crate::value::ValueRef;

/// resource_customizations/batch/CronJob/health.lua. The status alone does
/// not tell a run that failed from one still going, so only a last success
/// older than the last schedule, with no job running, is Degraded.
pub(super) fn cron_job(cron_job: ValueRef) -> Health {
    // "CronJob is Suspended": Healthy, not Suspended, until argo-cd#24428.
    if flag(cron_job, &["spec", "suspend"]) {
        return Health::Healthy;
    }
    // "Waiting for CronJob".
    let Some(status) = present(cron_job, &["status"]) else {
        return Health::Progressing;
    };
    // "CronJob has not been scheduled yet", or it misses its schedule: the
    // status cannot tell.
    let Some(scheduled) = present(status, &["lastScheduleTime"]) else {
        return Health::Healthy;
    };
    // "The CronJob never completed successfully. It may not be healthy": its
    // first run may still be going.
    let Some(succeeded) = present(status, &["lastSuccessfulTime"]) else {
        return Health::Healthy;
    };
    // "The job is running. Its last execution may not have been successful"
    // (argo-cd#24429).
    if list(status, &["active"]).any(|job| !job.is_null()) {
        return Health::Healthy;
    }
    // "CronJob has not completed its last execution successfully": Lua
    // compares the two timestamps as strings.
    if text(succeeded, &[]) < text(scheduled, &[]) {
        return Health::Degraded;
    }
    // "CronJob has completed its last execution successfully".
    Health::Healthy
}

#[cfg(test)]
mod tests {
    use super::super::health;
    use super::*;
    use serde_json::{json, Value};

    fn with_status(status: Value) -> Value {
        json!({
            "apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "report"}, "spec": {"schedule": "0 * * * *"},
            "status": status,
        })
    }

    #[test]
    fn without_a_status_it_waits() {
        assert_eq!(health(&with_status(Value::Null)), Some(Health::Progressing));
        let mut cron_job = with_status(json!({}));
        cron_job.as_object_mut().unwrap().remove("status");
        assert_eq!(health(&cron_job), Some(Health::Progressing));
    }

    #[test]
    fn a_failed_last_run_is_degraded_once_no_job_runs() {
        let failed = |active: Value| {
            health(&with_status(json!({
                "lastScheduleTime": "2025-07-30T13:46:00Z",
                "lastSuccessfulTime": "2025-07-30T13:44:19Z",
                "active": active,
            })))
        };
        assert_eq!(failed(json!([{"name": "report-1"}])), Some(Health::Healthy));
        // Lua drops a JSON list's nulls: no job runs.
        for none in [json!([]), json!([null]), json!(null), json!({"name": "x"})] {
            assert_eq!(failed(none.clone()), Some(Health::Degraded), "{none}");
        }
    }
}
