//! Collecting into B-trees and sorting, with one copy of the sort in the
//! build. `collect()` into a `BTreeMap` or `BTreeSet` sorts the items first,
//! and `sort_by` is compiled anew for each item type and comparison: each
//! copy is 3 to 4 KB of wasm, and there were twenty of them in the page
//! (twiggy on a build with `-C symbol-mangling-version=v0` names them). The
//! maps here are built by inserting (the map's own code, there anyway), and
//! every sort goes through one sort of indices.

use std::cmp::Ordering;
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
        fn maps_and_sets_are_what_collect_makes(entries in proptest::collection::vec((0u8..16, any::<u16>()), 0..64)) {
            prop_assert_eq!(map_of(entries.clone()), entries.iter().copied().collect::<BTreeMap<_, _>>());
            prop_assert_eq!(set_of(entries.clone()), entries.iter().copied().collect::<BTreeSet<_>>());
        }
    }
}
