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

use crate::diff::normalize::Mode;
use crate::diff::patch::Patch;
use crate::pointer::Pattern;
use crate::state::kinds::is_typed;
use crate::value::ValueRef;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use walker::Walker;

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

mod walker;

#[cfg(test)]
mod tests;
