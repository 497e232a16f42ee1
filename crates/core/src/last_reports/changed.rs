//! Which keys changed from one state to another: where one holds an object the
//! other does not, or the two hold different objects. A reread after an edit
//! shares every object (and key) it did not touch with the state before it, so
//! one walk along both states, comparing addresses, finds the few it did.

use crate::state::{Key, State};
use std::cmp::Ordering;
use std::sync::Arc;

/// The keys whose objects differ between `before` and `after`, in key order; none
/// when more than `at_most` do. Objects are the same when they are the same `Arc`.
pub(super) fn changed_keys(before: &State, after: &State, at_most: usize) -> Option<Vec<Key>> {
    let mut changed = Vec::new();
    if before.shares_objects(after) {
        return Some(changed);
    }
    let (mut old, mut new) = (before.objects().iter(), after.objects().iter());
    let (mut was, mut is) = (old.next(), new.next());
    loop {
        // Which of the two walks moves on, and whether the key it leaves changed.
        let (on_old, on_new, key) = match (was, is) {
            (None, None) => return Some(changed),
            (Some((was_key, was_object)), Some((is_key, is_object))) => {
                // A key both share is the same key without reading it.
                let order = match Arc::ptr_eq(was_key, is_key) {
                    true => Ordering::Equal,
                    false => was_key.cmp(is_key),
                };
                match order {
                    Ordering::Less => (true, false, Some(was_key)),
                    Ordering::Greater => (false, true, Some(is_key)),
                    Ordering::Equal => (
                        true,
                        true,
                        (!Arc::ptr_eq(was_object, is_object)).then_some(was_key),
                    ),
                }
            }
            (Some((was_key, _)), None) => (true, false, Some(was_key)),
            (None, Some((is_key, _))) => (false, true, Some(is_key)),
        };
        if let Some(key) = key {
            if changed.len() == at_most {
                return None;
            }
            changed.push(Key::clone(key));
        }
        if on_old {
            was = old.next();
        }
        if on_new {
            is = new.next();
        }
    }
}

/// The keys of both lists (each in key order), each once, in key order.
pub(super) fn union(keys: Vec<Key>, others: Vec<Key>) -> Vec<Key> {
    if others.is_empty() {
        return keys;
    }
    let mut union = Vec::with_capacity(keys.len() + others.len());
    let (mut keys, mut others) = (keys.into_iter().peekable(), others.into_iter().peekable());
    loop {
        let next = match (keys.peek(), others.peek()) {
            (None, None) => return union,
            (Some(key), Some(other)) => match key.cmp(other) {
                Ordering::Less => keys.next(),
                Ordering::Greater => others.next(),
                Ordering::Equal => {
                    others.next();
                    keys.next()
                }
            },
            (Some(_), None) => keys.next(),
            (None, Some(_)) => others.next(),
        };
        union.extend(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keys(changed: Option<Vec<Key>>) -> Option<Vec<String>> {
        changed.map(|keys| keys.iter().map(|key| key.to_string()).collect())
    }

    #[test]
    fn the_keys_changed_are_those_whose_objects_are_not_the_same() {
        let numbered = || json!({"a": {"n": 1}, "b": {"n": 2}, "c": {"n": 3}, "d": {"n": 4}});
        let before = State::from_value("b", numbered()).unwrap();
        assert_eq!(
            keys(changed_keys(&before, &before.clone(), 0)),
            Some(vec![])
        );
        let mut after = before.clone();
        after.remove("b");
        after.insert("bb", json!({"n": 5}));
        after.insert("d", json!({"n": 4}));
        assert_eq!(
            keys(changed_keys(&before, &after, 3)),
            Some(vec!["b".into(), "bb".into(), "d".into()])
        );
        assert_eq!(
            keys(changed_keys(&before, &after, 2)),
            None,
            "more than two"
        );
        let afresh = State::from_value("b", numbered()).unwrap();
        assert_eq!(
            changed_keys(&before, &afresh, 10).map(|keys| keys.len()),
            Some(4),
            "equal, but other objects"
        );
    }
}
