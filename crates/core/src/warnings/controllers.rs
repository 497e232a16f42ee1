//! `field-owned-by-controller`: Git sets `spec.replicas` of an object an
//! autoscaler scales, with no ignore rule.

use super::{kind, name, warning, Warning};
use super::{FIELD_OWNED_BY_CONTROLLER, REPLICAS};
use crate::diff::ignore::IgnoreRule;
use crate::memo::Memo;
use crate::options::Options;
use crate::state::namespace::namespace_of;
use crate::state::State;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn fields_owned_by_controllers(
    autoscalers: &mut Autoscalers,
    desired: &State,
    actual: &State,
    options: &Options,
    found: &mut Vec<Warning>,
) {
    let targets = autoscaler_targets(autoscalers, desired, actual);
    if targets.is_empty() {
        return;
    }
    for (key, object) in desired.objects() {
        let object = object.value();
        let Some(replicas) = object
            .pointer("/spec/replicas")
            .filter(|value| value.is_number())
        else {
            continue;
        };
        let (Some(object_kind), Some(object_name)) = (kind(object), name(key, object)) else {
            continue;
        };
        let Some(autoscalers) = targets.get(&(object_kind, object_name, namespace_of(object)))
        else {
            continue;
        };
        let ignoring: Vec<&IgnoreRule> = options
            .ignore
            .iter()
            .filter(|rule| rule.selects(key, object))
            .filter(|rule| {
                rule.patterns()
                    .iter()
                    .any(|pattern| pattern.matches(&REPLICAS))
            })
            .collect();
        let respect = options.respect_ignore_differences;
        if ignoring.iter().any(|rule| rule.keeps_live(respect)) {
            continue;
        }
        let autoscalers: Vec<String> = autoscalers
            .iter()
            .map(|autoscaler| format!("`{autoscaler}`"))
            .collect();
        let autoscalers = autoscalers.join(" and ");
        let message = if ignoring.is_empty() {
            format!(
                "`{key}` sets `spec.replicas` to {replicas} in Git, but the autoscaler {autoscalers} \
                 owns that field: the autoscaler and the reconciler will fight, each sync \
                 resetting the count the autoscaler chose (flapping). Remove `replicas` \
                 from the manifest in Git, or add an ignore rule for `/spec/replicas` of \
                 this object."
            )
        } else {
            format!(
                "`{key}` sets `spec.replicas` to {replicas} in Git; an Argo CD ignore rule \
                 hides the difference from the autoscaler {autoscalers}, but Argo CD's sync \
                 still writes Git's {replicas} whenever it applies this object. Set \
                 `RespectIgnoreDifferences=true`, or remove `replicas` from Git."
            )
        };
        found.push(warning(key, FIELD_OWNED_BY_CONTROLLER, message));
    }
}

/// Whether each object is a HorizontalPodAutoscaler, by key: remembered, since
/// a keystroke's report asks it of every object, desired and live, and the memo
/// answers without reading the object.
pub(super) type Autoscalers = Memo<(), bool>;

/// What a scale target is: kind, name and namespace.
type Target<'a> = (&'a str, &'a str, Option<&'a str>);

/// The keys of the HorizontalPodAutoscalers, desired or actual, by the
/// object each scales (same kind and name, in the autoscaler's namespace).
fn autoscaler_targets<'a>(
    autoscalers: &mut Autoscalers,
    desired: &'a State,
    actual: &'a State,
) -> BTreeMap<Target<'a>, BTreeSet<&'a str>> {
    let mut targets: BTreeMap<Target, BTreeSet<&str>> = BTreeMap::new();
    let autoscalers: Vec<_> = autoscalers.pass((), desired.len() + actual.len(), |remembered| {
        desired
            .objects()
            .iter()
            .chain(actual.objects())
            .filter(|(key, object)| {
                remembered.get_or(key, [Some(object), None], || {
                    kind(object) == Some("HorizontalPodAutoscaler")
                })
            })
            .collect()
    });
    for (hpa_key, hpa) in autoscalers {
        let target = |field: &str| {
            hpa.value()
                .pointer("/spec/scaleTargetRef")
                .and_then(|target| target.get(field))
                .and_then(Value::as_str)
        };
        if let (Some(target_kind), Some(target_name)) = (target("kind"), target("name")) {
            targets
                .entry((target_kind, target_name, namespace_of(hpa)))
                .or_default()
                .insert(&**hpa_key);
        }
    }
    targets
}
