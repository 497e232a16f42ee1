//! What runs to an end, and the claims it mounts: Job, Argo Workflow,
//! PersistentVolumeClaim (gitops-engine's health_job.go, health_argo.go,
//! health_pvc.go).

use super::{list, text, Health};
use crate::value::ValueRef;

pub(super) fn job(job: ValueRef) -> Health {
    let (mut complete, mut failed, mut suspended) = (false, false, false);
    // As Argo CD does, a Failed or Complete condition counts whatever its status.
    for condition in list(job, &["status", "conditions"]) {
        match text(condition, &["type"]) {
            "Failed" => (complete, failed) = (true, true),
            "Complete" => complete = true,
            "Suspended" => {
                complete = true;
                suspended |= text(condition, &["status"]) == "True";
            }
            _ => {}
        }
    }
    if !complete {
        Health::Progressing
    } else if failed {
        Health::Degraded
    } else if suspended {
        Health::Suspended
    } else {
        Health::Healthy
    }
}

pub(super) fn workflow(workflow: ValueRef) -> Health {
    match text(workflow, &["status", "phase"]) {
        "" | "Pending" | "Running" => Health::Progressing,
        "Succeeded" => Health::Healthy,
        "Failed" | "Error" => Health::Degraded,
        _ => Health::Unknown,
    }
}

pub(super) fn persistent_volume_claim(claim: ValueRef) -> Health {
    match text(claim, &["status", "phase"]) {
        "Lost" => Health::Degraded,
        "Pending" => Health::Progressing,
        "Bound" => Health::Healthy,
        _ => Health::Unknown,
    }
}
