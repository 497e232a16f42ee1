//! Field-level differences between a desired and a live object, each with the
//! JSON pointer of the field and its live (`from`) and desired (`to`) values.
//!
//! In the lesson's form every field counts. For Kubernetes objects, as in
//! Argo CD: fields the cluster writes itself are not drift, nor is the
//! namespace (the key holds where the object lands); a field only the
//! live object has is not drift unless Git set it earlier (it is in the
//! last-applied record); null or empty in Git where the live object has
//! nothing is no difference (a null where it has a value deletes it); and lists that
//! Kubernetes merges by key (containers and env by `name`, ports by
//! `containerPort`, ...) are compared item by item by that key, so an item the
//! cluster injected is not drift; a custom resource's lists, which an apply
//! replaces whole (`patch`), compare place by place. Values of Kubernetes' own kinds compare as
//! their Go types read them (`typed`): `cpu: 1` is `cpu: 1000m`.

use crate::diff::normalize::{is_empty, is_namespace, is_server_written, Mode};
use crate::diff::patch::Patch;
use crate::diff::go_types::same_once_typed;
use crate::pointer::{render, Pattern, Step};
use crate::state::kinds::is_typed;
use crate::text::names::Names;
use serde::{Deserialize, Serialize};
use crate::value::{Kind, ValueRef};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// RFC 6901 pointer of the field. In a list merged by key, the index is
    /// the item's place in the desired list (in the live list when removed).
    pub path: String,
    /// The live value; absent when Git adds the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Value>,
    /// The desired value; absent when Git removed the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Value>,
}

/// How to compare one object.
#[derive(Debug, Clone, Copy)]
pub struct Rules<'r> {
    pub mode: Mode,
    /// Fields no one compares (ignore rules).
    pub ignored: &'r [&'r Pattern],
}

/// Every difference between `desired` and `live`, in document order.
/// `last_applied` is what Git set before (Kubernetes objects only).
pub fn changes<'v>(
    desired: impl Into<ValueRef<'v>>,
    live: impl Into<ValueRef<'v>>,
    last_applied: Option<ValueRef<'v>>,
    rules: Rules,
) -> Vec<Change> {
    let (desired, live) = (desired.into(), live.into());
    if rules.ignored.is_empty() && rules.mode == Mode::Exact && desired == live {
        return Vec::new();
    }
    let mut walker = Walker {
        rules,
        typed_kind: typed_kind(desired, rules.mode),
        patch: Patch::of(desired),
        path: Vec::new(),
        found: Vec::new(),
    };
    walker.walk(desired, Some(live), last_applied);
    walker.found
}

/// The kind of a Kubernetes object whose kind client-go's scheme types,
/// whose values compare as their Go type reads them (`typed`).
fn typed_kind(desired: ValueRef<'_>, mode: Mode) -> Option<&str> {
    let kind = desired.get("kind")?.as_str()?;
    (mode == Mode::Kubernetes && is_typed(desired)).then_some(kind)
}

struct Walker<'v, 'r> {
    rules: Rules<'r>,
    typed_kind: Option<&'v str>,
    /// How an apply merges the object's lists, and so how they compare.
    patch: Patch,
    path: Vec<Step<'v>>,
    found: Vec<Change>,
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

    fn walk(&mut self, desired: ValueRef<'v>, live: Option<ValueRef<'v>>, last: Option<ValueRef<'v>>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn exact(desired: Value, live: Value) -> Vec<Change> {
        changes(
            &desired,
            &live,
            None,
            Rules {
                mode: Mode::Exact,
                ignored: &[],
            },
        )
    }

    fn kubernetes(desired: Value, live: Value, last: Option<Value>) -> Vec<Change> {
        changes(
            &desired,
            &live,
            last.as_ref().map(ValueRef::from),
            Rules {
                mode: Mode::Kubernetes,
                ignored: &[],
            },
        )
    }

    fn change(path: &str, from: Option<Value>, to: Option<Value>) -> Change {
        Change {
            path: path.into(),
            from,
            to,
        }
    }

    #[test]
    fn the_lesson_form_compares_every_field() {
        let found = exact(
            json!({"image": "web:2", "replicas": 3, "ports": [80]}),
            json!({"image": "web:1", "ports": [80, 443], "status": "ok"}),
        );
        assert_eq!(
            found,
            [
                change("/image", Some(json!("web:1")), Some(json!("web:2"))),
                change("/replicas", None, Some(json!(3))),
                change("/ports/1", Some(json!(443)), None),
                change("/status", Some(json!("ok")), None),
            ]
        );
    }

    #[test]
    fn fields_only_the_cluster_set_are_not_drift() {
        let desired =
            json!({"kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 2}});
        let live = json!({
            "kind": "Deployment",
            "metadata": {"name": "web", "uid": "1", "resourceVersion": "9", "generation": 4},
            "spec": {"replicas": 2, "revisionHistoryLimit": 10, "strategy": {"type": "RollingUpdate"}},
            "status": {"availableReplicas": 2}
        });
        assert!(kubernetes(desired, live, None).is_empty());
    }

    #[test]
    fn a_field_git_removed_is_drift() {
        let desired = json!({"metadata": {"labels": {"app": "web"}}});
        let live = json!({"metadata": {"labels": {"app": "web", "tier": "front", "pod-template-hash": "abc"}}});
        let last = json!({"metadata": {"labels": {"app": "web", "tier": "front"}}});
        assert_eq!(
            kubernetes(desired, live, Some(last)),
            [change("/metadata/labels/tier", Some(json!("front")), None)]
        );
    }

    #[test]
    fn containers_and_env_compare_by_name() {
        let desired = json!({"kind": "Pod", "spec": {"containers": [{"name": "app", "image": "web:2", "env": [{"name": "A", "value": "1"}]}]}});
        let live = json!({"kind": "Pod", "spec": {"containers": [
            {"name": "istio-proxy", "image": "proxy:1"},
            {"name": "app", "image": "web:1", "imagePullPolicy": "IfNotPresent", "env": [{"name": "INJECTED", "value": "x"}, {"name": "A", "value": "1"}]}
        ]}});
        assert_eq!(
            kubernetes(desired, live, None),
            [change(
                "/spec/containers/0/image",
                Some(json!("web:1")),
                Some(json!("web:2"))
            )]
        );
    }

    #[test]
    fn a_custom_resource_s_lists_compare_place_by_place() {
        let rollout = |containers: Value| json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout", "spec": {"containers": containers}});
        let desired = rollout(json!([{"name": "app", "image": "web:2"}]));
        let live = rollout(
            json!([{"name": "app", "image": "web:2"}, {"name": "istio-proxy", "image": "proxy:1"}]),
        );
        assert_eq!(
            kubernetes(desired, live, None),
            [change(
                "/spec/containers/1",
                Some(json!({"name": "istio-proxy", "image": "proxy:1"})),
                None
            )],
            "a JSON merge patch replaces the list: the injected item goes"
        );
    }

    #[test]
    fn empty_in_git_equals_absent_or_null_live() {
        let desired =
            json!({"rules": [], "data": {"password": ""}, "metadata": {"annotations": {}}});
        let live = json!({"rules": null, "data": {"password": null}, "metadata": {}});
        assert!(kubernetes(desired, live, None).is_empty());
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(exact(json!({"cpu": 1}), json!({"cpu": 1.0})).is_empty());
    }

    #[test]
    fn ignored_fields_are_not_drift_even_with_wildcards() {
        let pattern = Pattern::parse("/spec/containers/*/image").unwrap();
        let desired = json!({"spec": {"containers": [{"name": "a", "image": "web:2"}, {"name": "b", "image": "db:2"}]}});
        let live = json!({"spec": {"containers": [{"name": "a", "image": "web:1"}, {"name": "b", "image": "db:1"}]}});
        assert!(changes(
            &desired,
            &live,
            None,
            Rules {
                mode: Mode::Exact,
                ignored: &[&pattern]
            }
        )
        .is_empty());
    }

    #[test]
    fn an_added_object_is_split_around_an_ignored_field() {
        let pattern = Pattern::parse("/spec/replicas").unwrap();
        let found = changes(
            &json!({"spec": {"replicas": 2, "paused": false}}),
            &json!({}),
            None,
            Rules {
                mode: Mode::Exact,
                ignored: &[&pattern],
            },
        );
        assert_eq!(found, [change("/spec/paused", None, Some(json!(false)))]);
    }
}
