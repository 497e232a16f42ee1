//! The disruption controller stand-in: writes each PodDisruptionBudget's
//! status from the pods it selects, as Kubernetes' disruption controller does
//! (pkg/controller/disruption): how many pods are expected and healthy, how
//! many must stay healthy, how many may be disrupted, and the
//! DisruptionAllowed condition. The world has no pods of their own: a
//! Deployment, StatefulSet or ReplicaSet whose pod template the selector
//! matches stands for its pods (`status.replicas` of them, `readyReplicas`
//! ready), and a Pod for itself, with no controller.

use super::{is_kubernetes, Cluster};
use crate::event::Event;
use gitops_core::state::Key;
use serde_json::{json, Map, Value};
use std::num::IntErrorKind;

const CONTROLLERS: [&str; 3] = ["Deployment", "StatefulSet", "ReplicaSet"];

/// The pods a budget selects, counted.
#[derive(Default)]
struct Pods {
    /// Pods selected, with or without a controller.
    all: i64,
    ready: i64,
    /// The sum of the scales of the controllers of the pods selected.
    scale: i64,
}

impl Pods {
    /// Adds pods (saturating: replicas are whatever a manifest says).
    fn count(&mut self, all: i64, ready: i64, scale: i64) {
        self.all = self.all.saturating_add(all);
        self.ready = self.ready.saturating_add(ready);
        self.scale = self.scale.saturating_add(scale);
    }
}

impl Cluster {
    /// Writes the status of every PodDisruptionBudget; an event when one
    /// turns to SyncFailed.
    pub fn disruption_budgets(&mut self, step: u32) -> Vec<Event> {
        let budgets: Vec<Key> = self
            .actual
            .objects()
            .iter()
            .filter(|(_, object)| is_budget(object.value()))
            .map(|(key, _)| key.clone())
            .collect();
        let mut events = Vec::new();
        for key in budgets {
            let Some(budget) = self.actual.get(&key).cloned() else {
                continue;
            };
            let status = self
                .pods_selected(&budget)
                .and_then(|pods| counted_status(&budget, &pods))
                .unwrap_or_else(|error| sync_failed(&budget, &error));
            if is_sync_failed(Some(&status)) && !is_sync_failed(budget.get("status")) {
                let why = status
                    .pointer("/conditions/0/message")
                    .and_then(Value::as_str);
                events.push(
                    Event::new(
                        step,
                        "disruption-controller",
                        format!("cannot count the pods of {key} in {}", self.environment),
                    )
                    .because(why.unwrap_or_default()),
                );
            }
            self.write_status(&key, status);
        }
        events
    }

    /// The pods in the budget's namespace that its selector matches.
    fn pods_selected(&self, budget: &Value) -> Result<Pods, String> {
        let namespace = text(budget, "/metadata/namespace");
        // A budget without a selector selects nothing; an empty one, all.
        let Some(selector) = budget.pointer("/spec/selector").filter(|s| !s.is_null()) else {
            return Ok(Pods::default());
        };
        let mut pods = Pods::default();
        for object in self.actual.objects().values() {
            let object = object.value();
            if !is_kubernetes(object) || text(object, "/metadata/namespace") != namespace {
                continue;
            }
            let kind = text(object, "/kind");
            if CONTROLLERS.contains(&kind) {
                if selects(selector, object.pointer("/spec/template/metadata/labels"))? {
                    pods.count(
                        number(object, "/status/replicas").unwrap_or(0),
                        number(object, "/status/readyReplicas").unwrap_or(0),
                        number(object, "/spec/replicas").unwrap_or(1),
                    );
                }
            } else if kind == "Pod" && selects(selector, object.pointer("/metadata/labels"))? {
                pods.count(1, i64::from(is_ready(object)), 0);
            }
        }
        Ok(pods)
    }
}

fn is_budget(object: &Value) -> bool {
    is_kubernetes(object) && text(object, "/kind") == "PodDisruptionBudget"
}

fn is_sync_failed(status: Option<&Value>) -> bool {
    status.and_then(|status| status.pointer("/conditions/0/reason")) == Some(&json!("SyncFailed"))
}

/// The disruption controller's `getExpectedPodCount` and
/// `updatePdbStatus`: a `maxUnavailable`, or a percentage `minAvailable`,
/// counts against the controllers' scale; a whole `minAvailable` against
/// the pods there are.
fn counted_status(budget: &Value, pods: &Pods) -> Result<Value, String> {
    let (expected, desired) = match (
        present(budget, "/spec/maxUnavailable"),
        present(budget, "/spec/minAvailable"),
    ) {
        (Some(max_unavailable), _) => {
            let unavailable = scaled(max_unavailable, pods.scale)?;
            (pods.scale, pods.scale.saturating_sub(unavailable).max(0))
        }
        (None, Some(Value::Number(min_available))) => {
            (pods.all, min_available.as_i64().unwrap_or(0))
        }
        (None, Some(min_available)) => (pods.scale, scaled(min_available, pods.scale)?),
        (None, None) => (0, 0),
    };
    let allowed = if expected <= 0 {
        0
    } else {
        pods.ready.saturating_sub(desired).max(0)
    };
    let (allowed_now, reason) = if allowed > 0 {
        ("True", "SufficientPods")
    } else {
        ("False", "InsufficientPods")
    };
    let generation = json!(number(budget, "/metadata/generation").unwrap_or(0));
    Ok(json!({
        "observedGeneration": generation,
        "disruptionsAllowed": allowed,
        "currentHealthy": pods.ready,
        "desiredHealthy": desired,
        "expectedPods": expected,
        "conditions": [condition(allowed_now, reason, "", &generation)],
    }))
}

/// The disruption controller's `failSafe`: the status as it was, but no
/// disruption allowed, and why.
fn sync_failed(budget: &Value, error: &str) -> Value {
    let mut status = json!({
        "observedGeneration": 0, "disruptionsAllowed": 0,
        "currentHealthy": 0, "desiredHealthy": 0, "expectedPods": 0,
    });
    if let Some(before) = budget.get("status").and_then(Value::as_object) {
        for (field, value) in before {
            status[field] = value.clone();
        }
    }
    let generation = status["observedGeneration"].clone();
    status["disruptionsAllowed"] = json!(0);
    status["conditions"] = json!([condition("False", "SyncFailed", error, &generation)]);
    status
}

fn condition(status: &str, reason: &str, message: &str, generation: &Value) -> Value {
    json!({
        "type": "DisruptionAllowed",
        "status": status,
        "observedGeneration": generation,
        "reason": reason,
        "message": message,
    })
}

/// An int-or-percentage field as `intstr.GetScaledValueFromIntOrPercent`
/// reads it, rounding up.
fn scaled(value: &Value, total: i64) -> Result<i64, String> {
    let invalid = |why: String| format!("invalid value for IntOrString: {why}");
    match value {
        Value::Number(number) => Ok(number.as_i64().unwrap_or(0)),
        Value::String(text) => {
            let Some(digits) = text.strip_suffix('%') else {
                return Err(invalid("invalid type: string is not a percentage".into()));
            };
            let percent: i64 = digits.parse().map_err(|error: std::num::ParseIntError| {
                let why = match error.kind() {
                    IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => "value out of range",
                    _ => "invalid syntax",
                };
                invalid(format!(
                    "invalid value {text:?}: strconv.Atoi: parsing {digits:?}: {why}"
                ))
            })?;
            Ok((percent as f64 * total as f64 / 100.0).ceil() as i64)
        }
        _ => Err(invalid("invalid type: neither int nor percentage".into())),
    }
}

/// Whether a label selector (`matchLabels`, `matchExpressions`) matches
/// these labels; an error for an expression Kubernetes cannot read.
fn selects(selector: &Value, labels: Option<&Value>) -> Result<bool, String> {
    let empty = Map::new();
    let labels = labels.and_then(Value::as_object).unwrap_or(&empty);
    let label = |name: &str| labels.get(name).and_then(Value::as_str);
    let mut matches = true;
    if let Some(wanted) = selector.get("matchLabels").and_then(Value::as_object) {
        matches &= wanted
            .iter()
            .all(|(name, value)| label(name).is_some_and(|label| value.as_str() == Some(label)));
    }
    let expressions = selector.get("matchExpressions").and_then(Value::as_array);
    for expression in expressions.into_iter().flatten() {
        let key = expression.get("key").and_then(Value::as_str).unwrap_or("");
        let values: Vec<&str> = expression
            .get("values")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let operator = expression
            .get("operator")
            .and_then(Value::as_str)
            .unwrap_or("");
        let found = label(key);
        matches &= match operator {
            "In" | "NotIn" if values.is_empty() => {
                return Err("for 'in', 'notin' operators, values set can't be empty".into())
            }
            "Exists" | "DoesNotExist" if !values.is_empty() => {
                return Err("values set must be empty for exists and does not exist".into())
            }
            "In" => found.is_some_and(|found| values.contains(&found)),
            "NotIn" => !found.is_some_and(|found| values.contains(&found)),
            "Exists" => found.is_some(),
            "DoesNotExist" => found.is_none(),
            operator => {
                return Err(format!(
                    "{operator:?} is not a valid label selector operator"
                ))
            }
        };
    }
    Ok(matches)
}

fn is_ready(pod: &Value) -> bool {
    pod.pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|condition| condition.get("type") == Some(&json!("Ready")))
        .is_some_and(|ready| ready.get("status") == Some(&json!("True")))
}

fn text<'a>(object: &'a Value, pointer: &str) -> &'a str {
    object
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn number(object: &Value, pointer: &str) -> Option<i64> {
    object.pointer(pointer).and_then(Value::as_i64)
}

fn present<'a>(object: &'a Value, pointer: &str) -> Option<&'a Value> {
    object.pointer(pointer).filter(|value| !value.is_null())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percentage_rounds_up_and_anything_else_but_a_number_fails() {
        assert_eq!(scaled(&json!(2), 5), Ok(2));
        assert_eq!(scaled(&json!("50%"), 5), Ok(3));
        assert_eq!(scaled(&json!("0%"), 5), Ok(0));
        assert_eq!(
            scaled(&json!("2"), 5),
            Err("invalid value for IntOrString: invalid type: string is not a percentage".into())
        );
        assert_eq!(
            scaled(&json!("half%"), 5),
            Err("invalid value for IntOrString: invalid value \"half%\": strconv.Atoi: parsing \"half\": invalid syntax".into())
        );
    }

    #[test]
    fn selectors_match_as_kubernetes_matches_them() {
        let labels = json!({"app": "web", "tier": "front"});
        let matches = |selector: Value| selects(&selector, Some(&labels));
        assert_eq!(
            matches(json!({})),
            Ok(true),
            "an empty selector selects all"
        );
        assert_eq!(matches(json!({"matchLabels": {"app": "web"}})), Ok(true));
        assert_eq!(matches(json!({"matchLabels": {"app": "db"}})), Ok(false));
        let expression = |operator: &str, values: Value| {
            matches(
                json!({"matchExpressions": [{"key": "tier", "operator": operator, "values": values}]}),
            )
        };
        assert_eq!(expression("In", json!(["front", "back"])), Ok(true));
        assert_eq!(expression("NotIn", json!(["front"])), Ok(false));
        assert_eq!(expression("Exists", json!([])), Ok(true));
        assert_eq!(expression("DoesNotExist", json!(null)), Ok(false));
        assert!(expression("In", json!([])).is_err());
        assert!(expression("Exists", json!(["front"])).is_err());
        assert_eq!(
            expression("Near", json!(["front"])),
            Err("\"Near\" is not a valid label selector operator".into())
        );
    }
}
