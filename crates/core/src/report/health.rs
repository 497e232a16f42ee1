//! The health of an application from its objects' healths, as Argo CD 3.x
//! adds them up (argo-cd controller/health.go `setApplicationHealth`): the
//! worst health of its live objects, from best to worst Healthy, Suspended,
//! Progressing, Missing, Degraded, Unknown (gitops-engine `IsWorse`). An
//! object Git declares that is not live yet does not lower it ("Missing
//! resources should not affect parent app health - the OutOfSync status
//! already indicates resources are missing"), unless none of the
//! application's objects is live: then it is Missing, whatever their kinds.
//! A live object annotated `argocd.argoproj.io/ignore-healthcheck: "true"`
//! is live but its health does not count. A report patched at a few keys
//! counts again only the objects at those keys.

use crate::health::Health;
use crate::report::ObjectStatus;

/// Every health, from best to worst, each at its place in the enum.
const HEALTHS: [Health; 6] = [
    Health::Healthy,
    Health::Suspended,
    Health::Progressing,
    Health::Missing,
    Health::Degraded,
    Health::Unknown,
];

/// How many of a report's objects are absent, how many are live, and how many
/// live ones count for each health, by its place in `HEALTHS`.
#[derive(Clone, Default)]
pub(crate) struct HealthCounts {
    absent: usize,
    live: usize,
    counted: [usize; HEALTHS.len()],
}

impl HealthCounts {
    /// The healths of a report's `objects`.
    pub(crate) fn of(objects: &[ObjectStatus]) -> Self {
        let mut counts = HealthCounts::default();
        for object in objects {
            counts.add(object);
        }
        counts
    }

    /// Counts `object` in.
    pub(crate) fn add(&mut self, object: &ObjectStatus) {
        self.count(object, |count| *count += 1);
    }

    /// Counts `object`, counted in before, out again.
    pub(crate) fn take(&mut self, object: &ObjectStatus) {
        self.count(object, |count| *count = count.saturating_sub(1));
    }

    fn count(&mut self, object: &ObjectStatus, change: impl Fn(&mut usize)) {
        match object.health {
            // Only an object Git declares and the cluster lacks is Missing.
            Some(Health::Missing) => change(&mut self.absent),
            health => {
                change(&mut self.live);
                if let Some(health) = health.filter(|_| !object.health_ignored) {
                    change(&mut self.counted[health as usize]);
                }
            }
        }
    }

    /// The health of the whole.
    pub(crate) fn overall(&self) -> Health {
        if self.live == 0 && self.absent > 0 {
            return Health::Missing;
        }
        HEALTHS
            .into_iter()
            .rev()
            .find(|health| self.counted[*health as usize] > 0)
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
