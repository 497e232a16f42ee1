//! Drift: every difference, whether or not the plan will fix it.

use crate::diff::changes::Change;
use crate::diff::compare::Difference;
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

pub(crate) fn drift_for(differences: &[Difference]) -> Drift {
    let mut drift = Drift::default();
    for difference in differences {
        let key = difference.key().to_string();
        match difference {
            Difference::Missing { .. } => drift.missing.push(key),
            Difference::Changed { changes, .. } => {
                drift.changes.insert(key.clone(), changes.clone());
                drift.changed.push(key);
            }
            Difference::Extra { .. } => drift.extra.push(key),
            Difference::Unmanaged { .. } => drift.unmanaged.push(key),
            Difference::Excluded { .. } | Difference::Hook { .. } => {}
        }
    }
    drift
}
