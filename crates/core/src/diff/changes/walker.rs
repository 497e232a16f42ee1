//! The walk down a desired and a live object side by side that finds their
//! changes, by the rules of `Rules`.

use super::{Change, Rules};
use crate::diff::go_types::same_once_typed;
use crate::diff::normalize::{is_empty, is_namespace, is_server_written, Mode};
use crate::diff::patch::Patch;
use crate::pointer::{render, Step};
use crate::text::names::Names;
use crate::value::{Kind, ValueRef};

pub(super) struct Walker<'v, 'r> {
    pub(super) rules: Rules<'r>,
    pub(super) typed_kind: Option<&'v str>,
    /// How an apply merges the object's lists, and so how they compare.
    pub(super) patch: Patch,
    pub(super) path: Vec<Step<'v>>,
    pub(super) found: Vec<Change>,
}

impl<'v> Walker<'v, '_> {
    fn kubernetes(&self) -> bool {
        self.rules.mode == Mode::Kubernetes
    }

    fn skipped(&self) -> bool {
        (self.kubernetes() && (is_server_written(&self.path) || is_namespace(&self.path)))
            || self.rules.ignored.iter().any(|p| p.matches(&self.path))
    }

    fn something_below_is_ignored(&self) -> bool {
        self.rules
            .ignored
            .iter()
            .any(|pattern| pattern.is_below(&self.path))
    }

    fn record(&mut self, from: Option<ValueRef>, to: Option<ValueRef>) {
        self.found.push(Change {
            path: render(&self.path),
            from: from.map(ValueRef::to_value),
            to: to.map(ValueRef::to_value),
        });
    }

    pub(super) fn walk(&mut self, desired: ValueRef<'v>, live: Option<ValueRef<'v>>, last: Option<ValueRef<'v>>) {
        if self.skipped() {
            return;
        }
        if live.is_some_and(|live| self.known_equal(desired, live)) {
            return;
        }
        let live = live.filter(|value| !(self.kubernetes() && value.is_null()));
        match (desired.kind(), live) {
            (_, None) if self.kubernetes() && is_empty(desired) => {}
            (Kind::Object, Some(have)) if have.is_object() => {
                self.walk_object(desired, have, last.filter(|last| last.is_object()));
            }
            (Kind::Array, Some(have)) if have.is_array() => {
                self.walk_list(desired, have, last.filter(|last| last.is_array()))
            }
            (_, None) => self.added(desired),
            (_, Some(have)) => {
                if !same(desired, have) && !self.same_once_typed(desired, have) {
                    self.record(Some(have), Some(desired));
                }
            }
        }
    }

    /// Whether the two values are known equal without walking them
    /// (`ValueRef::known_equal`), with nothing to find below. Not so of a
    /// Kubernetes object's lists: one merged by key compares the items of a
    /// key written twice with the first of that key, so equal lists can
    /// differ (`walk_keyed_list`).
    fn known_equal(&self, desired: ValueRef, live: ValueRef) -> bool {
        desired.known_equal(live) && !(self.kubernetes() && desired.holds_array())
    }

    fn same_once_typed(&self, desired: ValueRef, live: ValueRef) -> bool {
        self.typed_kind
            .is_some_and(|kind| same_once_typed(kind, &self.path, desired, live))
    }

    /// A field Git adds: one change, or one per field when an ignored field
    /// lies inside it.
    fn added(&mut self, desired: ValueRef<'v>) {
        if !self.something_below_is_ignored() {
            return self.record(None, Some(desired));
        }
        match desired.kind() {
            Kind::Object => {
                for (name, value) in desired.fields() {
                    self.at(Step::Field(name), |walker| walker.walk(value, None, None));
                }
            }
            Kind::Array => {
                for (index, item) in desired.items().enumerate() {
                    self.at(Step::Index(index), |walker| walker.walk(item, None, None));
                }
            }
            _ => self.record(None, Some(desired)),
        }
    }

    /// A field Git removes: one change, or one per field when an ignored
    /// field lies inside it.
    fn removed(&mut self, live: ValueRef<'v>) {
        if !self.something_below_is_ignored() {
            return self.record(Some(live), None);
        }
        match live.kind() {
            Kind::Object => {
                for (name, value) in live.fields() {
                    self.at(Step::Field(name), |walker| {
                        walker.removed_unless_skipped(value)
                    });
                }
            }
            Kind::Array => {
                for (index, item) in live.items().enumerate() {
                    self.at(Step::Index(index), |walker| {
                        walker.removed_unless_skipped(item)
                    });
                }
            }
            _ => self.record(Some(live), None),
        }
    }

    fn removed_unless_skipped(&mut self, live: ValueRef<'v>) {
        if !self.skipped() {
            self.removed(live);
        }
    }

    fn at(&mut self, step: Step<'v>, visit: impl FnOnce(&mut Self)) {
        self.path.push(step);
        visit(self);
        self.path.pop();
    }

    fn walk_object(&mut self, want: ValueRef<'v>, have: ValueRef<'v>, last: Option<ValueRef<'v>>) {
        // Git's object is most often the one last applied (`last_applied_beside` then
        // hands it over as the record): each field's last value is its value in Git, and
        // a field Git does not declare was not applied.
        let last_is_git = last.is_some_and(|last| last.is_at(want));
        let last = last.filter(|_| !last_is_git).map(ValueRef::indexed);
        let (wanted, had) = (want.indexed(), have.indexed());
        let (mut wanted_names, mut found_live) = (Names::default(), 0);
        for (name, value) in want.fields() {
            wanted_names.add(name);
            let before = match last_is_git {
                true => Some(value),
                false => last.as_ref().and_then(|last| last.get(name)),
            };
            let live = had.get(name);
            found_live += usize::from(live.is_some());
            self.at(Step::Field(name), |walker| walker.walk(value, live, before));
        }
        // Names are unique in an object: when Git's fields found every live one, the
        // live object has no field Git does not declare. A Kubernetes object's live field
        // is removed only when Git set it before, which nothing says when there is no
        // record, or when the record is Git's object itself.
        if Some(found_live) == have.count() || (self.kubernetes() && last.is_none()) {
            return;
        }
        let not_wanted = |name: &str| !wanted_names.may_hold(name) || wanted.get(name).is_none();
        for (name, value) in have.fields().filter(|(name, _)| not_wanted(name)) {
            let set_by_git = !self.kubernetes()
                || last
                    .as_ref()
                    .and_then(|last| last.get(name))
                    .is_some_and(|v| !is_empty(v));
            if set_by_git && !(self.kubernetes() && value.is_null()) {
                self.at(Step::Field(name), |walker| {
                    walker.removed_unless_skipped(value)
                });
            }
        }
    }

    fn walk_list(&mut self, want: ValueRef<'v>, have: ValueRef<'v>, last: Option<ValueRef<'v>>) {
        let field = match self.path.last() {
            Some(Step::Field(field)) if self.kubernetes() => *field,
            _ => "",
        };
        let want: Vec<ValueRef<'v>> = want.items().collect();
        let have: Vec<ValueRef<'v>> = have.items().collect();
        let last: Vec<ValueRef<'v>> = last.map_or_else(Vec::new, |last| last.items().collect());
        let all: Vec<ValueRef> = want.iter().chain(&have).chain(&last).copied().collect();
        match self.patch.merge_key(field, &all) {
            Some(key) => self.walk_keyed_list(key, &want, &have, &last),
            None => {
                for (index, item) in want.iter().enumerate() {
                    self.at(Step::Index(index), |walker| {
                        walker.walk(*item, have.get(index).copied(), last.get(index).copied())
                    });
                }
                for (index, item) in have.iter().enumerate().skip(want.len()) {
                    self.at(Step::Index(index), |walker| {
                        walker.removed_unless_skipped(*item)
                    });
                }
            }
        }
    }

    fn walk_keyed_list(
        &mut self,
        key: &str,
        want: &[ValueRef<'v>],
        have: &[ValueRef<'v>],
        last: &[ValueRef<'v>],
    ) {
        let find = |items: &[ValueRef<'v>], id: Option<ValueRef>| {
            items.iter().position(|item| item.get(key) == id)
        };
        for (index, item) in want.iter().enumerate() {
            let id = item.get(key);
            let live = find(have, id).map(|at| have[at]);
            let before = find(last, id).map(|at| last[at]);
            self.at(Step::Index(index), |walker| walker.walk(*item, live, before));
        }
        for (index, item) in have.iter().enumerate() {
            let id = item.get(key);
            if find(want, id).is_none() && find(last, id).is_some() {
                self.at(Step::Index(index), |walker| {
                    walker.removed_unless_skipped(*item)
                });
            }
        }
    }
}

/// Equal values; numbers compare by value, so `1` equals `1.0`.
fn same(a: ValueRef, b: ValueRef) -> bool {
    match (a.as_number(), b.as_number()) {
        (Some(x), Some(y)) => x == y || x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}
