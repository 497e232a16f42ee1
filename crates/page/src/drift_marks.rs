//! The drift marked in a pane: the lines of each changed field, in Desired and in
//! Actual; an object the cluster lacks, in Desired; an object Git no longer
//! declares, in Actual. Objects are found in the text as `State` reads it
//! (`object_places`) and fields by their pointers (`value_lines`); a field one side
//! lacks marks the first line of the nearest value that side has. The fields no
//! comparison looks at (ignore rules, and what the cluster writes) are found the same
//! way, for the pane to grey. Everything comes out in text order.

use crate::editor::Pane;
use crate::model::Model;
use gitops_core::diff::compare::mode_of;
use gitops_core::Drift;
use gitops_core::state::Key;
use gitops_core::diff::ignore::{ignored_fields, patterns_for};
use gitops_core::diff::ssa::owners_at;
use gitops_core::state::places::object_places;
use gitops_core::text::lines::{value_lines, Wanted};
use std::ops::Range;

/// Texts larger than this are not walked for marks: the objects a page rendered are
/// still marked whole, from the lines it wrote them on.
pub const MOST_WALKED_BYTES: usize = 1024 * 1024;

/// At most this many drift marks a pane.
pub const MOST_MARKS: usize = 400;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkKind {
    /// A field whose value differs between Git and the cluster.
    Changed,
    /// Declared in Git, absent from the cluster.
    Missing,
    /// In the cluster, no longer declared in Git.
    Extra,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriftMark {
    /// 0-based lines [start, end).
    pub lines: Range<usize>,
    pub kind: MarkKind,
    /// The object's key.
    pub key: String,
    /// The changed field's pointer, for a changed field.
    pub field: Option<String>,
    /// Who owns the changed field in the cluster, where the object records it
    /// (`metadata.managedFields`): `kube-controller-manager (scale)`.
    pub owners: Vec<String>,
}

impl DriftMark {
    /// What the mark says, as its button's accessible name.
    pub fn describe(&self) -> String {
        let what = match (self.kind, &self.field) {
            (MarkKind::Changed, Some(field)) if self.owners.is_empty() => return format!("{} {field} differs", self.key),
            (MarkKind::Changed, Some(field)) => {
                return format!("{} {field} differs; in the cluster, {} owns it", self.key, self.owners.join(" and "))
            }
            (MarkKind::Changed, None) => "differs",
            (MarkKind::Missing, _) => "is not in the cluster",
            (MarkKind::Extra, _) => "is not in Git",
        };
        format!("{} {what}", self.key)
    }
}

/// What a pane marks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaneMarks {
    pub drift: Vec<DriftMark>,
    /// The lines of fields no comparison looks at.
    pub ignored: Vec<Range<usize>>,
    /// The lines of each object, in text order, for folding.
    pub objects: Vec<(String, Range<usize>)>,
}

/// A mark waiting for its lines: the slots of its pointers, the exact one first and
/// then its parents'; `None` for a greyed field.
struct Ask {
    mark: Option<DriftMark>,
    slots: Vec<usize>,
}

impl Model {
    /// The drift marks of a pane, for the report on screen.
    pub fn drift_marks(&self, pane: Pane) -> Vec<DriftMark> {
        self.pane_marks(pane).drift
    }

    /// What a pane marks, for the report on screen; nothing while the pane's text
    /// does not read.
    pub fn pane_marks(&self, pane: Pane) -> PaneMarks {
        let editor = self.panes.editor(pane);
        let mut marks = PaneMarks::default();
        if editor.error.is_some() {
            return marks;
        }
        let no_drift = Drift::default();
        let drift = self.panes.report.as_ref().map_or(&no_drift, |report| &report.drift);
        let (whole, whole_kind) = match pane {
            Pane::Desired => (&drift.missing, MarkKind::Missing),
            Pane::Actual => (&drift.extra, MarkKind::Extra),
        };
        let is_whole = |key: &str| whole.iter().any(|whole| whole == key);
        let mark = |lines, kind, key: &str, field| DriftMark { lines, kind, key: key.to_string(), field, owners: Vec::new() };
        let live = self.world.clusters.get(&self.environment).map(|cluster| cluster.actual());
        if editor.text.len() > MOST_WALKED_BYTES {
            // The page renders a state's objects in the order of their keys, as they are here.
            marks.objects = editor.lines.iter().map(|(key, lines)| (key.clone(), lines.clone())).collect();
            for (key, lines) in &editor.lines {
                let kind = match is_whole(key) {
                    true => whole_kind,
                    false if drift.changes.contains_key(key) => MarkKind::Changed,
                    false => continue,
                };
                marks.drift.push(mark(lines.clone(), kind, key, None));
            }
            marks.drift.truncate(MOST_MARKS);
            return marks;
        }
        let Some(places) = object_places(&editor.text) else {
            return marks;
        };
        let rules = &self.world.reconcile_options(&self.environment).ignore;
        let state = editor.reads_as.as_deref();
        let mut wanted = Wanted::new();
        let mut slots = 0;
        let mut want = |document: usize, pointer: String| {
            if wanted.len() <= document {
                wanted.resize_with(document + 1, Default::default);
            }
            let pointers = &mut wanted[document];
            match pointers.get(&pointer) {
                Some(slot) => *slot,
                None => {
                    pointers.insert(pointer, slots);
                    slots += 1;
                    slots - 1
                }
            }
        };
        let mut asks = Vec::new();
        let objects: Vec<usize> = places.iter().map(|(_, (document, object))| want(*document, object.clone())).collect();
        for (key, (document, object)) in &places {
            if is_whole(key) {
                let slots = vec![want(*document, object.clone())];
                asks.push(Ask { mark: Some(mark(0..0, whole_kind, key, None)), slots });
            }
            for change in drift.changes.get(&**key).into_iter().flatten() {
                let field = change.path.as_str();
                let ends = std::iter::once(field.len()).chain(field.rmatch_indices('/').map(|(at, _)| at));
                let slots = ends.map(|end| want(*document, format!("{object}{}", &field[..end]))).collect();
                let owners = live.and_then(|live| live.get(key)).map(|object| owners_at(object, field)).unwrap_or_default();
                let changed = DriftMark { owners, ..mark(0..0, MarkKind::Changed, key, Some(field.to_string())) };
                asks.push(Ask { mark: Some(changed), slots });
            }
            let Some((state, value)) = state.and_then(|state| Some((state, state.get(key)?))) else {
                continue;
            };
            let patterns = patterns_for(rules, key, value);
            for field in ignored_fields(value, &patterns, mode_of(state)) {
                let slots = vec![want(*document, format!("{object}{field}"))];
                asks.push(Ask { mark: None, slots });
            }
        }
        let found = value_lines(&editor.text, &wanted, slots);
        let object_lines = |((key, _), slot): (&(Key, _), &usize)| Some((key.to_string(), found[*slot].clone()?));
        marks.objects = places.iter().zip(&objects).filter_map(object_lines).collect();
        for Ask { mark, slots } in asks {
            let nearest = slots.iter().enumerate().find_map(|(depth, slot)| Some((depth, found[*slot].clone()?)));
            let Some((depth, lines)) = nearest else {
                continue;
            };
            match mark {
                None => marks.ignored.push(lines),
                Some(mark) if marks.drift.len() < MOST_MARKS => {
                    let lines = if depth == 0 { lines } else { lines.start..lines.start + 1 };
                    marks.drift.push(DriftMark { lines, ..mark });
                }
                Some(_) => {}
            }
        }
        marks
    }
}
