//! The plan: what the reconciler would do to make actual equal desired, in
//! the order a sync runs it.

use super::changes::Change;
use super::compare::{compare, mode_of, Difference};
use super::ignore::patterns_for;
use super::merge::{created, updated};
use super::normalize::Mode;
use super::options::Options;
use super::order::{sort_key, wave};
use super::protection::{prune_protection, prunes_last};
use super::state::State;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One step of a plan, in its sync wave. `object` is what the key will hold
/// afterwards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", deny_unknown_fields)]
pub enum Operation {
    Create {
        key: String,
        wave: i64,
        object: Arc<Value>,
    },
    Update {
        key: String,
        wave: i64,
        /// Each field that differs, live value to desired value.
        changes: Vec<Change>,
        object: Arc<Value>,
    },
    Delete {
        key: String,
        wave: i64,
    },
    /// A deletion that prune would make but the object's protection prevents.
    Skip {
        key: String,
        wave: i64,
        reason: String,
    },
}

impl Operation {
    pub fn key(&self) -> &str {
        match self {
            Operation::Create { key, .. }
            | Operation::Update { key, .. }
            | Operation::Delete { key, .. }
            | Operation::Skip { key, .. } => key,
        }
    }

    pub fn wave(&self) -> i64 {
        match self {
            Operation::Create { wave, .. }
            | Operation::Update { wave, .. }
            | Operation::Delete { wave, .. }
            | Operation::Skip { wave, .. } => *wave,
        }
    }

    pub fn verb(&self) -> &'static str {
        match self {
            Operation::Create { .. } => "create",
            Operation::Update { .. } => "update",
            Operation::Delete { .. } => "delete",
            Operation::Skip { .. } => "skip",
        }
    }

    /// Whether applying it changes the cluster (a skip does not).
    pub fn changes_cluster(&self) -> bool {
        !matches!(self, Operation::Skip { .. })
    }
}

pub type Plan = Vec<Operation>;

/// Whether a plan has anything to apply.
pub fn has_work(plan: &[Operation]) -> bool {
    plan.iter().any(Operation::changes_cluster)
}

/// The plan that makes `actual` equal `desired`, in sync order: creates and
/// updates by wave, kind and name (a Namespace before what it holds); then,
/// with `options.prune`, deletions in the reverse order, `PruneLast` ones
/// last, and protected objects skipped with the reason.
pub fn diff(desired: &State, actual: &State, options: &Options) -> Plan {
    plan_for(
        &compare(desired, actual, options),
        mode_of(desired),
        options,
    )
}

pub(crate) fn plan_for(differences: &[Difference], mode: Mode, options: &Options) -> Plan {
    let mut plan = writes(differences, mode, options);
    if options.prune {
        plan.extend(deletions(differences));
    }
    plan
}

fn writes(differences: &[Difference], mode: Mode, options: &Options) -> Plan {
    let written: Vec<(&str, &Value)> = differences
        .iter()
        .filter_map(|difference| match difference {
            Difference::Missing { key, desired } | Difference::Changed { key, desired, .. } => {
                Some((*key, &**desired))
            }
            Difference::Extra { .. } => None,
        })
        .collect();
    let namespace_waves = earliest_wave_per_namespace(&written);
    let wave_of = |object: &Value| {
        let own = wave(object);
        match object.get("kind").and_then(Value::as_str) {
            Some("Namespace") => {
                let name = object
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                namespace_waves
                    .get(name)
                    .map_or(own, |contents| own.min(*contents))
            }
            _ => own,
        }
    };
    let mut ordered: Vec<(i64, &Difference)> = differences
        .iter()
        .filter_map(|difference| match difference {
            Difference::Missing { desired, .. } | Difference::Changed { desired, .. } => {
                Some((wave_of(desired), difference))
            }
            Difference::Extra { .. } => None,
        })
        .collect();
    ordered.sort_by_cached_key(|&(wave, difference)| {
        sort_key(wave, desired_of(difference), difference.key())
    });
    ordered
        .into_iter()
        .map(|(wave, difference)| match difference {
            Difference::Missing { key, desired } => Operation::Create {
                key: key.to_string(),
                wave,
                object: Arc::new(created(desired, mode)),
            },
            Difference::Changed {
                key,
                desired,
                actual,
                changes,
                last_applied,
                written,
            } => {
                let object = written
                    .get_or_init(|| {
                        let ignored = patterns_for(&options.ignore, key, desired);
                        Arc::new(updated(
                            desired,
                            actual,
                            last_applied.as_deref(),
                            mode,
                            &ignored,
                        ))
                    })
                    .clone();
                Operation::Update {
                    key: key.to_string(),
                    wave,
                    changes: changes.clone(),
                    object,
                }
            }
            Difference::Extra { .. } => unreachable!("extras were filtered out"),
        })
        .collect()
}

fn desired_of<'d>(difference: &'d Difference) -> &'d Value {
    match difference {
        Difference::Missing { desired, .. } | Difference::Changed { desired, .. } => desired,
        Difference::Extra { actual, .. } => actual,
    }
}

/// For each namespace, the earliest wave of an object written into it.
fn earliest_wave_per_namespace<'v>(written: &[(&str, &'v Value)]) -> BTreeMap<&'v str, i64> {
    let mut earliest = BTreeMap::new();
    for (_, object) in written {
        if let Some(namespace) = object
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
        {
            let wave = wave(object);
            earliest
                .entry(namespace)
                .and_modify(|w: &mut i64| *w = (*w).min(wave))
                .or_insert(wave);
        }
    }
    earliest
}

/// Deletions of extra objects, reverse sync order, `PruneLast` ones after
/// the rest; protected objects are skipped with their reason.
fn deletions(differences: &[Difference]) -> Plan {
    let mut extras: Vec<(bool, i64, &str, &Value)> = differences
        .iter()
        .filter_map(|difference| match difference {
            Difference::Extra { key, actual } => {
                Some((prunes_last(actual), wave(actual), *key, *actual))
            }
            _ => None,
        })
        .collect();
    extras.sort_by(|(a_last, a_wave, a_key, a), (b_last, b_wave, b_key, b)| {
        a_last
            .cmp(b_last)
            .then_with(|| sort_key(*b_wave, b, b_key).cmp(&sort_key(*a_wave, a, a_key)))
    });
    extras
        .into_iter()
        .map(|(_, wave, key, actual)| match prune_protection(actual) {
            Some(reason) => Operation::Skip {
                key: key.to_string(),
                wave,
                reason,
            },
            None => Operation::Delete {
                key: key.to_string(),
                wave,
            },
        })
        .collect()
}
