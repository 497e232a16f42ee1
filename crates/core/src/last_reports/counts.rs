//! How many objects of a report count for each health: the health of the whole
//! is the worst of them (`overall`), and a report patched at a few keys counts
//! again only the objects at those keys.

use crate::health::Health;
use crate::report::{counted_health, ObjectStatus};
use crate::state::State;

/// Every health, from best to worst, each at its place in the enum.
const HEALTHS: [Health; 6] = [
    Health::Healthy,
    Health::Suspended,
    Health::Progressing,
    Health::Missing,
    Health::Degraded,
    Health::Unknown,
];

/// The number of objects of each health, by its place in `HEALTHS`.
#[derive(Clone, Default)]
pub(super) struct HealthCounts([usize; HEALTHS.len()]);

impl HealthCounts {
    /// The healths of a report's `objects`, those of `desired`.
    pub(super) fn of(desired: &State, objects: &[ObjectStatus]) -> Self {
        let mut counts = HealthCounts::default();
        for object in objects {
            counts.add(desired, object);
        }
        counts
    }

    /// Counts `object` of `desired` in.
    pub(super) fn add(&mut self, desired: &State, object: &ObjectStatus) {
        if let Some(health) = counted_health(desired, object) {
            self.0[health as usize] += 1;
        }
    }

    /// Counts `object` of `desired`, counted in before, out again.
    pub(super) fn take(&mut self, desired: &State, object: &ObjectStatus) {
        if let Some(health) = counted_health(desired, object) {
            self.0[health as usize] = self.0[health as usize].saturating_sub(1);
        }
    }

    /// The health of the whole: the worst counted, Healthy when none is.
    pub(super) fn overall(&self) -> Health {
        HEALTHS
            .into_iter()
            .rev()
            .find(|health| self.0[*health as usize] > 0)
            .unwrap_or(Health::Healthy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_health_is_at_its_place_from_best_to_worst() {
        assert!(HEALTHS
            .iter()
            .enumerate()
            .all(|(at, health)| *health as usize == at));
        assert!(HEALTHS.windows(2).all(|pair| pair[0] < pair[1]));
    }
}
