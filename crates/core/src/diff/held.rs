//! A difference held past the comparison that found it: with the objects it is
//! about and its key, shared, rather than borrowed from the states compared. A
//! workspace keeps the differences of its last reports this way, and lends them
//! out again as the comparison's differences when it patches one of them.

use crate::diff::compare::{AsStored, Difference, Found};
use crate::state::pairs::Pair;
use crate::state::{Key, Object};
use serde_json::Value;
use std::sync::Arc;

/// One difference, held.
pub(crate) struct Held {
    /// The key of the pair it is about, as `Pair::key` gives it.
    pub(crate) key: Key,
    how: How,
}

/// How the objects differ, with the objects a `Difference` refers to.
enum How {
    Missing {
        desired: Arc<Object>,
        stored: Option<Arc<Value>>,
    },
    Changed {
        desired: Arc<Object>,
        actual: Arc<Object>,
        found: Found,
    },
    Extra {
        actual: Arc<Object>,
    },
    Unmanaged,
    Excluded {
        desired: Arc<Object>,
        reason: String,
    },
    Hook,
}

impl Held {
    /// `difference`, found at `pair`, held; none when the objects it names are not
    /// the pair's.
    pub(crate) fn of(pair: Pair, difference: &Difference) -> Option<Held> {
        let desired = || pair.desired_entry().map(|(_, desired)| Arc::clone(desired));
        let actual = || pair.actual_entry().map(|(_, actual)| Arc::clone(actual));
        let how = match difference {
            Difference::Missing {
                desired: stored, ..
            } => How::Missing {
                desired: desired()?,
                stored: copy(stored),
            },
            Difference::Changed {
                desired: stored,
                changes,
                last_applied,
                written,
                ..
            } => How::Changed {
                desired: desired()?,
                actual: actual()?,
                found: Found {
                    stored: copy(stored),
                    changes: changes.clone(),
                    last_applied: last_applied.clone(),
                    written: written.clone(),
                },
            },
            Difference::Extra { .. } => How::Extra { actual: actual()? },
            Difference::Unmanaged { .. } => How::Unmanaged,
            Difference::Excluded { reason, .. } => How::Excluded {
                desired: desired()?,
                reason: reason.clone(),
            },
            Difference::Hook { .. } => How::Hook,
        };
        Some(Held {
            key: Key::clone(pair.key()),
            how,
        })
    }

    /// The difference, as the comparison found it.
    pub(crate) fn difference(&self) -> Difference<'_> {
        let key = &*self.key;
        match &self.how {
            How::Missing { desired, stored } => Difference::Missing {
                key,
                desired: as_stored(desired, stored),
            },
            How::Changed {
                desired,
                actual,
                found,
            } => Difference::Changed {
                key,
                desired: as_stored(desired, &found.stored),
                actual,
                changes: found.changes.clone(),
                last_applied: found.last_applied.clone(),
                written: found.written.clone(),
            },
            How::Extra { actual } => Difference::Extra { key, actual },
            How::Unmanaged => Difference::Unmanaged { key },
            How::Excluded { desired, reason } => Difference::Excluded {
                key,
                desired,
                reason: reason.clone(),
            },
            How::Hook => Difference::Hook { key },
        }
    }
}

/// The differences of a comparison of `pairs` (`compare_pairs`), held: each is
/// about the pair of its key, met in the same walk.
pub(crate) fn held<'a>(pairs: &[Pair<'a>], differences: &[Difference<'a>]) -> Vec<Held> {
    let mut pairs = pairs.iter();
    differences
        .iter()
        .filter_map(|difference| {
            // Each difference borrows its pair's key: found by address, as
            // `report::object_statuses` finds it.
            let pair = pairs.find(|pair| std::ptr::eq(difference.key(), &**pair.key()))?;
            Held::of(*pair, difference)
        })
        .collect()
}

fn copy(stored: &AsStored) -> Option<Arc<Value>> {
    match stored {
        AsStored::Declared(_) => None,
        AsStored::Copied(copy) => Some(Arc::clone(copy)),
    }
}

fn as_stored<'a>(desired: &'a Object, stored: &Option<Arc<Value>>) -> AsStored<'a> {
    stored
        .clone()
        .map_or(AsStored::Declared(desired), AsStored::Copied)
}
