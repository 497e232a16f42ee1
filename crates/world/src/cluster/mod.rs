//! A cluster: the actual objects of one environment and the writes that
//! change them (an apply, a field a controller owns, the API server's
//! generation counter). `kubelet` is the stand-in that rolls workloads out
//! and writes their status; `disruption`, the disruption controller's, that
//! writes a PodDisruptionBudget's.

mod disruption;
mod kubelet;
pub mod writer;

pub use kubelet::{Running, NEEDS, PROGRESS_DEADLINE};
pub use writer::Writer;

use gitops_core::options::Options;
use gitops_core::state::defaults::with_api_server_defaults;
use gitops_core::state::{forms_agree, Key, State};
use gitops_core::sync::apply::deleted_with;
use gitops_core::sync::immutable::{outcome, Outcome};
use gitops_core::sync::plan::Operation;
use kubelet::Rollout;
use serde_json::{json, Value};
use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    pub environment: String,
    actual: State,
    /// By key: a list rather than a map, the only one of its kind in the
    /// page, whose B-tree code would cost the first visit a kilobyte.
    rollouts: Vec<Rollout>,
    restarts: BTreeSet<String>,
    /// The deletions a person confirmed (`Prune=confirm`) that have not run
    /// yet, as Argo CD's `argocd.argoproj.io/deletion-approved` approves them.
    pub confirmed_prunes: BTreeSet<String>,
    /// The operations the last act on the world applied here (a sync's pass at
    /// this minute, or the operation a person asked the agent for), in order:
    /// what the picture marks as just done, whoever applied them.
    pub applied: Vec<Operation>,
}

/// Whether what Git declares can be compared with a cluster's state, and
/// so synced into it: both named objects, or both Kubernetes objects (an
/// empty state goes with either). Else why not. Every part of the world
/// that syncs, and the page, asks this one question.
pub fn comparable(desired: &State, actual: &State) -> Result<(), String> {
    forms_agree(desired, "Git", actual, "the cluster")
}

impl Cluster {
    /// A cluster holding `actual`, each object as the API server stored it
    /// when it was created: with its defaults (`with_api_server_defaults`).
    pub fn new(environment: &str, mut actual: State) -> Self {
        let undefaulted: Vec<(Key, Value)> = actual
            .objects()
            .iter()
            .filter_map(|(key, object)| {
                let mut defaulted = object.value().clone();
                with_api_server_defaults(&mut defaulted);
                (*object.value() != defaulted).then(|| (key.clone(), defaulted))
            })
            .collect();
        for (key, defaulted) in undefaulted {
            actual.insert(key, defaulted);
        }
        Cluster {
            environment: environment.into(),
            actual,
            rollouts: Vec::new(),
            restarts: BTreeSet::new(),
            confirmed_prunes: BTreeSet::new(),
            applied: Vec::new(),
        }
    }

    pub fn actual(&self) -> &State {
        &self.actual
    }

    /// What each workload runs now, in the order of their keys.
    pub fn running(&self) -> impl Iterator<Item = (&str, &[Running])> {
        self.rollouts
            .iter()
            .map(|rollout| (rollout.key.as_str(), rollout.images.as_slice()))
    }

    /// What the workload of `key` runs now, if it has rolled out.
    pub fn running_of(&self, key: &str) -> Option<&[Running]> {
        self.rollout(key).map(|rollout| rollout.images.as_slice())
    }

    /// Writes an object as the API server would: with its defaults, and a
    /// Kubernetes object whose `spec` changed gets the next `metadata.generation`.
    pub fn write(&mut self, key: &str, mut object: Value) {
        with_api_server_defaults(&mut object);
        let current = self.actual.get(key);
        if is_kubernetes(&object) && object.get("spec").is_some() {
            let generation = current
                .and_then(|c| c.pointer("/metadata/generation"))
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let spec_changed = current.and_then(|c| c.get("spec")) != object.get("spec");
            let next = if spec_changed || generation == 0 {
                generation + 1
            } else {
                generation
            };
            if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
                metadata.insert("generation".into(), json!(next));
            }
        }
        self.actual.insert(key.to_string(), object);
    }

    /// Writes an object's status, as a controller does through the status
    /// subresource: the rest of the object, and its generation, stay.
    pub(crate) fn write_status(&mut self, key: &str, status: Value) {
        if let Some(object) = self.actual.get(key) {
            if object.get("status") != Some(&status) {
                let mut object = object.clone();
                object["status"] = status;
                self.actual.insert(key.to_string(), object);
            }
        }
    }

    /// Replaces the whole actual state (a person editing the cluster by hand).
    pub fn replace(&mut self, next: State) {
        self.rollouts.retain(|rollout| next.get(&rollout.key).is_some());
        let keys: Vec<Key> = next.objects().keys().cloned().collect();
        self.actual = State::empty(next.form().clone());
        for key in keys {
            if let Some(object) = next.get(&key) {
                self.write(&key, object.clone());
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.rollouts.retain(|rollout| rollout.key != key);
        self.actual.remove(key)
    }

    /// Carries out the operations of a plan.
    pub fn apply(&mut self, plan: &[Operation]) {
        for operation in plan {
            match operation {
                Operation::Create { key, object, .. } | Operation::Update { key, object, .. } => {
                    self.write(key, Value::clone(object))
                }
                Operation::Delete { key, .. } => {
                    for contained in deleted_with(&self.actual, key) {
                        self.remove(&contained);
                    }
                    self.remove(key);
                    self.confirmed_prunes.remove(key);
                }
                Operation::Skip { .. } => {}
            }
        }
    }

    /// Carries out one operation of a plan made for `desired` as the API
    /// server takes it (`sync::immutable`): written, refused (nothing is
    /// written), or the object deleted and created again.
    pub fn carry_out(
        &mut self,
        operation: &Operation,
        desired: &State,
        options: &Options,
    ) -> Outcome {
        let outcome = outcome(operation, desired, &self.actual, options);
        if !matches!(outcome, Outcome::Refused(_)) {
            self.applied.push(operation.clone());
        }
        match &outcome {
            Outcome::Accepted => self.apply(std::slice::from_ref(operation)),
            Outcome::Refused(_) => {}
            Outcome::Recreated { object, .. } => {
                self.remove(operation.key());
                self.write(operation.key(), object.clone());
            }
        }
        outcome
    }

    /// Sets one field of an object (the whole object, creating it, when
    /// `path` is empty), as `writer` updates it; `Err` says why it cannot.
    pub fn set_field(
        &mut self,
        key: &str,
        path: &str,
        value: Value,
        writer: Writer,
    ) -> Result<Option<Value>, String> {
        let before = self.actual.get(key);
        let (old, object) = if path.is_empty() {
            (before.cloned(), value)
        } else {
            let mut object = before
                .cloned()
                .ok_or_else(|| format!("{key} is not in the {} cluster", self.environment))?;
            let old = set_pointer(&mut object, path, value)?;
            (old, object)
        };
        let object = writer.recorded(before, object);
        self.write(key, object);
        Ok(old)
    }

    /// The pods of a workload restart at the next kubelet pass and pull
    /// their images again.
    pub fn restart(&mut self, key: &str) -> bool {
        let known = self.actual.get(key).is_some();
        if known {
            self.restarts.insert(key.to_string());
        }
        known
    }
}

pub(super) fn is_kubernetes(object: &Value) -> bool {
    object.get("kind").is_some_and(Value::is_string)
        && object.get("metadata").is_some_and(Value::is_object)
}

/// The most fields a path that writes may go through: as deep as a
/// document may nest. The objects made on the way nest the value, and a
/// value nested thousands deep overflows the stack when it is copied,
/// compared or dropped.
const MAX_PATH_FIELDS: usize = 128;

/// Sets the value at a JSON pointer, making the objects on the way; returns
/// the value it replaced.
pub fn set_pointer(target: &mut Value, path: &str, value: Value) -> Result<Option<Value>, String> {
    let pattern = gitops_core::pointer::Pattern::parse(path)?;
    let segments: Vec<&str> = pattern
        .segments()
        .map(|segment| segment.unwrap_or("*"))
        .collect();
    if segments.len() > MAX_PATH_FIELDS {
        return Err(format!(
            "the path goes through {} fields; a path goes through at most {MAX_PATH_FIELDS}",
            segments.len()
        ));
    }
    let Some((last, parents)) = segments.split_last() else {
        return Ok(Some(std::mem::replace(target, value)));
    };
    let mut here = target;
    for segment in parents {
        here = match here {
            Value::Object(fields) => fields
                .entry(segment.to_string())
                .or_insert_with(|| json!({})),
            Value::Array(items) => {
                let index: usize = segment
                    .parse()
                    .map_err(|_| format!("{path}: `{segment}` is not an index of a list"))?;
                items
                    .get_mut(index)
                    .ok_or_else(|| format!("{path}: the list has no item {index}"))?
            }
            _ => {
                return Err(format!(
                    "{path}: `{segment}` is inside a value that is not an object or a list"
                ))
            }
        };
    }
    match here {
        Value::Object(fields) => Ok(fields.insert(last.to_string(), value)),
        Value::Array(items) => {
            let index: usize = last
                .parse()
                .map_err(|_| format!("{path}: `{last}` is not an index of a list"))?;
            let slot = items
                .get_mut(index)
                .ok_or_else(|| format!("{path}: the list has no item {index}"))?;
            Ok(Some(std::mem::replace(slot, value)))
        }
        _ => Err(format!(
            "{path}: the field is inside a value that is not an object or a list"
        )),
    }
}
