//! HorizontalPodAutoscaler (gitops-engine's health_hpa.go): autoscaling/v1
//! keeps its conditions as JSON text in an annotation, autoscaling/v2 in
//! `status.conditions`; both are judged the same way. Argo CD knows no other
//! version of it (v2beta1 and v2beta2 went in argo-cd#27887).

use super::{list, text, Health};
use crate::value::ValueRef;
use serde_json::Value;

const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";

/// Conditions whose reason means the autoscaler cannot do its job.
const DEGRADED: [(&str, &str); 8] = [
    ("AbleToScale", "FailedGetScale"),
    ("AbleToScale", "FailedUpdateScale"),
    ("ScalingActive", "FailedGetResourceMetric"),
    ("ScalingActive", "FailedGetObjectMetric"),
    ("ScalingActive", "FailedGetPodsMetric"),
    ("ScalingActive", "FailedGetExternalMetric"),
    ("ScalingActive", "FailedComputeMetricsReplicas"),
    ("ScalingActive", "InvalidSelector"),
];

/// Condition types that, when true, show the autoscaler at work.
const HEALTHY: [&str; 2] = ["AbleToScale", "ScalingLimited"];

/// One condition as health_hpa.go's `hpaCondition` holds it.
#[derive(Default)]
struct Condition<'a> {
    kind: &'a str,
    reason: &'a str,
    status: &'a str,
}

/// health_hpa.go's `getAutoScalingV1HPAHealth`.
pub(super) fn v1(autoscaler: ValueRef) -> Health {
    let annotation = autoscaler.at(&["metadata", "annotations", CONDITIONS]);
    let Some(annotation) = annotation.and_then(ValueRef::as_str) else {
        return Health::Progressing;
    };
    // Annotation text Go cannot decode fails Argo CD's check: Unknown.
    let Ok(decoded) = crate::text::json::read_last_wins(annotation) else {
        return Health::Unknown;
    };
    match annotated(&decoded) {
        Some(conditions) => check_conditions(&conditions),
        None => Health::Unknown,
    }
}

/// health_hpa.go's `getAutoScalingV2HPAHealth`.
pub(super) fn v2(autoscaler: ValueRef) -> Health {
    let conditions: Vec<Condition> = list(autoscaler, &["status", "conditions"])
        .map(|condition| Condition {
            kind: text(condition, &["type"]),
            reason: text(condition, &["reason"]),
            status: text(condition, &["status"]),
        })
        .collect();
    check_conditions(&conditions)
}

/// The annotation's conditions as Go's encoding/json decodes them into
/// `[]hpaCondition`: null or a list of nulls and objects whose fields, named
/// ignoring case, are strings or null (a null changes nothing, a later key
/// wins). None for anything else, which fails the decoding.
fn annotated(decoded: &Value) -> Option<Vec<Condition<'_>>> {
    let items = match decoded {
        Value::Null => return Some(Vec::new()),
        Value::Array(items) => items,
        _ => return None,
    };
    let mut conditions = Vec::with_capacity(items.len());
    for item in items {
        let mut condition = Condition::default();
        let fields = match item {
            Value::Null => None,
            Value::Object(fields) => Some(fields),
            _ => return None,
        };
        for (name, value) in fields.into_iter().flatten() {
            let field = match go_folded(name).as_str() {
                "TYPE" => Some(&mut condition.kind),
                "REASON" => Some(&mut condition.reason),
                "STATUS" => Some(&mut condition.status),
                "MESSAGE" => None,
                _ => continue,
            };
            match (value, field) {
                (Value::String(text), Some(field)) => *field = text,
                (Value::String(_) | Value::Null, _) => {}
                _ => return None,
            }
        }
        conditions.push(condition);
    }
    Some(conditions)
}

/// A JSON key as encoding/json folds it to match a field name: ASCII letters
/// in upper case, and the long s (U+017F), which Unicode folds with s, as S.
fn go_folded(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'ſ' => 'S',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// health_hpa.go's `checkConditions`: any degraded condition makes it
/// Degraded, wherever it is in the list; then any healthy one makes it
/// Healthy; none: still waiting to autoscale.
fn check_conditions(conditions: &[Condition]) -> Health {
    if conditions
        .iter()
        .any(|c| DEGRADED.contains(&(c.kind, c.reason)))
    {
        Health::Degraded
    } else if conditions
        .iter()
        .any(|c| HEALTHY.contains(&c.kind) && c.status == "True")
    {
        Health::Healthy
    } else {
        Health::Progressing
    }
}

#[cfg(test)]
mod tests {
    use super::super::health;
    use super::*;
    use serde_json::{json, Value};

    fn annotated_v1(conditions: &str) -> Value {
        json!({
            "apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "web", "annotations": {CONDITIONS: conditions}},
        })
    }

    fn v2_with(conditions: Value) -> Value {
        json!({
            "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "web"}, "status": {"conditions": conditions},
        })
    }

    #[test]
    fn a_degraded_condition_anywhere_outweighs_a_healthy_one_before_it() {
        let conditions = json!([
            {"type": "AbleToScale", "status": "True", "reason": "SucceededGetScale"},
            {"type": "ScalingActive", "status": "False", "reason": "FailedGetPodsMetric"},
        ]);
        assert_eq!(health(&v2_with(conditions.clone())), Some(Health::Degraded));
        let text = conditions.to_string();
        assert_eq!(health(&annotated_v1(&text)), Some(Health::Degraded));
    }

    #[test]
    fn every_metric_failure_is_degraded() {
        for reason in [
            "FailedGetResourceMetric",
            "FailedGetObjectMetric",
            "FailedGetPodsMetric",
            "FailedGetExternalMetric",
            "FailedComputeMetricsReplicas",
            "InvalidSelector",
        ] {
            let conditions =
                json!([{"type": "ScalingActive", "status": "False", "reason": reason}]);
            assert_eq!(
                health(&v2_with(conditions)),
                Some(Health::Degraded),
                "{reason}"
            );
        }
    }

    #[test]
    fn only_v1_and_v2_are_versions_argo_cd_knows() {
        let mut autoscaler = v2_with(json!([{"type": "AbleToScale", "status": "True"}]));
        assert_eq!(health(&autoscaler), Some(Health::Healthy));
        for version in ["autoscaling/v2beta1", "autoscaling/v2beta2"] {
            autoscaler["apiVersion"] = json!(version);
            assert_eq!(health(&autoscaler), Some(Health::Unknown), "{version}");
        }
    }

    #[test]
    fn the_annotation_decodes_as_go_decodes_it() {
        // null, an empty list and null items hold no condition: waiting.
        for text in ["null", "[]", "[null]", "[{}]"] {
            assert_eq!(
                health(&annotated_v1(text)),
                Some(Health::Progressing),
                "{text}"
            );
        }
        // Fields are named ignoring case; a null changes nothing.
        let text = r#"[{"TYPE": "AbleToScale", "Status": "True", "status": null}]"#;
        assert_eq!(health(&annotated_v1(text)), Some(Health::Healthy));
        let text = r#"[{"type": "AbleToScale", "ſtatus": "True"}]"#;
        assert_eq!(health(&annotated_v1(text)), Some(Health::Healthy));
        // Keys that name no field are skipped, whatever their value.
        let text = r#"[{"type": "AbleToScale", "status": "True", "lastTransitionTime": 1}]"#;
        assert_eq!(health(&annotated_v1(text)), Some(Health::Healthy));
        // What does not decode into []hpaCondition fails the check.
        for text in [
            "",
            "{}",
            "\"x\"",
            "[1]",
            "[[]]",
            r#"[{"type": 1}]"#,
            r#"[{"type": "AbleToScale", "status": "True", "message": false}]"#,
        ] {
            assert_eq!(health(&annotated_v1(text)), Some(Health::Unknown), "{text}");
        }
    }
}
