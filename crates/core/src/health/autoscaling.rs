//! HorizontalPodAutoscaler (gitops-engine's health_hpa.go): autoscaling/v1
//! keeps its conditions as JSON text in an annotation, v2beta1, v2beta2 and v2
//! in `status.conditions`; both are judged the same way.

use super::{at, list, text, Health};
use serde_json::Value;

const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";

/// Conditions whose reason means the autoscaler cannot do its job.
const DEGRADED: [(&str, &str); 4] = [
    ("AbleToScale", "FailedGetScale"),
    ("AbleToScale", "FailedUpdateScale"),
    ("ScalingActive", "FailedGetResourceMetric"),
    ("ScalingActive", "InvalidSelector"),
];

/// Condition types that, when true, show the autoscaler at work.
const HEALTHY: [&str; 2] = ["AbleToScale", "ScalingLimited"];

pub(super) fn v1(autoscaler: &Value) -> Health {
    let annotation = at(autoscaler, &["metadata", "annotations", CONDITIONS]);
    let Some(annotation) = annotation.and_then(Value::as_str) else {
        return Health::Progressing;
    };
    // Annotation text that is not a JSON list fails Argo CD's check: Unknown.
    match serde_json::from_str::<Value>(annotation) {
        Ok(Value::Array(conditions)) => judge(&conditions),
        Ok(Value::Null) => Health::Progressing,
        _ => Health::Unknown,
    }
}

pub(super) fn v2(autoscaler: &Value) -> Health {
    judge(list(autoscaler, &["status", "conditions"]))
}

/// The first condition that is degraded or healthy decides; none: waiting.
fn judge(conditions: &[Value]) -> Health {
    for condition in conditions {
        let kind = text(condition, &["type"]);
        let reason = text(condition, &["reason"]);
        if DEGRADED.contains(&(kind, reason)) {
            return Health::Degraded;
        }
        if HEALTHY.contains(&kind) && text(condition, &["status"]) == "True" {
            return Health::Healthy;
        }
    }
    Health::Progressing
}
