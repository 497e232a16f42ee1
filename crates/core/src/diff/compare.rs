//! The one comparison of desired against actual that both the plan and the
//! drift report are derived from, so the two always agree.

use crate::diff::changes::{changes, Change, Rules};
use crate::diff::ignore::{patterns_for, IgnoreRule};
use crate::diff::normalize::{desired_as_stored, last_applied_beside, Mode};
use crate::memo::{Memo, Pass};
use crate::state::pairs::{pairs, Pair};
use crate::state::{Form, State};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

/// How one key differs between the desired and the actual state.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference<'a> {
    /// Desired but not in the actual state.
    Missing {
        key: &'a str,
        desired: Cow<'a, Value>,
    },
    /// In both, with different contents.
    Changed {
        key: &'a str,
        desired: Cow<'a, Value>,
        actual: &'a Value,
        changes: Vec<Change>,
        /// What Git last applied (Kubernetes objects that record it).
        last_applied: Option<Arc<Value>>,
        /// The object an update writes, once a plan worked it out, without
        /// and with `RespectIgnoreDifferences`: the same pair of objects
        /// compared again finds it here.
        written: Rc<[OnceCell<Arc<Value>>; 2]>,
    },
    /// In the actual state but not desired.
    Extra { key: &'a str, actual: &'a Value },
}

impl Difference<'_> {
    pub fn key(&self) -> &str {
        match self {
            Difference::Missing { key, .. }
            | Difference::Changed { key, .. }
            | Difference::Extra { key, .. } => key,
        }
    }
}

/// How the objects of `desired` compare: exactly in the lesson's form,
/// as Kubernetes objects otherwise.
pub fn mode_of(desired: &State) -> Mode {
    match desired.form() {
        Form::Named => Mode::Exact,
        Form::List | Form::KubernetesList { .. } => Mode::Kubernetes,
    }
}

/// Every difference between `desired` and `actual`, in key order. One merge
/// over the two sorted states: linear in their sizes. A pair of objects
/// compared in the last large comparison is not compared again: what was
/// found (in sync, or the changes) is remembered, and so is the object the
/// plan's update of it writes.
pub fn compare<'a>(
    desired: &'a State,
    actual: &'a State,
    ignore: &[IgnoreRule],
) -> Vec<Difference<'a>> {
    let mode = mode_of(desired);
    let condition = (mode, ignore.to_vec());
    let objects = desired.len() + actual.len();
    FOUND.with_borrow_mut(|memo| {
        memo.pass(condition, objects, |found| {
            merge(desired, actual, ignore, mode, found)
        })
    })
}

thread_local! {
    /// What differs in each pair of objects, by key: nothing when in sync.
    static FOUND: RefCell<Memo<Condition, Option<Found>>> = const { RefCell::new(Memo::new()) };
}

/// What a comparison depends on besides the objects.
type Condition = (Mode, Vec<IgnoreRule>);

/// How a desired and a live object differ.
#[derive(Clone)]
struct Found {
    changes: Vec<Change>,
    last_applied: Option<Arc<Value>>,
    written: Rc<[OnceCell<Arc<Value>>; 2]>,
}

fn merge<'a>(
    desired: &'a State,
    actual: &'a State,
    ignore: &[IgnoreRule],
    mode: Mode,
    found: &mut Pass<Condition, Option<Found>>,
) -> Vec<Difference<'a>> {
    let mut differences = Vec::new();
    for pair in pairs(desired, actual) {
        match pair {
            Pair::Desired(key, desired) => differences.push(Difference::Missing {
                key,
                desired: stored(desired, mode),
            }),
            Pair::Actual(key, actual) => {
                if !is_owned(actual) {
                    differences.push(Difference::Extra { key, actual });
                }
            }
            Pair::Both(key, desired, actual) => {
                let differs = found.get_or(key, [Some(desired), Some(actual)], || {
                    find(key, desired, actual, ignore, mode)
                });
                if let Some(Found {
                    changes,
                    last_applied,
                    written,
                }) = differs
                {
                    differences.push(Difference::Changed {
                        key,
                        desired: stored(desired, mode),
                        actual,
                        changes,
                        last_applied,
                        written,
                    });
                }
            }
        }
    }
    differences
}

/// How the object at `key` differs from what is desired, if it does.
fn find(
    key: &str,
    desired: &Value,
    actual: &Value,
    ignore: &[IgnoreRule],
    mode: Mode,
) -> Option<Found> {
    let desired = stored(desired, mode);
    let last_applied = match mode {
        Mode::Exact => None,
        Mode::Kubernetes => last_applied_beside(actual, &desired),
    };
    let ignored = patterns_for(ignore, key, &desired);
    let rules = Rules {
        mode,
        ignored: &ignored,
    };
    let changes = changes(&desired, actual, last_applied.as_deref(), rules);
    (!changes.is_empty()).then(|| Found {
        changes,
        last_applied: last_applied.map(|record| Arc::new(record.into_owned())),
        written: Rc::default(),
    })
}

/// An object another object owns (`metadata.ownerReferences`), such as a
/// Secret an operator made: it belongs to its owner, not to Git, so it is
/// never extra (gitops-engine treats it as a child, not a managed object).
fn is_owned(object: &Value) -> bool {
    object
        .pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .is_some_and(|owners| !owners.is_empty())
}

fn stored(desired: &Value, mode: Mode) -> Cow<'_, Value> {
    match mode {
        Mode::Exact => Cow::Borrowed(desired),
        Mode::Kubernetes => desired_as_stored(desired),
    }
}
