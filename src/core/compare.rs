//! The one comparison of desired against actual that both the plan and the
//! drift report are derived from, so the two always agree.

use super::changes::{changes, Change, Rules};
use super::ignore::{patterns_for, IgnoreRule};
use super::memo::{Memo, Pass};
use super::normalize::{desired_as_stored, last_applied, Mode};
use super::options::Options;
use super::state::{Form, State};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::RefCell;
use std::cmp::Ordering;

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
        last_applied: Option<Value>,
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
/// found in sync in the last large comparison is not compared again.
pub fn compare<'a>(
    desired: &'a State,
    actual: &'a State,
    options: &Options,
) -> Vec<Difference<'a>> {
    let mode = mode_of(desired);
    let condition = (mode, options.ignore.clone());
    let objects = desired.len() + actual.len();
    IN_SYNC.with_borrow_mut(|memo| {
        memo.pass(condition, objects, |in_sync| {
            merge(desired, actual, options, mode, in_sync)
        })
    })
}

thread_local! {
    /// The pairs of objects found in sync, by key.
    static IN_SYNC: RefCell<Memo<(Mode, Vec<IgnoreRule>), ()>> = const { RefCell::new(Memo::new()) };
}

fn merge<'a>(
    desired: &'a State,
    actual: &'a State,
    options: &Options,
    mode: Mode,
    in_sync: &mut Pass<(Mode, Vec<IgnoreRule>), ()>,
) -> Vec<Difference<'a>> {
    let mut differences = Vec::new();
    let mut wanted = desired.objects().iter().peekable();
    let mut present = actual.objects().iter().peekable();
    loop {
        let order = match (wanted.peek(), present.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((want, _)), Some((have, _))) => want.cmp(have),
        };
        match order {
            Ordering::Less => {
                let (key, desired) = wanted.next().expect("peeked");
                differences.push(Difference::Missing {
                    key,
                    desired: stored(desired, mode),
                });
            }
            Ordering::Greater => {
                let (key, actual) = present.next().expect("peeked");
                if !is_owned(actual) {
                    differences.push(Difference::Extra { key, actual });
                }
            }
            Ordering::Equal => {
                let (key, desired) = wanted.next().expect("peeked");
                let (_, actual) = present.next().expect("peeked");
                let pair = [Some(desired), Some(actual)];
                if in_sync.known(key, pair).is_some() {
                    continue;
                }
                match changed(key, desired, actual, options, mode) {
                    Some(difference) => differences.push(difference),
                    None => in_sync.keep(key, pair, ()),
                }
            }
        }
    }
    differences
}

/// How the object at `key` differs from what is desired, if it does.
fn changed<'a>(
    key: &'a str,
    desired: &'a Value,
    actual: &'a Value,
    options: &Options,
    mode: Mode,
) -> Option<Difference<'a>> {
    let desired = stored(desired, mode);
    let last_applied = match mode {
        Mode::Exact => None,
        Mode::Kubernetes => last_applied(actual),
    };
    let ignored = patterns_for(&options.ignore, key, &desired);
    let rules = Rules {
        mode,
        ignored: &ignored,
    };
    let found = changes(&desired, actual, last_applied.as_ref(), rules);
    (!found.is_empty()).then_some(Difference::Changed {
        key,
        desired,
        actual,
        changes: found,
        last_applied,
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
