//! The objects of two states side by side, by key: both states keep their
//! objects sorted by key, so one walk over both pairs them, in key order.

use crate::state::{Key, Object, State};
use std::cmp::Ordering;
use std::collections::{btree_map, BTreeMap};
use std::iter::Peekable;
use std::sync::{Arc, Weak};

/// The objects at one key: only desired, only in the actual state, or both.
#[derive(Clone, Copy)]
pub enum Pair<'a> {
    Desired(&'a Key, &'a Arc<Object>),
    Actual(&'a Key, &'a Arc<Object>),
    /// The key as desired has it, both objects, and the key as the actual state
    /// has it (the same text; its own allocation).
    Both(&'a Key, &'a Arc<Object>, &'a Arc<Object>, &'a Key),
}

impl<'a> Pair<'a> {
    pub fn key(&self) -> &'a Key {
        match self {
            Pair::Desired(key, _) | Pair::Actual(key, _) | Pair::Both(key, _, _, _) => key,
        }
    }

    /// The desired object under its key.
    pub fn desired_entry(&self) -> Option<(&'a Key, &'a Arc<Object>)> {
        match self {
            Pair::Actual(..) => None,
            Pair::Desired(key, desired) | Pair::Both(key, desired, _, _) => Some((key, desired)),
        }
    }

    /// The actual object under the actual state's own key, which a finding about
    /// the actual object alone is kept under: the cluster's keys stay while the
    /// desired state is typed and read again.
    pub fn actual_entry(&self) -> Option<(&'a Key, &'a Arc<Object>)> {
        match self {
            Pair::Desired(..) => None,
            Pair::Actual(key, actual) | Pair::Both(_, _, actual, key) => Some((key, actual)),
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

/// The pair at `key`, as `pairs` meets it; none when neither state holds the key.
pub fn pair_at<'a>(desired: &'a State, actual: &'a State, key: &str) -> Option<Pair<'a>> {
    match (
        desired.objects().get_key_value(key),
        actual.objects().get_key_value(key),
    ) {
        (None, None) => None,
        (Some((key, desired)), None) => Some(Pair::Desired(key, desired)),
        (None, Some((key, actual))) => Some(Pair::Actual(key, actual)),
        (Some((key, desired)), Some((actual_key, actual))) => {
            Some(Pair::Both(key, desired, actual, actual_key))
        }
    }
}

/// Every pair of `pairs`, walked once for the several looks a report takes at the
/// same two states: the walk reads two keys at each step (a cache miss each, in a
/// large state), the list none.
pub fn aligned<'a>(desired: &'a State, actual: &'a State) -> Vec<Pair<'a>> {
    pairs(desired, actual).collect()
}

/// `aligned`, remembering a large walk in `walks`: which two keys it compared at
/// each step, by address, and how they compared. The next walk, over a reread of the
/// same text (which shares the keys it did not change) against the same cluster,
/// meets the same two keys at each step and takes how they compared from there,
/// reading neither. Only while both states walked are still held somewhere: then
/// their keys, and so those addresses, are still theirs.
pub(crate) fn aligned_in<'a>(walks: &mut Walks, desired: &'a State, actual: &'a State) -> Vec<Pair<'a>> {
    if !walks.remembering || desired.len() + actual.len() < SMALLEST_WALK_REMEMBERED {
        return aligned(desired, actual);
    }
    let remembered = match walks.last.as_ref() {
        Some(walk) if walk.states.iter().all(|state| state.strong_count() > 0) => &walk.steps[..],
        _ => &[][..],
    };
    let mut steps = Vec::with_capacity(remembered.len());
    let mut walk = pairs(desired, actual);
    let mut aligned = Vec::with_capacity(desired.len().max(actual.len()));
    while let Some(pair) = walk.next_by(|want, have| {
        let met = [address(want), address(have)];
        let order = match remembered.get(steps.len()) {
            Some(&(then, order)) if then == met => order,
            _ => want.cmp(have),
        };
        steps.push((met, order));
        order
    }) {
        aligned.push(pair);
    }
    walks.last = Some(Walk {
        states: [Arc::downgrade(&desired.objects), Arc::downgrade(&actual.objects)],
        steps,
    });
    aligned
}

/// The last large walk of `aligned_in`, when it remembers.
pub(crate) struct Walks {
    remembering: bool,
    last: Option<Walk>,
}

impl Walks {
    pub(crate) const fn new() -> Self {
        Walks { remembering: true, last: None }
    }

    pub(crate) const fn off() -> Self {
        Walks { remembering: false, last: None }
    }
}

impl Default for Walks {
    fn default() -> Self {
        Walks::new()
    }
}

/// Walks over fewer objects than this are not remembered: remembering would cost more
/// than it saves, and the world simulation walks many small states.
const SMALLEST_WALK_REMEMBERED: usize = 128;

/// A large walk of `aligned`: the two keys compared at each step where both states had
/// one, by address, and how they compared.
struct Walk {
    /// The states walked: while both are held, their keys, and so those addresses,
    /// are theirs.
    states: [Weak<BTreeMap<Key, Arc<Object>>>; 2],
    steps: Vec<([usize; 2], Ordering)>,
}

fn address(key: &Key) -> usize {
    key.as_ptr() as usize
}

pub struct Pairs<'a> {
    wanted: Peekable<btree_map::Iter<'a, Key, Arc<Object>>>,
    present: Peekable<btree_map::Iter<'a, Key, Arc<Object>>>,
}

impl<'a> Iterator for Pairs<'a> {
    type Item = Pair<'a>;

    fn next(&mut self) -> Option<Pair<'a>> {
        self.next_by(|want, have| want.cmp(have))
    }
}

impl<'a> Pairs<'a> {
    /// The next pair, `compare` ordering the two states' next keys where both have one.
    fn next_by(&mut self, compare: impl FnOnce(&'a Key, &'a Key) -> Ordering) -> Option<Pair<'a>> {
        let order = match (self.wanted.peek(), self.present.peek()) {
            (None, None) => return None,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(&(want, _)), Some(&(have, _))) => compare(want, have),
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
                let (actual_key, actual) = self.present.next()?;
                Pair::Both(key, desired, actual, actual_key)
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
            State::read("d", r#"{"a": {"x": 1}, "c": {"x": 3}, "d": {"x": 4}}"#).unwrap();
        let actual = State::read("a", r#"{"b": {"x": 2}, "c": {"x": 30}}"#).unwrap();
        let walked: Vec<(&str, bool, bool)> = pairs(&desired, &actual)
            .map(|pair| {
                let desired = !matches!(pair, Pair::Actual(..));
                (&**pair.key(), desired, pair.actual_entry().is_some())
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

    fn sides<'a>(pairs: impl IntoIterator<Item = Pair<'a>>) -> Vec<(String, bool, bool)> {
        pairs
            .into_iter()
            .map(|pair| {
                let desired = !matches!(pair, Pair::Actual(..));
                (pair.key().to_string(), desired, pair.actual_entry().is_some())
            })
            .collect()
    }

    /// A state of `keys` objects `{"n": <key's number>}`, as text.
    fn text(keys: impl IntoIterator<Item = u32>, value: u32) -> String {
        let objects: Vec<String> = keys
            .into_iter()
            .map(|key| format!(r#""k{key:04}": {{"n": {value}}}"#))
            .collect();
        format!("{{{}}}", objects.join(", "))
    }

    #[test]
    fn a_remembered_walk_pairs_as_a_fresh_one() {
        let mut workspace = crate::Workspace::new();
        let mut walks = Walks::new();
        let mut read = |source, text: &str| workspace.read(source, text).unwrap();
        let desired = read("d", &text(0..300, 1));
        let actual = read("a", &text((100..400).step_by(2), 2));
        let fresh = sides(pairs(&desired, &actual));
        assert_eq!(sides(aligned_in(&mut walks, &desired, &actual)), fresh);
        assert_eq!(sides(aligned_in(&mut walks, &desired, &actual)), fresh, "walked again");
        // A reread of an edit shares the keys it did not change: the walk meets the
        // same keys, but for the ones edited, inserted or removed.
        let edited = read("d", &text((0..300).filter(|key| key % 7 != 3), 1).replace("k0150", "k0150x"));
        assert_eq!(sides(aligned_in(&mut walks, &edited, &actual)), sides(pairs(&edited, &actual)));
        // The states the other way round, and other states entirely.
        assert_eq!(sides(aligned_in(&mut walks, &actual, &desired)), sides(pairs(&actual, &desired)));
        let other = read("o", &text(250..600, 3));
        assert_eq!(sides(aligned_in(&mut walks, &other, &desired)), sides(pairs(&other, &desired)));
        assert_eq!(sides(aligned_in(&mut walks, &desired, &actual)), fresh);
        // States dropped after their walk free their keys, whose addresses other keys
        // may then take: the walk remembered is no longer used.
        drop((desired, actual, edited, other));
        drop(workspace);
        let mut workspace = crate::Workspace::new();
        let later = workspace.read("l", &text((0..300).rev().step_by(3), 4)).unwrap();
        let live = workspace.read("m", &text(0..150, 5)).unwrap();
        assert_eq!(sides(aligned_in(&mut walks, &later, &live)), sides(pairs(&later, &live)));
    }
}
