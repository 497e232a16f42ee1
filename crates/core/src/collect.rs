//! Collecting into B-trees and sorting, with one copy of the sort in the
//! build. `collect()` into a `BTreeMap` or `BTreeSet` sorts the items first,
//! and `sort_by` is compiled anew for each item type and comparison: each
//! copy is 3 to 4 KB of wasm, and there were twenty of them in the page
//! (twiggy on a build with `-C symbol-mangling-version=v0` names them). The
//! maps here are built by inserting (the map's own code, there anyway), and
//! every sort goes through one sort of indices. A sorted list that changed in a
//! few items is spliced where they are, not sorted again.

use std::cmp::Ordering;
use std::ops::Range;
use std::collections::{BTreeMap, BTreeSet};

/// The map of `entries`, as `collect()` makes it (a later value of a key
/// replaces an earlier one), without sorting them first.
pub fn map_of<K: Ord, V>(entries: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(entries);
    map
}

/// The set of `items`, as `collect()` makes it, without sorting them first.
pub fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// Sorts `items` by `compare`, stably, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let order = sorted_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    *items = order
        .into_iter()
        .filter_map(|index| slots[index].take())
        .collect();
}

/// Sorts `items` by the key `key` gives each, stably, as `slice::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// `kept` without its items at `removed` (indices, in increasing order), with
/// `fresh` merged in: both are sorted by `compare`, and of items that tie, the
/// kept ones come first. In place, from the back: a run of removed items with
/// the fresh ones that go where it was is one `splice`, which moves the items
/// after it only when it changes their number (an item replaced moves none).
pub fn spliced<T>(
    mut kept: Vec<T>,
    removed: &[usize],
    mut fresh: Vec<T>,
    compare: impl Fn(&T, &T) -> Ordering,
) -> Vec<T> {
    let places: Vec<usize> = fresh
        .iter()
        .map(|item| kept.partition_point(|old| compare(old, item) != Ordering::Greater))
        .collect();
    for (run, count) in runs(removed, &places) {
        let items = fresh.split_off(fresh.len() - count);
        kept.splice(run, items);
    }
    kept
}

/// Where a splice (`spliced`) edits a list, from the back: each run of the
/// items `removed` (in increasing order), with how many fresh items go there:
/// those whose `places` (in increasing order) are within it or at its ends.
fn runs(removed: &[usize], places: &[usize]) -> Vec<(Range<usize>, usize)> {
    let mut removed = removed.iter().rev().peekable();
    let mut places = places.iter().rev().peekable();
    let mut runs = Vec::new();
    loop {
        // The end of the last run: after the last item removed, or where the last
        // fresh item goes (before the kept item there).
        let end = match (removed.peek(), places.peek()) {
            (None, None) => return runs,
            (last_removed, last_placed) => {
                let after_removed = last_removed.map_or(0, |&&at| at + 1);
                after_removed.max(last_placed.map_or(0, |&&at| at))
            }
        };
        let (mut start, mut count) = (end, 0);
        loop {
            if removed.next_if(|&&at| at + 1 == start).is_some() {
                start -= 1;
            } else if places.next_if(|&&at| at >= start).is_some() {
                count += 1;
            } else {
                break;
            }
        }
        runs.push((start..end, count));
    }
}

/// The indices of the items of `items` (in the order of their `key`) whose key
/// is one of `keys` (in order), in increasing order.
pub fn indices_at<T, K: AsRef<str>>(
    items: &[T],
    keys: &[K],
    key: impl Fn(&T) -> &str,
) -> Vec<usize> {
    let mut indices = Vec::new();
    for wanted in keys {
        let wanted = wanted.as_ref();
        let start = items.partition_point(|item| key(item) < wanted);
        let end = start + items[start..].partition_point(|item| key(item) == wanted);
        indices.extend(start..end);
    }
    indices
}

/// The indices `0..len` in the order `compare` puts them, ties in index
/// order: the one sort the build holds.
fn sorted_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorting_is_what_the_standard_library_does(items in proptest::collection::vec((0u8..8, any::<u16>()), 0..64)) {
            let mut ours = items.clone();
            sort_by_key(&mut ours, |item| item.0);
            let mut theirs = items.clone();
            theirs.sort_by_key(|item| item.0);
            prop_assert_eq!(ours, theirs, "stable: ties keep their order");
        }

        #[test]
        fn a_splice_is_a_sort_of_what_stays_and_what_comes(
            kept in proptest::collection::vec(0u8..16, 0..32),
            removed in proptest::collection::vec(any::<bool>(), 32),
            fresh in proptest::collection::vec(0u8..16, 0..8),
        ) {
            let mut kept: Vec<(u8, bool)> = kept.into_iter().map(|item| (item, true)).collect();
            kept.sort();
            let mut fresh: Vec<(u8, bool)> = fresh.into_iter().map(|item| (item, false)).collect();
            fresh.sort();
            let removed: Vec<usize> = (0..kept.len()).filter(|&index| removed[index]).collect();
            let mut expected: Vec<(u8, bool)> = kept
                .iter()
                .enumerate()
                .filter(|(index, _)| !removed.contains(index))
                .map(|(_, item)| *item)
                .chain(fresh.iter().copied())
                .collect();
            expected.sort_by_key(|&(item, kept)| (item, !kept));
            prop_assert_eq!(spliced(kept, &removed, fresh, |a, b| a.0.cmp(&b.0)), expected);
        }

        #[test]
        fn maps_and_sets_are_what_collect_makes(entries in proptest::collection::vec((0u8..16, any::<u16>()), 0..64)) {
            prop_assert_eq!(map_of(entries.clone()), entries.iter().copied().collect::<BTreeMap<_, _>>());
            prop_assert_eq!(set_of(entries.clone()), entries.iter().copied().collect::<BTreeSet<_>>());
        }
    }
}
