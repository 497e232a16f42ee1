//! A cluster: the actual objects of one environment, what its workloads
//! run, and the controllers that write to it: the API server's generation
//! counter, a kubelet stand-in that rolls workloads out and writes their
//! status, and controllers that own one field (an autoscaler).

use crate::event::Event;
use crate::registry::{short, shorten_digests, Registry};
use gitops_core::image::image_fields;
use gitops_core::state::{forms_agree, Key, State};
use gitops_core::sync::apply::deleted_with;
use gitops_core::sync::plan::Operation;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Steps a failing rollout takes before its Deployment reports
/// `ProgressDeadlineExceeded`.
pub const PROGRESS_DEADLINE: u32 = 2;

/// One image a workload runs, resolved when its pods started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Running {
    /// The reference as the object wrote it.
    pub reference: String,
    /// What it resolved to; absent when the registry has no such image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub crashes: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub malicious: bool,
}

impl Running {
    fn fails(&self) -> bool {
        self.digest.is_none() || self.crashes
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Rollout {
    started: u32,
    /// The pod template it rolled out: a change of replicas alone is a
    /// scale, not a rollout.
    template: Value,
    images: Vec<Running>,
    /// What its pods wait for (see `NEEDS`) before they can start.
    waiting_for: Option<String>,
}

/// The simulation's stand-in for an application that connects to another
/// object when it starts (a database): `gitops-playground/needs:
/// StatefulSet/shop/db`. Its pods fail until every object named is Healthy.
pub const NEEDS: &str = "gitops-playground/needs";

#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    pub environment: String,
    actual: State,
    rollouts: BTreeMap<String, Rollout>,
    restarts: BTreeSet<String>,
}

/// Whether what Git declares can be compared with a cluster's state, and
/// so synced into it: both named objects, or both Kubernetes objects (an
/// empty state goes with either). Else why not. Every part of the world
/// that syncs, and the page, asks this one question.
pub fn comparable(desired: &State, actual: &State) -> Result<(), String> {
    forms_agree(desired, "Git", actual, "the cluster")
}

impl Cluster {
    pub fn new(environment: &str, actual: State) -> Self {
        Cluster {
            environment: environment.into(),
            actual,
            rollouts: BTreeMap::new(),
            restarts: BTreeSet::new(),
        }
    }

    pub fn actual(&self) -> &State {
        &self.actual
    }

    /// What each workload runs now, by key.
    pub fn running(&self) -> BTreeMap<&str, &[Running]> {
        self.rollouts
            .iter()
            .map(|(key, rollout)| (key.as_str(), rollout.images.as_slice()))
            .collect()
    }

    /// Writes an object as the API server would: a Kubernetes object whose
    /// `spec` changed gets the next `metadata.generation`.
    pub fn write(&mut self, key: &str, mut object: Value) {
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

    /// Replaces the whole actual state (a person editing the cluster by hand).
    pub fn replace(&mut self, next: State) {
        let gone: Vec<String> = self
            .rollouts
            .keys()
            .filter(|key| next.get(key).is_none())
            .cloned()
            .collect();
        for key in gone {
            self.rollouts.remove(&key);
        }
        let keys: Vec<Key> = next.objects().keys().cloned().collect();
        self.actual = State::empty(next.form().clone());
        for key in keys {
            if let Some(object) = next.get(&key) {
                self.write(&key, object.clone());
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.rollouts.remove(key);
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
                }
                Operation::Skip { .. } => {}
            }
        }
    }

    /// Sets one field of an object (the whole object, creating it, when
    /// `path` is empty); `Err` says why it cannot.
    pub fn set_field(
        &mut self,
        key: &str,
        path: &str,
        value: Value,
    ) -> Result<Option<Value>, String> {
        if path.is_empty() {
            let old = self.actual.get(key).cloned();
            self.write(key, value);
            return Ok(old);
        }
        let mut object = self
            .actual
            .get(key)
            .cloned()
            .ok_or_else(|| format!("{key} is not in the {} cluster", self.environment))?;
        let old = set_pointer(&mut object, path, value)?;
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

    /// The kubelet stand-in: rolls out the Kubernetes workloads whose spec
    /// changed (or whose pods restart), pulling images from the registry,
    /// and writes their status. Objects of the lesson's form have no pods.
    pub fn kubelet(&mut self, registry: &Registry, step: u32) -> Vec<Event> {
        let mut events = Vec::new();
        let keys: Vec<Key> = self.actual.objects().keys().cloned().collect();
        for key in keys {
            let Some(object) = self.actual.get(&key).cloned() else {
                continue;
            };
            if !is_kubernetes(&object) {
                continue;
            }
            let images: Vec<(String, &str)> = image_fields(&object, true);
            if images.is_empty() {
                if let Some(status) = provisioned_status(&object) {
                    self.write_status(&key, status);
                }
                continue;
            }
            let template = pod_template(&object);
            let restarting = self.restarts.remove(&*key);
            let changed = self
                .rollouts
                .get(&*key)
                .is_none_or(|rollout| rollout.template != template);
            if changed || restarting {
                let running: Vec<Running> = images
                    .iter()
                    .map(|(_, reference)| resolve(registry, reference))
                    .collect();
                let why = match (self.rollouts.contains_key(&*key), changed) {
                    (false, _) => "it is new",
                    (true, true) => "its pod template changed",
                    (true, false) => "its pods restarted and pulled their images again",
                };
                events.push(rollout_event(&self.environment, &key, &running, step, why));
                self.rollouts.insert(
                    key.to_string(),
                    Rollout {
                        started: step,
                        template,
                        images: running,
                        waiting_for: None,
                    },
                );
            }
            if let Some(event) = self.wait_for_needs(&key, &object, step) {
                events.push(event);
            }
            let rollout = &self.rollouts[&*key];
            if let Some(status) = workload_status(&object, rollout, step) {
                let failing_now = status.pointer("/conditions/0/reason")
                    == Some(&json!("ProgressDeadlineExceeded"));
                let failing_before = object.pointer("/status/conditions/0/reason")
                    == Some(&json!("ProgressDeadlineExceeded"));
                if failing_now && !failing_before {
                    events.push(
                        Event::new(
                            step,
                            "kubelet",
                            format!(
                                "{key} in {} is crash-looping: no pod became available",
                                self.environment
                            ),
                        )
                        .because(format!(
                            "the rollout passed its progress deadline ({PROGRESS_DEADLINE} steps)"
                        )),
                    );
                }
                self.write_status(&key, status);
            }
        }
        events
    }

    /// Holds a workload's pods back while an object it needs is not
    /// Healthy, and starts them once it is; the event of a change, if any.
    fn wait_for_needs(&mut self, key: &str, object: &Value, step: u32) -> Option<Event> {
        let needs = gitops_core::state::meta::annotation(object, NEEDS).unwrap_or("");
        let unmet = needs
            .split(',')
            .map(str::trim)
            .filter(|need| !need.is_empty())
            .find(|need| {
                self.actual.get(need).and_then(gitops_core::health::health)
                    != Some(gitops_core::health::Health::Healthy)
            });
        let environment = self.environment.clone();
        let rollout = self.rollouts.get_mut(key)?;
        match (unmet, rollout.waiting_for.take()) {
            (Some(need), before) => {
                let event = (before.as_deref() != Some(need)).then(|| {
                    Event::new(step, "kubelet", format!("{key} in {environment} cannot start: it needs {need}, which is not Healthy yet"))
                        .because("its pods fail at start until what they connect to is up")
                });
                rollout.waiting_for = Some(need.to_string());
                event
            }
            (None, Some(need)) => {
                rollout.started = step;
                Some(
                    Event::new(
                        step,
                        "kubelet",
                        format!("{key} in {environment} starts again"),
                    )
                    .because(format!("{need} is Healthy now")),
                )
            }
            (None, None) => None,
        }
    }

    fn write_status(&mut self, key: &str, status: Value) {
        if let Some(object) = self.actual.get(key) {
            if object.get("status") != Some(&status) {
                let mut object = object.clone();
                object["status"] = status;
                self.actual.insert(key.to_string(), object);
            }
        }
    }
}

fn is_kubernetes(object: &Value) -> bool {
    object.get("kind").is_some_and(Value::is_string)
        && object.get("metadata").is_some_and(Value::is_object)
}

fn pod_template(object: &Value) -> Value {
    object
        .pointer("/spec/template")
        .or_else(|| object.get("spec"))
        .cloned()
        .unwrap_or(Value::Null)
}

fn resolve(registry: &Registry, reference: &str) -> Running {
    match registry.resolve(reference) {
        Some(image) => Running {
            reference: reference.into(),
            digest: Some(image.digest.clone()),
            crashes: image.crashes,
            malicious: image.malicious,
        },
        None => Running {
            reference: reference.into(),
            digest: None,
            crashes: false,
            malicious: false,
        },
    }
}

fn rollout_event(environment: &str, key: &str, running: &[Running], step: u32, why: &str) -> Event {
    let images: Vec<String> = running
        .iter()
        .map(|image| match &image.digest {
            Some(digest) => format!("{} ({})", shorten_digests(&image.reference), short(digest)),
            None => format!("{} (not in the registry)", image.reference),
        })
        .collect();
    let what = format!("{key} in {environment} starts {}", images.join(", "));
    Event::new(step, "kubelet", what).because(why)
}

/// The status the kubelet and controllers write for a Kubernetes workload
/// at `step` of its rollout.
fn workload_status(object: &Value, rollout: &Rollout, step: u32) -> Option<Value> {
    let generation = object
        .pointer("/metadata/generation")
        .cloned()
        .unwrap_or(json!(1));
    let replicas = object
        .pointer("/spec/replicas")
        .and_then(Value::as_u64)
        .unwrap_or(1);
    let fails = rollout.images.iter().any(Running::fails) || rollout.waiting_for.is_some();
    let elapsed = step.saturating_sub(rollout.started);
    let ready = if fails || elapsed == 0 { 0 } else { replicas };
    match object.get("kind").and_then(Value::as_str)? {
        "Deployment" => {
            let progressing = match (fails, elapsed >= PROGRESS_DEADLINE) {
                (true, true) => {
                    json!({"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"})
                }
                (true, false) | (false, false) if ready < replicas => {
                    json!({"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated"})
                }
                _ => {
                    json!({"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"})
                }
            };
            Some(json!({
                "observedGeneration": generation,
                "replicas": replicas,
                "updatedReplicas": replicas,
                "readyReplicas": ready,
                "availableReplicas": ready,
                "conditions": [progressing],
            }))
        }
        "StatefulSet" => Some(json!({
            "observedGeneration": generation,
            "replicas": replicas,
            "readyReplicas": ready,
            "currentReplicas": replicas,
            "updatedReplicas": replicas,
            "currentRevision": format!("revision-{generation}"),
            "updateRevision": format!("revision-{generation}"),
        })),
        "Job" => Some(match (fails, elapsed) {
            (true, _) if elapsed >= PROGRESS_DEADLINE => {
                json!({"failed": 1, "conditions": [{"type": "Failed", "status": "True"}]})
            }
            (false, elapsed) if elapsed > 0 => {
                json!({"succeeded": 1, "conditions": [{"type": "Complete", "status": "True"}]})
            }
            _ => json!({"active": 1}),
        }),
        "Pod" => Some(match (fails, elapsed) {
            (true, _) => {
                json!({"phase": "Running", "containerStatuses": [{"ready": false, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]})
            }
            (false, 0) => json!({"phase": "Pending"}),
            _ => json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}),
        }),
        _ => None,
    }
}

/// What other controllers write for objects without pods: the storage
/// provisioner binds a claim; an autoscaler reports that it can scale.
fn provisioned_status(object: &Value) -> Option<Value> {
    match object.get("kind").and_then(Value::as_str)? {
        "PersistentVolumeClaim" => Some(json!({"phase": "Bound"})),
        "HorizontalPodAutoscaler" => Some(json!({
            "conditions": [{"type": "AbleToScale", "status": "True", "reason": "SucceededGetScale"}]
        })),
        _ => None,
    }
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
