//! The `apps` workloads: Deployment, StatefulSet, ReplicaSet, DaemonSet
//! (gitops-engine's health_deployment.go, health_statefulset.go,
//! health_replicaset.go, health_daemonset.go; after kubectl's rollout status).

use super::{condition, count, flag, integer, spec_unobserved, text, Health};
use crate::value::ValueRef;

pub(super) fn deployment(deployment: ValueRef) -> Health {
    if flag(deployment, &["spec", "paused"]) {
        return Health::Suspended;
    }
    if spec_unobserved(deployment) {
        return Health::Progressing;
    }
    let progressing = condition(deployment, "Progressing");
    if progressing.is_some_and(|c| text(c, &["reason"]) == "ProgressDeadlineExceeded") {
        return Health::Degraded;
    }
    let wanted = integer(deployment, &["spec", "replicas"]);
    let replicas = count(deployment, &["status", "replicas"]);
    let updated = count(deployment, &["status", "updatedReplicas"]);
    let available = count(deployment, &["status", "availableReplicas"]);
    if wanted.is_some_and(|wanted| updated < wanted) || replicas > updated || available < updated {
        // New replicas still to create, old ones still to end, or new ones not
        // yet available.
        return Health::Progressing;
    }
    Health::Healthy
}

pub(super) fn stateful_set(set: ValueRef) -> Health {
    if count(set, &["status", "observedGeneration"]) == 0 || spec_unobserved(set) {
        return Health::Progressing;
    }
    let wanted = integer(set, &["spec", "replicas"]);
    let ready = count(set, &["status", "readyReplicas"]);
    if wanted.is_some_and(|wanted| ready < wanted) {
        return Health::Progressing;
    }
    let strategy = text(set, &["spec", "updateStrategy", "type"]);
    let rolling = set.at(&["spec", "updateStrategy", "rollingUpdate"]);
    if let Some(rolling) = rolling.filter(|r| r.is_object() && strategy == "RollingUpdate") {
        // A partitioned roll out is done once the pods above the partition are.
        if let (Some(wanted), Some(partition)) = (wanted, integer(rolling, &["partition"])) {
            if count(set, &["status", "updatedReplicas"]) < wanted.saturating_sub(partition) {
                return Health::Progressing;
            }
        }
        return Health::Healthy;
    }
    if strategy == "OnDelete" {
        return Health::Healthy;
    }
    if text(set, &["status", "updateRevision"]) != text(set, &["status", "currentRevision"]) {
        return Health::Progressing;
    }
    Health::Healthy
}

pub(super) fn replica_set(set: ValueRef) -> Health {
    if spec_unobserved(set) {
        return Health::Progressing;
    }
    let failure = condition(set, "ReplicaFailure");
    if failure.is_some_and(|c| text(c, &["status"]) == "True") {
        return Health::Degraded;
    }
    let wanted = integer(set, &["spec", "replicas"]);
    let available = count(set, &["status", "availableReplicas"]);
    if wanted.is_some_and(|wanted| available < wanted) {
        return Health::Progressing;
    }
    Health::Healthy
}

pub(super) fn daemon_set(set: ValueRef) -> Health {
    if spec_unobserved(set) {
        return Health::Progressing;
    }
    if text(set, &["spec", "updateStrategy", "type"]) == "OnDelete" {
        return Health::Healthy;
    }
    let desired = count(set, &["status", "desiredNumberScheduled"]);
    let updated = count(set, &["status", "updatedNumberScheduled"]);
    let available = count(set, &["status", "numberAvailable"]);
    if updated < desired || available < desired {
        return Health::Progressing;
    }
    Health::Healthy
}
