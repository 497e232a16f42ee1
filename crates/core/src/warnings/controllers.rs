//! `field-owned-by-controller`: Git sets `spec.replicas` of an object an
//! autoscaler scales, with no ignore rule.

use super::{kind, name, warning, Warning};
use super::{FIELD_OWNED_BY_CONTROLLER, REPLICAS};
use crate::diff::ignore::IgnoreRule;
use crate::memo::Memo;
use crate::options::Options;
use crate::state::namespace::namespace_of;
use crate::state::{Key, Object, State};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// `field-owned-by-controller` for every desired object; the autoscalers, desired
/// and live, that it found on the way.
pub(super) fn fields_owned_by_controllers<'a>(
    autoscalers: &mut Autoscalers,
    desired: &'a State,
    actual: &'a State,
    options: &Options,
    found: &mut Vec<Warning>,
) -> Vec<(&'a Key, &'a Arc<Object>)> {
    let autoscalers = autoscalers_of(autoscalers, desired, actual);
    let targets = targets_of(autoscalers.iter().copied());
    if !targets.is_empty() {
        for (key, object) in desired.objects() {
            found.extend(field_owned_by_controller(&targets, key, object, options));
        }
    }
    autoscalers
}

/// `field-owned-by-controller` for the desired `object` at `key`, among the scale
/// targets of the autoscalers (`targets_of`).
pub(super) fn field_owned_by_controller(
    targets: &Targets,
    key: &str,
    object: &Object,
    options: &Options,
) -> Option<Warning> {
    if targets.is_empty() {
        return None;
    }
    let object = object.value();
    let replicas = object
        .pointer("/spec/replicas")
        .filter(|value| value.is_number())?;
    let (object_kind, object_name) = (kind(object)?, name(key, object)?);
    let autoscalers = targets.get(&(object_kind, object_name, namespace_of(object)))?;
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
        return None;
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
    Some(warning(key, FIELD_OWNED_BY_CONTROLLER, message))
}

/// Whether each object is a HorizontalPodAutoscaler, by key: remembered, since
/// a keystroke's report asks it of every object, desired and live, and the memo
/// answers without reading the object.
pub(super) type Autoscalers = Memo<(), bool>;

/// What a scale target is: kind, name and namespace.
type Target<'a> = (&'a str, &'a str, Option<&'a str>);

/// The keys of the autoscalers of each scale target.
pub(super) type Targets<'a> = BTreeMap<Target<'a>, BTreeSet<&'a str>>;

/// The HorizontalPodAutoscalers of both states, desired first, each in key order.
fn autoscalers_of<'a>(
    autoscalers: &mut Autoscalers,
    desired: &'a State,
    actual: &'a State,
) -> Vec<(&'a Key, &'a Arc<Object>)> {
    autoscalers.pass((), desired.len() + actual.len(), |remembered| {
        desired
            .objects()
            .iter()
            .chain(actual.objects())
            .filter(|(key, object)| {
                remembered.get_or(key, [Some(object), None], || is_autoscaler(object))
            })
            .collect()
    })
}

/// Whether `object` is a HorizontalPodAutoscaler, whose scale target's
/// `spec.replicas` is the autoscaler's.
pub(super) fn is_autoscaler(object: &Object) -> bool {
    kind(object) == Some("HorizontalPodAutoscaler")
}

/// The keys of the `autoscalers`, by the object each scales (same kind and
/// name, in the autoscaler's namespace).
pub(super) fn targets_of<'a>(
    autoscalers: impl IntoIterator<Item = (&'a Key, &'a Arc<Object>)>,
) -> Targets<'a> {
    let mut targets: Targets = BTreeMap::new();
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
