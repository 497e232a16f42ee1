//! The one comparison of desired against actual that both the plan and the
//! drift report are derived from, so the two always agree.

use super::options::Options;
use super::state::State;
use serde_json::Value;
use std::cmp::Ordering;

/// How one key differs between the desired and the actual state.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference<'a> {
    /// Desired but not in the actual state.
    Missing { key: &'a str, desired: &'a Value },
    /// In both, with different contents.
    Changed {
        key: &'a str,
        desired: &'a Value,
        actual: &'a Value,
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

/// Every difference between `desired` and `actual`, in key order. One merge
/// over the two sorted states: linear in their sizes.
pub fn compare<'a>(
    desired: &'a State,
    actual: &'a State,
    _options: &Options,
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
                differences.push(Difference::Missing { key, desired });
            }
            Ordering::Greater => {
                let (key, actual) = present.next().expect("peeked");
                differences.push(Difference::Extra { key, actual });
            }
            Ordering::Equal => {
                let (key, desired) = wanted.next().expect("peeked");
                let (_, actual) = present.next().expect("peeked");
                if desired != actual {
                    differences.push(Difference::Changed {
                        key,
                        desired,
                        actual,
                    });
                }
            }
        }
    }
    differences
}
