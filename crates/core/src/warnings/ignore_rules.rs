//! `ignore-rule-selects-nothing`: an Argo CD ignore rule that matches no
//! object, because the group it names (an omitted group is the core group)
//! is not the group of the kind it names, or because it names no kind.

use super::{warning, Warning, IGNORE_RULE_SELECTS_NOTHING};
use crate::diff::ignore::{glob, Dialect, Identity, IgnoreRule};
use crate::options::Options;
use crate::state::{Key, State};
use serde_json::Value;

/// `ignore-rule-selects-nothing` for every Argo CD rule of `options`; for each,
/// in order, the key of the first object it selects, if any.
pub(super) fn ignore_rules_that_select_nothing(
    desired: &State,
    actual: &State,
    options: &Options,
    found: &mut Vec<Warning>,
) -> Vec<Option<Key>> {
    argo_cd_rules(options)
        .map(|(number, rule)| {
            let (selected, finding) = finding_of_rule(desired, actual, number, rule);
            found.extend(finding);
            selected
        })
        .collect()
}

/// The Argo CD rules of `options`, each with its number among all the rules.
pub(super) fn argo_cd_rules(options: &Options) -> impl Iterator<Item = (usize, &IgnoreRule)> {
    options
        .ignore
        .iter()
        .enumerate()
        .filter(|(_, rule)| rule.dialect == Dialect::ArgoCd)
        .map(|(index, rule)| (index + 1, rule))
}

/// The key of the first object, desired then live, that the rule numbered
/// `number` selects; else the warning that it selects nothing, if it names
/// an object but for its group or kind.
pub(super) fn finding_of_rule(
    desired: &State,
    actual: &State,
    number: usize,
    rule: &IgnoreRule,
) -> (Option<Key>, Option<Warning>) {
    let objects = || desired.objects().iter().chain(actual.objects());
    if let Some((key, _)) = objects().find(|(key, object)| rule.selects(key, object)) {
        return (Some(Key::clone(key)), None);
    }
    let meant = objects().find_map(|(key, object)| {
        let identity = Identity::of(key, object.into());
        meant_by(rule, &identity).then_some((key, identity.group.to_string()))
    });
    let finding = meant.map(|(key, group)| {
        warning(
            key,
            IGNORE_RULE_SELECTS_NOTHING,
            message(number, rule, key, &group),
        )
    });
    (None, finding)
}

/// Whether the rule names the object but for its group, or names it but
/// for a kind it does not give: its name and namespace fit, and so does its
/// kind when it has one.
fn meant_by(rule: &IgnoreRule, identity: &Identity) -> bool {
    let fits = |filter: &Option<String>, actual: Option<&str>| {
        filter.as_deref().is_none_or(|want| Some(want) == actual)
    };
    !identity.kind.is_empty()
        && fits(&rule.name, Some(identity.name))
        && fits(&rule.namespace, identity.namespace)
        && rule
            .kind
            .as_deref()
            .is_none_or(|kind| glob(kind, identity.kind))
}

fn message(number: usize, rule: &IgnoreRule, key: &str, group: &str) -> String {
    let write_group = if group.is_empty() {
        "`group: \"\"` (the core group)".to_string()
    } else {
        format!("`group: {group}`")
    };
    match &rule.kind {
        Some(kind) => {
            let named = match &rule.group {
                None => "no `group`, which Argo CD reads as the core group (`\"\"`)".to_string(),
                Some(written) => format!("`group: {}`", Value::String(written.clone())),
            };
            format!(
                "ignore rule {number} names `kind: {kind}` with {named}, but `{key}` is in \
                 group `{group}`, so Argo CD ignores nothing by it. Write {write_group}."
            )
        }
        None => format!(
            "ignore rule {number} names no `kind`, so Argo CD ignores nothing by it in `{key}` \
             or any Kubernetes object. Write its kind (`\"*\"` for every kind) and {write_group}."
        ),
    }
}
