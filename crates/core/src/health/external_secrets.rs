//! ExternalSecret (External Secrets Operator): a check Argo CD ships beside
//! gitops-engine's, in Lua
//! (resource_customizations/external-secrets.io/ExternalSecret/health.lua).

use super::{list, text, Health};
use crate::value::ValueRef;

/// resource_customizations/external-secrets.io/ExternalSecret/health.lua: the
/// first `Ready` condition that is True or False decides, Healthy or
/// Degraded; none: "Waiting for ExternalSecret".
pub(super) fn external_secret(external: ValueRef) -> Health {
    let conditions = list(external, &["status", "conditions"]);
    for condition in conditions {
        if text(condition, &["type"]) != "Ready" {
            continue;
        }
        match text(condition, &["status"]) {
            "False" => return Health::Degraded,
            "True" => return Health::Healthy,
            _ => {}
        }
    }
    Health::Progressing
}

#[cfg(test)]
mod tests {
    use super::super::health;
    use super::*;
    use serde_json::{json, Value};

    fn with_conditions(conditions: Value) -> Value {
        json!({
            "apiVersion": "external-secrets.io/v1", "kind": "ExternalSecret",
            "metadata": {"name": "db"}, "status": {"conditions": conditions},
        })
    }

    #[test]
    fn the_first_ready_condition_that_is_true_or_false_decides() {
        let ready = |status: &str| json!({"type": "Ready", "status": status});
        let judged = |conditions: Value| health(&with_conditions(conditions));
        assert_eq!(
            judged(json!([ready("Unknown"), ready("False")])),
            Some(Health::Degraded)
        );
        assert_eq!(
            judged(json!([ready("True"), ready("False")])),
            Some(Health::Healthy)
        );
        let deleted = json!({"type": "Deleted", "status": "False"});
        assert_eq!(
            judged(json!([deleted, null, ready("True")])),
            Some(Health::Healthy)
        );
        for none in [
            json!([]),
            json!([ready("Unknown")]),
            json!(null),
            json!({"type": "Ready"}),
        ] {
            assert_eq!(judged(none.clone()), Some(Health::Progressing), "{none}");
        }
    }
}
