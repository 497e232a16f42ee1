//! Drift: every difference, whether or not the plan will fix it.

use super::compare::{compare, Difference};
use super::options::Options;
use super::state::State;
use serde::Serialize;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Drift {
    /// Desired but absent.
    pub missing: Vec<String>,
    /// Present with contents other than desired.
    pub changed: Vec<String>,
    /// Present but not desired (deleted only with prune).
    pub extra: Vec<String>,
}

impl Drift {
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.changed.is_empty() && self.extra.is_empty()
    }
}

/// The drift of `actual` from `desired`, each list in key order.
pub fn drift(desired: &State, actual: &State, options: &Options) -> Drift {
    drift_for(&compare(desired, actual, options))
}

pub(crate) fn drift_for(differences: &[Difference]) -> Drift {
    let mut drift = Drift::default();
    for difference in differences {
        let list = match difference {
            Difference::Missing { .. } => &mut drift.missing,
            Difference::Changed { .. } => &mut drift.changed,
            Difference::Extra { .. } => &mut drift.extra,
        };
        list.push(difference.key().to_string());
    }
    drift
}
