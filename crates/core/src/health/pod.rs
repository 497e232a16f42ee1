//! Pods (gitops-engine's health_pod.go).

use super::{condition, list, text, Health};
use crate::state::hook_annotations::is_hook;
use crate::value::{Items, ValueRef};

/// With "true", Argo CD judges a running pod that is not a hook as one that
/// restarts forever, whatever its restart policy.
const IGNORE_RESTART_POLICY: &str = "argocd.argoproj.io/ignore-restart-policy";

/// health_pod.go's `getCorev1PodHealth`.
pub(super) fn pod(pod: ValueRef) -> Health {
    // A live pod always has one: the API server defaults it to Always (`SetDefaults_PodSpec`).
    let restart_policy = match text(pod, &["spec", "restartPolicy"]) {
        "" => "Always",
        written => written,
    };
    let long_running = restart_policy == "Always"
        || (annotation(pod, IGNORE_RESTART_POLICY) == Some("true") && !is_hook(pod));
    let containers = list(pod, &["status", "containerStatuses"]);
    // Only for pods that restart forever: a hook pod (OnFailure, Never) that
    // waits on its image must not fail its sync early.
    if long_running && containers.clone().any(waits_on_an_error) {
        return Health::Degraded;
    }
    match text(pod, &["status", "phase"]) {
        "Pending" => Health::Progressing,
        "Succeeded" => Health::Healthy,
        "Failed" => Health::Degraded,
        "Running" if long_running => running(pod, containers),
        // Pods that run to an end are usually hooks: Progressing until they
        // end, rather than Healthy.
        "Running" if matches!(restart_policy, "OnFailure" | "Never") => Health::Progressing,
        _ => Health::Unknown,
    }
}

fn annotation<'a>(object: ValueRef<'a>, name: &str) -> Option<&'a str> {
    object.at(&["metadata", "annotations", name]).and_then(ValueRef::as_str)
}

/// A container waiting because of an error: `Err...`, `...Error`, `...BackOff`
/// (ErrImagePull, CreateContainerConfigError, CrashLoopBackOff...).
fn waits_on_an_error(container: ValueRef) -> bool {
    let reason = text(container, &["state", "waiting", "reason"]);
    reason.starts_with("Err") || reason.ends_with("Error") || reason.ends_with("BackOff")
}

/// A running pod: Healthy when ready, Degraded when not ready and a container
/// has terminated before, otherwise on its way.
fn running(pod: ValueRef, mut containers: Items) -> Health {
    let ready = condition(pod, "Ready").is_some_and(|c| text(c, &["status"]) == "True");
    if ready {
        Health::Healthy
    } else if containers.any(|c| c.at(&["lastState", "terminated"]).is_some_and(ValueRef::is_object))
    {
        Health::Degraded
    } else {
        Health::Progressing
    }
}

#[cfg(test)]
mod tests {
    use super::super::health;
    use super::*;
    use serde_json::Value;
    use crate::state::hook_annotations::{HELM_HOOK, HOOK};
    use serde_json::json;

    /// A running pod that runs to an end, not ready, its container waiting
    /// after a crash.
    fn crashing_job_pod(annotations: Value) -> Value {
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "migrate", "annotations": annotations},
            "spec": {"restartPolicy": "Never"},
            "status": {
                "phase": "Running",
                "containerStatuses": [{"state": {"waiting": {"reason": "CrashLoopBackOff"}}}],
            },
        })
    }

    /// Its health with these annotations.
    fn judged(annotations: &[(&str, &str)]) -> Option<Health> {
        let annotations: serde_json::Map<String, Value> = annotations
            .iter()
            .map(|(name, value)| (name.to_string(), json!(value)))
            .collect();
        health(&crashing_job_pod(Value::Object(annotations)))
    }

    #[test]
    fn the_annotation_counts_only_when_true_and_not_on_a_hook() {
        let ignore = (IGNORE_RESTART_POLICY, "true");
        assert_eq!(judged(&[]), Some(Health::Progressing));
        assert_eq!(
            judged(&[(IGNORE_RESTART_POLICY, "yes")]),
            Some(Health::Progressing)
        );
        assert_eq!(judged(&[ignore]), Some(Health::Degraded));
        // Hooks keep their restart policy's judgement.
        for hook in [
            (HOOK, "PreSync"),
            (HOOK, "Bogus"),
            (HOOK, "Skip, PostSync"),
            (HELM_HOOK, "pre-install"),
        ] {
            assert_eq!(
                judged(&[ignore, hook]),
                Some(Health::Progressing),
                "{hook:?}"
            );
        }
        // Skip alone, or Helm's crd-install, makes no hook.
        for hook in [
            (HOOK, "Skip"),
            (HOOK, "Skip,Skip,Bogus"),
            (HELM_HOOK, "crd-install"),
        ] {
            assert_eq!(judged(&[ignore, hook]), Some(Health::Degraded), "{hook:?}");
        }
    }
}
