//! A kept report patched at the keys whose objects changed: what is about one
//! object is found again for those keys alone and put in place of what the
//! report held for them; what is about several objects is made again from the
//! differences, which are few, as the report made it.

use crate::report::health::HealthCounts;
use super::Kept;
use crate::collect::{indices_at, spliced};
use crate::diff::compare::{compare_pair, Difference};
use crate::diff::drift::patched_drift;
use crate::diff::held::Held;
use crate::health::health;
use crate::options::Options;
use crate::report::{object_status, sync_of, Healths, ObjectStatus, Report, Status};
use crate::state::pairs::{pair_at, Pair};
use crate::state::{Key, State};
use crate::sync::plan::plan_for;
use crate::warnings::patched_warnings;

/// The report of `desired` against `actual` under `options`, from `kept`, a report
/// under the same options on states whose objects are the same but at the
/// `changed` keys (in key order), none of which reaches the checklist's
/// findings about other objects (`warnings::patch::reaches_other_objects`).
/// The health of a live object comes from `live_healths` when a recent report
/// found it.
/// None if a difference found cannot be held (which the comparison never gives).
pub(super) fn patched(
    kept: Kept,
    changed: &[Key],
    live_healths: &Healths,
    desired: &State,
    actual: &State,
    options: &Options,
) -> Option<Kept> {
    if changed.is_empty() {
        // The very objects, under the same options: the very report.
        return Some(Kept {
            desired: desired.clone(),
            actual: actual.clone(),
            ..kept
        });
    }
    let Kept {
        report,
        differences,
        mut healths,
        across,
        ..
    } = kept;
    let pairs: Vec<Pair> = changed
        .iter()
        .filter_map(|key| pair_at(desired, actual, key))
        .collect();
    let found: Vec<(Pair, Option<Difference>)> = pairs
        .into_iter()
        .map(|pair| {
            (
                pair,
                compare_pair(
                    desired,
                    pair,
                    &options.ignore,
                    options.owner(),
                ),
            )
        })
        .collect();
    let held: Vec<Held> = found
        .iter()
        .filter_map(|(pair, difference)| {
            difference
                .as_ref()
                .map(|difference| Held::of(*pair, difference))
        })
        .collect::<Option<_>>()?;
    let statuses: Vec<ObjectStatus> = found
        .iter()
        .filter_map(|(pair, difference)| {
            object_status(*pair, difference.as_ref(), |live_key, live| {
                live_healths
                    .recall(live_key, [None, Some(live)])
                    .unwrap_or_else(|| health(live))
            })
        })
        .collect();
    let fresh: Vec<Difference> = found
        .into_iter()
        .filter_map(|(_, difference)| difference)
        .collect();
    let drift = patched_drift(report.drift, changed, &fresh);
    drop(fresh);
    let objects = patched_objects(
        report.objects,
        changed,
        statuses,
        &mut healths,
    );
    let at_changed = indices_at(&differences, changed, |held| &*held.key);
    let differences = spliced(differences, &at_changed, held, |a, b| a.key.cmp(&b.key));
    // The plan's order and its waves read every difference: made again from them,
    // few as they are.
    let lent: Vec<Difference> = differences.iter().map(Held::difference).collect();
    let plan = plan_for(&lent, desired, options);
    drop(lent);
    let (warnings, across) =
        patched_warnings(report.warnings, across, changed, desired, actual, options);
    Some(Kept {
        desired: desired.clone(),
        actual: actual.clone(),
        options: options.clone(),
        report: Report {
            plan,
            status: Status {
                sync: sync_of(&drift, actual, options.acting_agent()),
                health: healths.overall(),
            },
            drift,
            objects,
            warnings,
        },
        differences,
        healths,
        across,
    })
}

/// The statuses of `objects`, with those at the `changed` keys replaced by
/// `fresh`; `healths` counts them as it goes.
fn patched_objects(
    objects: Vec<ObjectStatus>,
    changed: &[Key],
    fresh: Vec<ObjectStatus>,
    healths: &mut HealthCounts,
) -> Vec<ObjectStatus> {
    let at_changed = indices_at(&objects, changed, |status| &*status.key);
    for &at in &at_changed {
        healths.take(&objects[at]);
    }
    for status in &fresh {
        healths.add(status);
    }
    spliced(objects, &at_changed, fresh, |a, b| a.key.cmp(&b.key))
}
