//! Pods (gitops-engine's health_pod.go).

use super::{at, condition, list, text, Health};
use serde_json::Value;

/// Makes Argo CD judge a running pod by readiness whatever its restart policy.
const IGNORE_RESTART_POLICY: &str = "argocd.argoproj.io/ignore-restart-policy";

pub(super) fn pod(pod: &Value) -> Health {
    let restart_policy = text(pod, &["spec", "restartPolicy"]);
    let containers = list(pod, &["status", "containerStatuses"]);
    // Only for pods that restart forever: a hook pod (OnFailure, Never) that
    // waits on its image must not fail its sync early.
    if restart_policy == "Always" && containers.iter().any(waits_on_an_error) {
        return Health::Degraded;
    }
    match text(pod, &["status", "phase"]) {
        "Pending" => Health::Progressing,
        "Succeeded" => Health::Healthy,
        "Failed" => Health::Degraded,
        "Running" => {
            let ignore_policy = at(pod, &["metadata", "annotations", IGNORE_RESTART_POLICY]);
            match restart_policy {
                _ if ignore_policy.is_some() => running(pod, containers),
                "Always" => running(pod, containers),
                // Pods that run to an end are usually hooks: Progressing until
                // they end, rather than Healthy.
                "OnFailure" | "Never" => Health::Progressing,
                _ => Health::Unknown,
            }
        }
        _ => Health::Unknown,
    }
}

/// A container waiting because of an error: `Err...`, `...Error`, `...BackOff`
/// (ErrImagePull, CreateContainerConfigError, CrashLoopBackOff...).
fn waits_on_an_error(container: &Value) -> bool {
    let reason = text(container, &["state", "waiting", "reason"]);
    reason.starts_with("Err") || reason.ends_with("Error") || reason.ends_with("BackOff")
}

/// A running pod: Healthy when ready, Degraded when not ready and a container
/// has terminated before, otherwise on its way.
fn running(pod: &Value, containers: &[Value]) -> Health {
    let ready = condition(pod, "Ready").is_some_and(|c| text(c, &["status"]) == "True");
    if ready {
        Health::Healthy
    } else if containers
        .iter()
        .any(|c| at(c, &["lastState", "terminated"]).is_some_and(Value::is_object))
    {
        Health::Degraded
    } else {
        Health::Progressing
    }
}
