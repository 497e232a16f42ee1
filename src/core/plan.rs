//! The plan: what the reconciler would do to make actual equal desired.

use super::changes::Change;
use super::compare::{compare, mode_of, Difference};
use super::ignore::patterns_for;
use super::merge::{created, updated};
use super::normalize::Mode;
use super::options::Options;
use super::state::State;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One step of a plan. `object` is what the key will hold afterwards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", deny_unknown_fields)]
pub enum Operation {
    Create {
        key: String,
        object: Value,
    },
    Update {
        key: String,
        /// Each field that differs, live value to desired value.
        changes: Vec<Change>,
        object: Value,
    },
    Delete {
        key: String,
    },
}

impl Operation {
    pub fn key(&self) -> &str {
        match self {
            Operation::Create { key, .. }
            | Operation::Update { key, .. }
            | Operation::Delete { key } => key,
        }
    }

    pub fn verb(&self) -> &'static str {
        match self {
            Operation::Create { .. } => "create",
            Operation::Update { .. } => "update",
            Operation::Delete { .. } => "delete",
        }
    }
}

pub type Plan = Vec<Operation>;

/// The plan that makes `actual` equal `desired`: creates and updates in key
/// order, then, with `options.prune`, deletions in reverse key order.
pub fn diff(desired: &State, actual: &State, options: &Options) -> Plan {
    plan_for(
        &compare(desired, actual, options),
        mode_of(desired),
        options,
    )
}

pub(crate) fn plan_for(differences: &[Difference], mode: Mode, options: &Options) -> Plan {
    let mut plan: Plan = differences
        .iter()
        .filter_map(|difference| match difference {
            Difference::Missing { key, desired } => Some(Operation::Create {
                key: key.to_string(),
                object: created(desired, mode),
            }),
            Difference::Changed {
                key,
                desired,
                actual,
                changes,
                last_applied,
            } => {
                let ignored = patterns_for(&options.ignore, key, desired);
                let object = updated(desired, actual, last_applied.as_ref(), mode, &ignored);
                Some(Operation::Update {
                    key: key.to_string(),
                    changes: changes.clone(),
                    object,
                })
            }
            Difference::Extra { .. } => None,
        })
        .collect();
    if options.prune {
        let extras = differences
            .iter()
            .rev()
            .filter_map(|difference| match difference {
                Difference::Extra { key, .. } => Some(Operation::Delete {
                    key: key.to_string(),
                }),
                _ => None,
            });
        plan.extend(extras);
    }
    plan
}
