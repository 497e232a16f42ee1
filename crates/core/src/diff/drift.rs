//! Drift: every difference, whether or not the plan will fix it.

use crate::collect::map_of;
use crate::diff::changes::Change;
use crate::diff::compare::Difference;
use crate::state::Key;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Drift {
    /// Desired but absent.
    pub missing: Vec<String>,
    /// Present with contents other than desired.
    pub changed: Vec<String>,
    /// Present but not desired, and the application's (deleted only with prune).
    pub extra: Vec<String>,
    /// Present but not desired, and not the application's: no tracking id
    /// of its own (Argo CD's orphaned resources). Neither drift nor pruned.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmanaged: Vec<String>,
    /// The field-level changes of each changed key.
    pub changes: BTreeMap<String, Vec<Change>>,
}

impl Drift {
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.changed.is_empty() && self.extra.is_empty()
    }
}

/// The drift of `differences`. A function of its own in the build, which a
/// report and a report patched where a few objects changed (`patched_drift`)
/// both call, rather than a copy inlined into each.
#[inline(never)]
pub(crate) fn drift_for(differences: &[Difference]) -> Drift {
    let mut drift = Drift::default();
    for difference in differences {
        let key = difference.key().to_string();
        match difference {
            Difference::Missing { .. } => drift.missing.push(key),
            Difference::Changed { changes, .. } => {
                drift.changes.insert(key.clone(), changes.to_vec());
                drift.changed.push(key);
            }
            Difference::Extra { .. } => drift.extra.push(key),
            Difference::Unmanaged { .. } => drift.unmanaged.push(key),
            Difference::Excluded { .. } | Difference::Hook { .. } => {}
        }
    }
    drift
}

/// `drift` made again for differences that are its own but at the `keys` given
/// (in key order), where they are `fresh` (in key order): its entries at those
/// keys replaced by those of `fresh`.
pub(crate) fn patched_drift(mut drift: Drift, keys: &[Key], fresh: &[Difference]) -> Drift {
    fn lists(drift: &mut Drift) -> [&mut Vec<String>; 4] {
        [
            &mut drift.missing,
            &mut drift.changed,
            &mut drift.extra,
            &mut drift.unmanaged,
        ]
    }
    for key in keys {
        for list in lists(&mut drift) {
            if let Ok(at) = list.binary_search_by(|entry| entry.as_str().cmp(key)) {
                list.remove(at);
            }
        }
    }
    // The changes at the other keys move to a map of their own, built by
    // inserting as the drift's map is.
    let patched = |key: &str| {
        keys.binary_search_by(|patched| (**patched).cmp(key))
            .is_ok()
    };
    let kept = std::mem::take(&mut drift.changes).into_iter();
    drift.changes = map_of(kept.filter(|(key, _)| !patched(key)));
    let Drift {
        missing,
        changed,
        extra,
        unmanaged,
        changes,
    } = drift_for(fresh);
    for (list, entries) in lists(&mut drift)
        .into_iter()
        .zip([missing, changed, extra, unmanaged])
    {
        for entry in entries {
            let at = list.partition_point(|kept| *kept < entry);
            list.insert(at, entry);
        }
    }
    drift.changes.extend(changes);
    drift
}
