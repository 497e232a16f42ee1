//! The checklist's findings patched where a few objects changed, every other
//! object the very one the findings were about, under the same options: the
//! rules whose finding about an object reads that object alone look again at
//! the objects of the changed keys; `ignore-rule-selects-nothing` looks again
//! at each rule whose selected object changed, or that selected none; and
//! where a change can reach findings about objects at other keys
//! (`reaches_other_objects`), the whole checklist looks again instead.

use super::controllers::{field_owned_by_controller, is_autoscaler, targets_of};
use super::ignore_rules::{argo_cd_rules, finding_of_rule};
use super::prune::unprotected_prune_at;
use super::{object_warnings, sort_findings, Across, Warning};
use super::{FIELD_OWNED_BY_CONTROLLER, IGNORE_RULE_SELECTS_NOTHING, MUTABLE_IMAGE_TAG};
use super::{PLAINTEXT_SECRET, UNPROTECTED_PRUNE, VALUE_NOT_A_STRING};
use crate::collect::{indices_at, spliced};
use crate::options::Options;
use crate::state::namespace::namespace_of;
use crate::state::{Form, Key, Object, State};
use crate::sync::apply::namespace_at;
use std::sync::Arc;

/// The rules whose finding at a key reads the objects at that key alone (and
/// what the rules across objects met, which `reaches_other_objects` keeps as
/// it was): `mutable-image-tag`, `plaintext-secret` and `value-not-a-string`
/// the desired object, `field-owned-by-controller` the desired object and the
/// autoscalers' targets, `unprotected-prune` the desired object, else the live one.
const OF_ONE_KEY: [&str; 5] = [
    MUTABLE_IMAGE_TAG,
    PLAINTEXT_SECRET,
    VALUE_NOT_A_STRING,
    UNPROTECTED_PRUNE,
    FIELD_OWNED_BY_CONTROLLER,
];

/// Whether the objects at `key`, desired and live, before (`before`: the desired
/// and the live state) and after a change (`after`), can change a finding about
/// an object at another key, given what the rules met before (`across`). So
/// they can when one of them is:
/// - a HorizontalPodAutoscaler: `field-owned-by-controller` warns about the
///   object it scales, which another key holds, and it goes by the targets of
///   every autoscaler, desired and live;
/// - with prune on, a Namespace the cluster holds: whether Git declares it
///   decides whether a prune deletes it, and `pruned-namespace` then warns
///   about it by everything it holds, at other keys;
/// - with prune on, an object in a namespace a prune deletes: the Namespace's
///   `pruned-namespace` names it when Git declares it, or when the cluster holds
///   it protected and Git does not.
///
/// No other rule reads another object than the one its finding is about, but
/// `ignore-rule-selects-nothing`, which `patched_warnings` looks at again where
/// a change can reach it. A hook, a sync wave or `PruneLast` reaches no other
/// object's finding: the rules read them of the object they are about.
pub(crate) fn reaches_other_objects(
    across: &Across,
    options: &Options,
    before: [&State; 2],
    after: [&State; 2],
    key: &str,
) -> bool {
    let [desired_before, actual_before] = before;
    let [desired, actual] = after;
    let states = [desired_before, actual_before, desired, actual];
    let objects: Vec<&Arc<Object>> = states
        .iter()
        .filter_map(|state| state.object(key))
        .collect();
    let an_autoscaler = objects.iter().any(|object| is_autoscaler(object));
    let a_namespace_of_the_cluster = [actual_before, actual]
        .iter()
        .any(|state| namespace_at(state, key).is_some());
    let in_a_pruned_namespace = objects.iter().any(|object| {
        namespace_of(*object).is_some_and(|namespace| {
            across
                .pruned_namespaces
                .iter()
                .any(|pruned| pruned == namespace)
        })
    });
    an_autoscaler || (options.prune && (a_namespace_of_the_cluster || in_a_pruned_namespace))
}

/// The findings of `desired` and `actual` under `options`, from `kept`, those of
/// the same options and of states whose objects are the very same but at the
/// `changed` keys (in key order), none of which `reaches_other_objects`; and
/// what the rules across objects met.
pub(crate) fn patched_warnings(
    kept: Vec<Warning>,
    across: Across,
    changed: &[Key],
    desired: &State,
    actual: &State,
    options: &Options,
) -> (Vec<Warning>, Across) {
    let mut fresh = Vec::new();
    let targets = targets_of(across.autoscalers.iter().map(|(key, object)| (key, object)));
    let skip_status = desired.form() != &Form::Named;
    for key in changed {
        if let Some(object) = desired.object(key) {
            fresh.extend(object_warnings(key, object, skip_status));
            fresh.extend(field_owned_by_controller(&targets, key, object, options));
        }
        fresh.extend(unprotected_prune_at(desired, actual, options, key));
    }
    // A rule that selected nothing is the only one with a finding; one whose
    // object is still there still selects it.
    let selected_nothing = across.selected.iter().any(Option::is_none);
    let selected: Vec<Option<Key>> = argo_cd_rules(options)
        .zip(&across.selected)
        .map(|((number, rule), before)| match before {
            Some(key) if changed.binary_search(key).is_err() => Some(Key::clone(key)),
            _ => {
                let (selected, finding) = finding_of_rule(desired, actual, number, rule);
                fresh.extend(finding);
                selected
            }
        })
        .collect();
    sort_findings(&mut fresh);
    // The findings of the rules looked at again: those about one object at the
    // changed keys, and, where a rule selected nothing, every one that says so.
    let looked_again = |warning: &Warning| {
        (OF_ONE_KEY.contains(&warning.rule)
            && changed
                .binary_search_by(|key| (**key).cmp(&warning.key))
                .is_ok())
            || (selected_nothing && warning.rule == IGNORE_RULE_SELECTS_NOTHING)
    };
    let removed: Vec<usize> = match selected_nothing {
        true => (0..kept.len())
            .filter(|&at| looked_again(&kept[at]))
            .collect(),
        false => indices_at(&kept, changed, |warning| &warning.key)
            .into_iter()
            .filter(|&at| looked_again(&kept[at]))
            .collect(),
    };
    let found = spliced(kept, &removed, fresh, |a, b| {
        (a.key.as_str(), a.rule).cmp(&(b.key.as_str(), b.rule))
    });
    (found, Across { selected, ..across })
}
