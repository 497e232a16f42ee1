//! PodDisruptionBudget: a check Argo CD ships beside gitops-engine's, in Lua
//! (resource_customizations/policy/PodDisruptionBudget/health.lua).

use super::{list, text, Health};
use crate::value::ValueRef;

/// A reason that leaves a false condition Healthy: too few pods to allow a
/// disruption may be what the budget is for (argo-cd#20171).
const INSUFFICIENT_PODS: &str = "InsufficientPods";

/// resource_customizations/policy/PodDisruptionBudget/health.lua: the
/// conditions in turn; a false one is Degraded at once, unless for
/// InsufficientPods; any other makes it Healthy; none: "Waiting for status".
pub(super) fn pod_disruption_budget(budget: ValueRef) -> Health {
    let mut health = Health::Progressing;
    // Lua drops a JSON list's nulls.
    let conditions = list(budget, &["status", "conditions"]);
    for condition in conditions.filter(|condition| !condition.is_null()) {
        let reason = text(condition, &["reason"]);
        if text(condition, &["status"]) == "False" && reason != INSUFFICIENT_PODS {
            return Health::Degraded;
        }
        health = Health::Healthy;
    }
    health
}

#[cfg(test)]
mod tests {
    use super::super::health;
    use super::*;
    use serde_json::{json, Value};

    fn with_conditions(conditions: Value) -> Value {
        json!({
            "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": "web"}, "spec": {"minAvailable": 1},
            "status": {"conditions": conditions},
        })
    }

    #[test]
    fn the_first_false_condition_not_for_insufficient_pods_decides() {
        let allowed =
            json!({"type": "DisruptionAllowed", "status": "True", "reason": "SufficientPods"});
        let insufficient =
            json!({"type": "DisruptionAllowed", "status": "False", "reason": INSUFFICIENT_PODS});
        let failed =
            json!({"type": "DisruptionAllowed", "status": "False", "reason": "SyncFailed"});
        let judged = |conditions: Value| health(&with_conditions(conditions));
        assert_eq!(judged(json!([insufficient])), Some(Health::Healthy));
        assert_eq!(judged(json!([allowed, failed])), Some(Health::Degraded));
        assert_eq!(judged(json!([failed, allowed])), Some(Health::Degraded));
        assert_eq!(judged(json!([null, allowed])), Some(Health::Healthy));
        for none in [json!([]), json!([null]), json!(null), json!({"type": "x"})] {
            assert_eq!(judged(none.clone()), Some(Health::Progressing), "{none}");
        }
    }
}
