//! The last few reports a workspace made (with the `patched-reports` feature),
//! each kept with what it was made on: the two states, the options, the
//! differences of its comparison (held, `diff::held`) and what the checklist's
//! rules across objects met (`warnings::Across`). A report on states that share
//! all but a few objects with a kept report's (the same `Arc`s: a reread after a
//! keystroke shares every object the keystroke did not touch), under the same
//! options, is that report patched where objects changed (`patch.rs`): the
//! comparison's verdicts, the objects' statuses and healths and the checklist's
//! findings about one object are found again for the changed keys alone; the
//! drift's entries at those keys are replaced; the plan (its order, its waves, a
//! Namespace's wave from what it holds, `PruneLast`) and the overall status are
//! made again from the differences and the statuses, as a report makes them. A
//! change the checklist's findings about other objects can depend on (an
//! autoscaler, or with prune on a Namespace of the cluster or what a pruned one
//! holds: `warnings::patch::reaches_other_objects`) makes the report afresh
//! instead, and so does a change of the options, of either state's form, or of
//! more than a quarter of the objects.
//!
//! A hook, a sync wave, a CustomResourceDefinition change nothing but their own
//! parts: whether an object is a hook, and its wave, are read of that object
//! alone, and the plan, which reads them of every difference, is made again; the
//! core reads whether a kind is namespaced from its own table of kinds
//! (`state::kinds`), never from the state's CustomResourceDefinitions.

mod changed;
mod patch;

use crate::diff::held::{held, Held};
use crate::options::Options;
use crate::report::{report_in, Found, Made, Report};
use crate::state::recent_reads::RecentReads;
use crate::state::{Key, State};
use crate::warnings::{reaches_other_objects, Across};
use changed::{changed_keys, union};
use crate::report::health::HealthCounts;
use patch::patched;

/// How many reports are kept: the page's look at what was typed, the world's
/// at its own states and the picture's at every environment take turns.
const KEPT: usize = 4;

/// How a workspace made its last report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportMade {
    /// From the two states, looking at every pair of objects.
    Afresh,
    /// A kept report patched at the keys of this many changed objects.
    Patched { changed: usize },
}

/// The last reports, the latest first.
pub(crate) struct LastReports {
    kept: Vec<Kept>,
    made: ReportMade,
}

/// A report with what it was made on and from.
struct Kept {
    desired: State,
    actual: State,
    options: Options,
    report: Report,
    /// The comparison's differences, in key order.
    differences: Vec<Held>,
    /// The healths of the report's objects.
    healths: HealthCounts,
    across: Across,
}

impl Default for LastReports {
    fn default() -> Self {
        LastReports {
            kept: Vec::new(),
            made: ReportMade::Afresh,
        }
    }
}

impl LastReports {
    /// `report`: a kept report patched where its states and these differ in a
    /// few objects (which `reads` knows when it read one from the other), else
    /// made afresh with what `found` remembers; kept either way.
    pub(crate) fn report(
        &mut self,
        found: &mut Found,
        reads: &RecentReads,
        desired: &State,
        actual: &State,
        options: &Options,
    ) -> Report {
        let nearest =
            self.kept.iter().enumerate().find_map(|(at, kept)| {
                Some((at, kept.changed_keys(reads, desired, actual, options)?))
            });
        let replaces = match nearest {
            Some((at, changed))
                if !self.kept[at].reaches_other_objects(&changed, desired, actual, options) =>
            {
                let kept = self.kept.remove(at);
                if let Some(patched) =
                    patched(kept, &changed, &found.healths, desired, actual, options)
                {
                    let report = patched.report.clone();
                    self.kept.insert(0, patched);
                    self.made = ReportMade::Patched {
                        changed: changed.len(),
                    };
                    return report;
                }
                None
            }
            nearest => nearest.map(|(at, _)| at),
        };
        let made = report_in(found, desired, actual, options);
        let report = made.report.clone();
        self.keep(replaces, desired, actual, options, made);
        self.made = ReportMade::Afresh;
        report
    }

    /// How the last report was made.
    pub(crate) fn made(&self) -> ReportMade {
        self.made
    }

    /// Keeps a report made afresh, in place of the one at `replaces` (which it
    /// is a later version of), else of the oldest.
    fn keep(
        &mut self,
        replaces: Option<usize>,
        desired: &State,
        actual: &State,
        options: &Options,
        made: Made,
    ) {
        if let Some(at) = replaces {
            self.kept.remove(at);
        }
        let Made {
            report,
            pairs,
            differences,
            across,
        } = made;
        let held = held(&pairs, &differences);
        // Every difference is about one of the pairs; were one not, the report
        // could not be patched, and is not kept.
        if held.len() != differences.len() {
            return;
        }
        self.kept.insert(
            0,
            Kept {
                desired: desired.clone(),
                actual: actual.clone(),
                options: options.clone(),
                healths: HealthCounts::of(&report.objects),
                report,
                differences: held,
                across,
            },
        );
        self.kept.truncate(KEPT);
    }
}

impl Kept {
    /// The keys where `desired` and `actual` hold other objects than this report's
    /// states, in key order, when the options and the states' forms are this
    /// report's and at most a quarter of the objects changed: as `reads` knows
    /// them when it read a state from this report's, else found by a walk.
    fn changed_keys(
        &self,
        reads: &RecentReads,
        desired: &State,
        actual: &State,
        options: &Options,
    ) -> Option<Vec<Key>> {
        if self.options != *options
            || self.desired.form() != desired.form()
            || self.actual.form() != actual.form()
        {
            return None;
        }
        let at_most = ((desired.len() + actual.len()) / 4).max(16);
        let changed = |before: &State, after: &State| match reads.keys_changed(before, after) {
            Some(keys) => Some(keys.to_vec()),
            None => changed_keys(before, after, at_most),
        };
        Some(union(
            changed(&self.desired, desired)?,
            changed(&self.actual, actual)?,
        ))
    }

    /// Whether the objects at any of the `changed` keys, here and in `desired`
    /// and `actual`, can change a finding about an object at another key
    /// (`warnings::reaches_other_objects`).
    fn reaches_other_objects(
        &self,
        changed: &[Key],
        desired: &State,
        actual: &State,
        options: &Options,
    ) -> bool {
        let (before, after) = ([&self.desired, &self.actual], [desired, actual]);
        changed
            .iter()
            .any(|key| reaches_other_objects(&self.across, options, before, after, key))
    }
}
