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
use crate::diff::typed::same_once_typed;
use crate::pointer::{render, Pattern, Step};
use crate::state::kinds::is_typed;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
pub fn changes(
    desired: &Value,
    live: &Value,
    last_applied: Option<&Value>,
    rules: Rules,
) -> Vec<Change> {
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
fn typed_kind(desired: &Value, mode: Mode) -> Option<&str> {
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

    fn record(&mut self, from: Option<&Value>, to: Option<&Value>) {
        self.found.push(Change {
            path: render(&self.path),
            from: from.cloned(),
            to: to.cloned(),
        });
    }

    fn walk(&mut self, desired: &'v Value, live: Option<&'v Value>, last: Option<&'v Value>) {
        if self.skipped() {
            return;
        }
        let live = live.filter(|value| !(self.kubernetes() && value.is_null()));
        match (desired, live) {
            (_, None) if self.kubernetes() && is_empty(desired) => {}
            (Value::Object(want), Some(Value::Object(have))) => {
                self.walk_object(want, have, last.and_then(Value::as_object));
            }
            (Value::Array(want), Some(Value::Array(have))) => {
                self.walk_list(want, have, last.and_then(Value::as_array))
            }
            (_, None) => self.added(desired),
            (_, Some(have)) => {
                if !same(desired, have) && !self.same_once_typed(desired, have) {
                    self.record(Some(have), Some(desired));
                }
            }
        }
    }

    fn same_once_typed(&self, desired: &Value, live: &Value) -> bool {
        self.typed_kind
            .is_some_and(|kind| same_once_typed(kind, &self.path, desired, live))
    }

    /// A field Git adds: one change, or one per field when an ignored field
    /// lies inside it.
    fn added(&mut self, desired: &'v Value) {
        if !self.something_below_is_ignored() {
            return self.record(None, Some(desired));
        }
        match desired {
            Value::Object(fields) => {
                for (name, value) in fields {
                    self.at(Step::Field(name), |walker| walker.walk(value, None, None));
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.at(Step::Index(index), |walker| walker.walk(item, None, None));
                }
            }
            _ => self.record(None, Some(desired)),
        }
    }

    /// A field Git removes: one change, or one per field when an ignored
    /// field lies inside it.
    fn removed(&mut self, live: &'v Value) {
        if !self.something_below_is_ignored() {
            return self.record(Some(live), None);
        }
        match live {
            Value::Object(fields) => {
                for (name, value) in fields {
                    self.at(Step::Field(name), |walker| {
                        walker.removed_unless_skipped(value)
                    });
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    self.at(Step::Index(index), |walker| {
                        walker.removed_unless_skipped(item)
                    });
                }
            }
            _ => self.record(Some(live), None),
        }
    }

    fn removed_unless_skipped(&mut self, live: &'v Value) {
        if !self.skipped() {
            self.removed(live);
        }
    }

    fn at(&mut self, step: Step<'v>, visit: impl FnOnce(&mut Self)) {
        self.path.push(step);
        visit(self);
        self.path.pop();
    }

    fn walk_object(
        &mut self,
        want: &'v Map<String, Value>,
        have: &'v Map<String, Value>,
        last: Option<&'v Map<String, Value>>,
    ) {
        for (name, value) in want {
            self.at(Step::Field(name), |walker| {
                walker.walk(value, field(have, name), last.and_then(|l| field(l, name)))
            });
        }
        for (name, value) in have.iter().filter(|(name, _)| field(want, name).is_none()) {
            let set_by_git = !self.kubernetes()
                || last
                    .and_then(|last| field(last, name))
                    .is_some_and(|v| !is_empty(v));
            if set_by_git && !(self.kubernetes() && value.is_null()) {
                self.at(Step::Field(name), |walker| {
                    walker.removed_unless_skipped(value)
                });
            }
        }
    }

    fn walk_list(&mut self, want: &'v [Value], have: &'v [Value], last: Option<&'v Vec<Value>>) {
        let field = match self.path.last() {
            Some(Step::Field(field)) if self.kubernetes() => *field,
            _ => "",
        };
        let all: Vec<&Value> = want
            .iter()
            .chain(have)
            .chain(last.into_iter().flatten())
            .collect();
        match self.patch.merge_key(field, &all) {
            Some(key) => {
                self.walk_keyed_list(key, want, have, last.map(Vec::as_slice).unwrap_or_default())
            }
            None => {
                for (index, item) in want.iter().enumerate() {
                    self.at(Step::Index(index), |walker| {
                        walker.walk(item, have.get(index), last.and_then(|l| l.get(index)))
                    });
                }
                for (index, item) in have.iter().enumerate().skip(want.len()) {
                    self.at(Step::Index(index), |walker| {
                        walker.removed_unless_skipped(item)
                    });
                }
            }
        }
    }

    fn walk_keyed_list(
        &mut self,
        key: &str,
        want: &'v [Value],
        have: &'v [Value],
        last: &'v [Value],
    ) {
        let find = |items: &'v [Value], id: Option<&Value>| {
            items.iter().position(|item| item.get(key) == id)
        };
        for (index, item) in want.iter().enumerate() {
            let id = item.get(key);
            let live = find(have, id).map(|at| &have[at]);
            let before = find(last, id).map(|at| &last[at]);
            self.at(Step::Index(index), |walker| walker.walk(item, live, before));
        }
        for (index, item) in have.iter().enumerate() {
            let id = item.get(key);
            if find(want, id).is_none() && find(last, id).is_some() {
                self.at(Step::Index(index), |walker| {
                    walker.removed_unless_skipped(item)
                });
            }
        }
    }
}

/// Equal values; numbers compare by value, so `1` equals `1.0`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// Objects with at most this many fields are searched by comparing names:
/// cheaper than hashing the name, and most objects are that small.
const FIELDS_SEARCHED: usize = 8;

/// The field `name` of `object`.
fn field<'v>(object: &'v Map<String, Value>, name: &str) -> Option<&'v Value> {
    if object.len() <= FIELDS_SEARCHED {
        object
            .iter()
            .find_map(|(key, value)| (key == name).then_some(value))
    } else {
        object.get(name)
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
            last.as_ref(),
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
