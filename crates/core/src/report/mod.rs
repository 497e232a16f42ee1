//! What the reconciler reports about a pair of states, and a sync run to
//! convergence.

use crate::diff::compare::{compare, compare_pairs, Difference};
use crate::diff::drift::{drift_for, Drift};
use crate::health::{health, Health};
use crate::state::meta::annotation;
use health::HealthCounts;
use crate::memo::Memo;
use crate::options::{Agent, Options};
use crate::state::protection::ignores_extraneous;
use crate::state::pairs::{aligned_in, Pair};
use crate::state::{Key, Object, State};
use crate::sync::apply::carry_out;
use crate::sync::immutable::{Recreated, Refusal};
use crate::sync::plan::{has_work, plan, plan_for, Plan};
use crate::warnings::{warnings_of_pairs, Across, Findings, Warning};
use crate::diff::compare::Comparisons;
use crate::state::pairs::Walks;
use serde::Serialize;
use std::sync::Arc;

pub(crate) mod health;

/// An object whose health Argo CD leaves out of its application's.
pub const IGNORE_HEALTHCHECK: &str = "argocd.argoproj.io/ignore-healthcheck";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SyncStatus {
    /// The actual state equals the desired one.
    Synced,
    /// Something differs, whether or not the plan will fix it.
    OutOfSync,
    /// The desired state could not be read, so nothing was compared.
    Unknown,
}

impl std::fmt::Display for SyncStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SyncStatus::Synced => "Synced",
            SyncStatus::OutOfSync => "OutOfSync",
            SyncStatus::Unknown => "Unknown",
        })
    }
}

/// Sync and health side by side: a Synced application can be Degraded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    pub sync: SyncStatus,
    /// The worst health of the objects; Healthy when none has a health rule.
    /// A missing object of a kind without one does not count (Argo CD).
    pub health: Health,
}

/// One object of either state, with its own sync status and health.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ObjectStatus {
    pub key: Key,
    pub sync: SyncStatus,
    /// Missing when desired but absent; absent when the kind has no health rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health: Option<Health>,
    /// Its live object says `argocd.argoproj.io/ignore-healthcheck: "true"`:
    /// its health is not the application's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub health_ignored: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub plan: Plan,
    pub drift: Drift,
    pub status: Status,
    pub objects: Vec<ObjectStatus>,
    pub warnings: Vec<Warning>,
}

/// The drift of `actual` from `desired`, each list in key order.
pub fn drift(desired: &State, actual: &State, options: &Options) -> Drift {
    drift_for(&compare(
        desired,
        actual,
        &options.ignore,
        options.owner(),
    ))
}

/// The plan, drift, status and per-object status of `actual` against
/// `desired`, all from one comparison.
pub fn report(desired: &State, actual: &State, options: &Options) -> Report {
    report_in(&mut Found::off(), desired, actual, options).report
}

/// What a report's looks found for each object of the last few large states, by
/// look (`memo.rs`); a workspace's (`Workspace::report`).
#[derive(Default)]
pub(crate) struct Found {
    walks: Walks,
    comparisons: Comparisons,
    pub(crate) healths: Healths,
    findings: Findings,
}

impl Found {
    /// Memos that keep nothing: the pure `report`'s.
    const fn off() -> Self {
        Found { walks: Walks::off(), comparisons: Memo::off(), healths: Memo::off(), findings: Findings::off() }
    }
}

/// A report with what it was made from, which a workspace keeps to patch it
/// later (`last_reports`): the pairs of the two states, the differences, and
/// what the checklist found across objects.
pub(crate) struct Made<'a> {
    pub(crate) report: Report,
    pub(crate) pairs: Vec<Pair<'a>>,
    pub(crate) differences: Vec<Difference<'a>>,
    pub(crate) across: Across,
}

/// `report`, remembering in `memos` what it found for each object.
pub(crate) fn report_in<'a>(
    memos: &mut Found,
    desired: &'a State,
    actual: &'a State,
    options: &Options,
) -> Made<'a> {
    // The compare, the objects' statuses and the checklist all look at the same pairs.
    let pairs = aligned_in(&mut memos.walks, desired, actual);
    let differences = compare_pairs(
        &mut memos.comparisons,
        desired,
        actual,
        &pairs,
        &options.ignore,
        options.owner(),
    );
    let drift = drift_for(&differences);
    let objects = object_statuses(&mut memos.healths, actual, &pairs, &differences);
    let (warnings, across) =
        warnings_of_pairs(&mut memos.findings, desired, actual, &pairs, options);
    let report = Report {
        plan: plan_for(&differences, desired, options),
        status: status_of(&drift, actual, options, &objects),
        drift,
        objects,
        warnings,
    };
    Made {
        report,
        pairs,
        differences,
        across,
    }
}

/// The status of `desired` as a whole: out of sync when anything drifted, and the
/// health its objects add up to (`Healths::overall`).
fn status_of(drift: &Drift, actual: &State, options: &Options, objects: &[ObjectStatus]) -> Status {
    Status {
        sync: sync_of(drift, actual, options.acting_agent()),
        health: HealthCounts::of(objects).overall(),
    }
}

/// Out of sync when anything drifted, but for an object Git does not declare
/// that Argo CD's `IgnoreExtraneous` leaves out (`ignores_extraneous`; Flux
/// reads none of Argo CD's annotations).
pub(crate) fn sync_of(drift: &Drift, actual: &State, agent: Agent) -> SyncStatus {
    let counts = |key: &String| agent != Agent::ArgoCd || !actual.object(key).is_some_and(|object| ignores_extraneous(object));
    if drift.missing.is_empty() && drift.changed.is_empty() && !drift.extra.iter().any(counts) {
        SyncStatus::Synced
    } else {
        SyncStatus::OutOfSync
    }
}

fn object_statuses(
    healths: &mut Healths,
    actual: &State,
    pairs: &[Pair],
    differences: &[Difference],
) -> Vec<ObjectStatus> {
    // The differences are in key order, as the pairs are: one walk along them.
    let mut out_of_sync = differences.iter().peekable();
    healths.pass((), actual.len(), |healths| {
        pairs
            .iter()
            .filter_map(|pair| {
                let key = pair.key();
                // Each difference is about one of these pairs and borrows its key:
                // the next one is this pair's when it is that very key, found by
                // its address without reading two keys for every pair.
                let difference = out_of_sync.next_if(|difference| {
                    let same = std::ptr::eq(difference.key(), &**key);
                    debug_assert!(same || difference.key() != &**key, "a difference of another key's: {key}");
                    same
                });
                object_status(*pair, difference, |live_key, live| {
                    healths.get_or(live_key, [None, Some(live)], || health(live))
                })
            })
            .collect()
    })
}

/// The status of the object at `pair`, which `difference` is about when it
/// differs, its live object's health as `health_of` finds it. An object the
/// application does not manage, or a hook, is none of its objects.
pub(crate) fn object_status(
    pair: Pair,
    difference: Option<&Difference>,
    health_of: impl FnOnce(&Key, &Arc<Object>) -> Option<Health>,
) -> Option<ObjectStatus> {
    if matches!(
        difference,
        Some(Difference::Unmanaged { .. } | Difference::Hook { .. })
    ) {
        return None;
    }
    let differs = matches!(
        difference,
        Some(Difference::Missing { .. } | Difference::Changed { .. } | Difference::Extra { .. })
    );
    Some(ObjectStatus {
        key: Key::clone(pair.key()),
        sync: if differs {
            SyncStatus::OutOfSync
        } else {
            SyncStatus::Synced
        },
        health: match pair.actual_entry() {
            Some((live_key, live)) => health_of(live_key, live),
            None => Some(Health::Missing),
        },
        health_ignored: pair.actual_entry().is_some_and(|(_, live)| annotation(live.view(), IGNORE_HEALTHCHECK) == Some("true")),
    })
}

/// The health of each live object, by key.
pub(crate) type Healths = Memo<(), Option<Health>>;

/// A sync stops after this many passes even if plans still have work.
pub const MAX_PASSES: usize = 10;

#[derive(Debug, Clone, PartialEq)]
pub struct SyncRun {
    /// Each pass's plan; the last one has nothing to apply when the run converged.
    pub passes: Vec<Plan>,
    pub actual: State,
    pub converged: bool,
    /// The updates the API server refused. The run stops at the pass that
    /// met them: every later pass would meet them again.
    pub refused: Vec<Refusal>,
    /// The objects deleted and created again instead of updated.
    pub recreated: Vec<Recreated>,
}

/// Carries out plans against the API server (`carry_out`) until a pass has
/// nothing to apply, an update is refused, or `MAX_PASSES` have run.
pub fn sync(desired: &State, actual: &State, options: &Options) -> SyncRun {
    let mut run = SyncRun {
        passes: Vec::new(),
        actual: actual.clone(),
        converged: false,
        refused: Vec::new(),
        recreated: Vec::new(),
    };
    while run.passes.len() < MAX_PASSES {
        let plan = plan(desired, &run.actual, options);
        let converged = !has_work(&plan);
        let done = carry_out(&plan, desired, &run.actual, options);
        run.actual = done.actual;
        run.recreated.extend(done.recreated);
        run.passes.push(plan);
        if !done.refused.is_empty() {
            run.refused = done.refused;
            return run;
        }
        if converged {
            run.converged = true;
            return run;
        }
    }
    run
}
