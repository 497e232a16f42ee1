//! What the reconciler reports about a pair of states, and a sync run to
//! convergence.

use super::apply::apply;
use super::compare::{compare, mode_of};
use super::drift::{drift_for, Drift};
use super::options::Options;
use super::plan::{diff, plan_for, Plan};
use super::state::State;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SyncStatus {
    /// The actual state equals the desired one.
    Synced,
    /// Something differs, whether or not the plan will fix it.
    OutOfSync,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    pub sync: SyncStatus,
}

/// A finding of the lesson's checklist about the desired state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub key: String,
    pub rule: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub plan: Plan,
    pub drift: Drift,
    pub status: Status,
    pub warnings: Vec<Warning>,
}

/// The plan, drift and status of `actual` against `desired`, from one comparison.
pub fn report(desired: &State, actual: &State, options: &Options) -> Report {
    let differences = compare(desired, actual, options);
    let drift = drift_for(&differences);
    let sync = if drift.is_empty() {
        SyncStatus::Synced
    } else {
        SyncStatus::OutOfSync
    };
    Report {
        plan: plan_for(&differences, mode_of(desired), options),
        drift,
        status: Status { sync },
        warnings: Vec::new(),
    }
}

/// A sync stops after this many passes even if plans are not yet empty.
pub const MAX_PASSES: usize = 10;

#[derive(Debug, Clone, PartialEq)]
pub struct SyncRun {
    /// Each pass's plan; the last one is empty when the run converged.
    pub passes: Vec<Plan>,
    pub actual: State,
    pub converged: bool,
}

/// Applies plans until a pass is empty (or `MAX_PASSES` have run).
pub fn sync(desired: &State, actual: &State, options: &Options) -> SyncRun {
    let mut passes = Vec::new();
    let mut actual = actual.clone();
    while passes.len() < MAX_PASSES {
        let plan = diff(desired, &actual, options);
        let converged = plan.is_empty();
        actual = apply(&plan, &actual);
        passes.push(plan);
        if converged {
            return SyncRun {
                passes,
                actual,
                converged: true,
            };
        }
    }
    SyncRun {
        passes,
        actual,
        converged: false,
    }
}
