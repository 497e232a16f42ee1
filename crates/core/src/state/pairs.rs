//! The objects of two states side by side, by key: both states keep their
//! objects sorted by key, so one walk over both pairs them, in key order.

use crate::state::{Key, State};
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::btree_map;
use std::iter::Peekable;
use std::sync::Arc;

/// The objects at one key: only desired, only in the actual state, or both.
#[derive(Clone, Copy)]
pub enum Pair<'a> {
    Desired(&'a Key, &'a Arc<Value>),
    Actual(&'a Key, &'a Arc<Value>),
    Both(&'a Key, &'a Arc<Value>, &'a Arc<Value>),
}

impl<'a> Pair<'a> {
    pub fn key(&self) -> &'a Key {
        match self {
            Pair::Desired(key, _) | Pair::Actual(key, _) | Pair::Both(key, _, _) => key,
        }
    }

    pub fn actual(&self) -> Option<&'a Arc<Value>> {
        match self {
            Pair::Desired(..) => None,
            Pair::Actual(_, actual) | Pair::Both(_, _, actual) => Some(actual),
        }
    }
}

/// Every key of `desired` and `actual` once, in key order.
pub fn pairs<'a>(desired: &'a State, actual: &'a State) -> Pairs<'a> {
    Pairs {
        wanted: desired.objects().iter().peekable(),
        present: actual.objects().iter().peekable(),
    }
}

/// Every pair of `pairs`, walked once for the several looks a report takes at the
/// same two states: the walk reads two keys at each step (a cache miss each, in a
/// large state), the list none.
pub fn aligned<'a>(desired: &'a State, actual: &'a State) -> Vec<Pair<'a>> {
    pairs(desired, actual).collect()
}

pub struct Pairs<'a> {
    wanted: Peekable<btree_map::Iter<'a, Key, Arc<Value>>>,
    present: Peekable<btree_map::Iter<'a, Key, Arc<Value>>>,
}

impl<'a> Iterator for Pairs<'a> {
    type Item = Pair<'a>;

    fn next(&mut self) -> Option<Pair<'a>> {
        let order = match (self.wanted.peek(), self.present.peek()) {
            (None, None) => return None,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((want, _)), Some((have, _))) => want.cmp(have),
        };
        Some(match order {
            Ordering::Less => {
                let (key, desired) = self.wanted.next()?;
                Pair::Desired(key, desired)
            }
            Ordering::Greater => {
                let (key, actual) = self.present.next()?;
                Pair::Actual(key, actual)
            }
            Ordering::Equal => {
                let (key, desired) = self.wanted.next()?;
                let (_, actual) = self.present.next()?;
                Pair::Both(key, desired, actual)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;

    #[test]
    fn every_key_once_in_order() {
        let desired =
            State::read_cached("d", r#"{"a": {"x": 1}, "c": {"x": 3}, "d": {"x": 4}}"#).unwrap();
        let actual = State::read_cached("a", r#"{"b": {"x": 2}, "c": {"x": 30}}"#).unwrap();
        let walked: Vec<(&str, bool, bool)> = pairs(&desired, &actual)
            .map(|pair| {
                let desired = !matches!(pair, Pair::Actual(..));
                (&**pair.key(), desired, pair.actual().is_some())
            })
            .collect();
        assert_eq!(
            walked,
            [
                ("a", true, false),
                ("b", false, true),
                ("c", true, true),
                ("d", true, false)
            ]
        );
    }
}
