//! The kubelet stand-in: rolls out the Kubernetes workloads whose spec
//! changed (or whose pods restart), pulling their images from the registry,
//! waits for what an application needs, and writes their status as the
//! kubelet and the workload controllers would.

use super::{is_kubernetes, Cluster};
use crate::event::Event;
use crate::registry::{short, shorten_digests, Registry};
use gitops_core::image::{image_fields, invalid_reference};
use gitops_core::state::Key;
use serde::Serialize;
use serde_json::{json, Value};

/// Steps a failing rollout takes before its Deployment reports
/// `ProgressDeadlineExceeded`.
pub const PROGRESS_DEADLINE: u32 = 2;

/// One image a workload runs, resolved when its pods started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Running {
    /// The reference as the object wrote it.
    pub reference: String,
    /// What it resolved to; absent when the registry has no such image,
    /// or when the reference does not parse.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// Why the reference does not parse (`InvalidImageName`): the kubelet
    /// does not pull it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid: Option<&'static str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub crashes: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub malicious: bool,
}

impl Running {
    fn fails(&self) -> bool {
        self.digest.is_none() || self.crashes
    }

    /// Not in the registry: its pods never start (`ErrImagePull`).
    fn is_missing(&self) -> bool {
        self.digest.is_none() && self.invalid.is_none()
    }

    /// The kubelet's message for a reference that does not parse, as
    /// `applyDefaultImageTag` and `ParseImageName` write it.
    fn invalid_name_message(&self) -> Option<String> {
        let why = self.invalid?;
        let reference = &self.reference;
        Some(format!(
            "Failed to apply default image tag {reference:?}: couldn't parse image name {reference:?}: {why}"
        ))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Rollout {
    /// The workload's key.
    pub(super) key: String,
    pub(super) started: u32,
    /// The pod template it rolled out: a change of replicas alone is a
    /// scale, not a rollout.
    pub(super) template: Value,
    pub(super) images: Vec<Running>,
    /// What its pods wait for (see `NEEDS`) before they can start.
    pub(super) waiting_for: Option<String>,
}

/// The simulation's stand-in for an application that connects to another
/// object when it starts (a database): `gitops-playground/needs:
/// StatefulSet/shop/db`. Its pods fail until every object named is Healthy.
pub const NEEDS: &str = "gitops-playground/needs";

impl Cluster {
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
                .rollout(&key)
                .is_none_or(|rollout| rollout.template != template);
            if changed || restarting {
                let running: Vec<Running> = images
                    .iter()
                    .map(|(_, reference)| resolve(registry, reference))
                    .collect();
                let why = match (self.rollout(&key).is_some(), changed) {
                    (false, _) => "it is new",
                    (true, true) => "its pod template changed",
                    (true, false) => "its pods restarted and pulled their images again",
                };
                events.push(rollout_event(&self.environment, &key, &running, step, why));
                self.start_rollout(Rollout {
                    key: key.to_string(),
                    started: step,
                    template,
                    images: running,
                    waiting_for: None,
                });
            }
            if let Some(event) = self.wait_for_needs(&key, &object, step) {
                events.push(event);
            }
            let Some(rollout) = self.rollout(&key) else {
                continue;
            };
            if let Some(status) = workload_status(&object, rollout, step) {
                let failing_now = status.pointer("/conditions/0/reason")
                    == Some(&json!("ProgressDeadlineExceeded"));
                let failing_before = object.pointer("/status/conditions/0/reason")
                    == Some(&json!("ProgressDeadlineExceeded"));
                if failing_now && !failing_before {
                    let how = if rollout.images.iter().any(|image| image.invalid.is_some()) {
                        "waits in InvalidImageName"
                    } else if rollout.images.iter().any(Running::is_missing) {
                        "waits in ImagePullBackOff"
                    } else {
                        "is crash-looping"
                    };
                    events.push(
                        Event::new(
                            step,
                            "kubelet",
                            format!(
                                "{key} in {} {how}: no pod became available",
                                self.environment
                            ),
                        )
                        .because(format!(
                            "the rollout passed its progress deadline ({PROGRESS_DEADLINE} minutes)"
                        )),
                    );
                }
                self.write_status(&key, status);
            }
        }
        events
    }

    /// Where the rollout of `key` is in the list kept by key, or where it would go.
    fn rollout_at(&self, key: &str) -> Result<usize, usize> {
        self.rollouts
            .binary_search_by(|rollout| rollout.key.as_str().cmp(key))
    }

    pub(super) fn rollout(&self, key: &str) -> Option<&Rollout> {
        self.rollout_at(key).ok().map(|at| &self.rollouts[at])
    }

    /// Keeps a workload's new rollout in place of the one before.
    fn start_rollout(&mut self, rollout: Rollout) {
        match self.rollout_at(&rollout.key) {
            Ok(at) => self.rollouts[at] = rollout,
            Err(at) => self.rollouts.insert(at, rollout),
        }
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
        let at = self.rollout_at(key).ok()?;
        let rollout = &mut self.rollouts[at];
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
}

fn pod_template(object: &Value) -> Value {
    object
        .pointer("/spec/template")
        .or_else(|| object.get("spec"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// The image a reference names, unless it does not parse: the kubelet
/// asks the registry for nothing then.
fn resolve(registry: &Registry, reference: &str) -> Running {
    let invalid = invalid_reference(reference);
    let image = invalid.is_none().then(|| registry.resolve(reference)).flatten();
    Running {
        reference: reference.into(),
        invalid,
        crashes: image.as_ref().is_some_and(|image| image.crashes),
        malicious: image.as_ref().is_some_and(|image| image.malicious),
        digest: image.map(|image| image.digest),
    }
}

fn rollout_event(environment: &str, key: &str, running: &[Running], step: u32, why: &str) -> Event {
    let invalid: Vec<String> = running
        .iter()
        .filter_map(|image| Some(format!("{:?} ({})", image.reference, image.invalid?)))
        .collect();
    if !invalid.is_empty() {
        let what = format!(
            "{key} in {environment} cannot start: InvalidImageName, the image reference does not parse: {}",
            invalid.join(", ")
        );
        return Event::new(step, "kubelet", what)
            .because(format!("{why}; the API server stores any image reference, the kubelet reads it before it pulls"));
    }
    let missing: Vec<&str> = running
        .iter()
        .filter(|image| image.is_missing())
        .map(|image| image.reference.as_str())
        .collect();
    if !missing.is_empty() {
        let what = format!(
            "{key} in {environment} cannot pull {}: ErrImagePull, the registry has no such image",
            missing.join(", ")
        );
        return Event::new(step, "kubelet", what).because(why);
    }
    let images: Vec<String> = running
        .iter()
        .filter_map(|image| {
            let digest = image.digest.as_deref()?;
            Some(format!("{} ({})", shorten_digests(&image.reference), short(digest)))
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
    let missing = rollout.images.iter().any(Running::is_missing);
    let invalid_name = rollout.images.iter().find_map(Running::invalid_name_message);
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
        // The ReplicaSet controller's status (`calculateStatus`): no conditions
        // while its pods run; failing pods keep it short of `replicas`. The
        // DaemonSet controller's, on the world's one node.
        "ReplicaSet" => Some(counts(generation, &[("replicas", replicas), ("fullyLabeledReplicas", replicas), ("readyReplicas", ready), ("availableReplicas", ready)])),
        "DaemonSet" => {
            let running = u64::from(ready > 0);
            Some(counts(generation, &[
                ("desiredNumberScheduled", 1),
                ("currentNumberScheduled", 1),
                ("updatedNumberScheduled", 1),
                ("numberReady", running),
                ("numberAvailable", running),
                ("numberUnavailable", 1 - running),
            ]))
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
        "CronJob" => Some(empty_cron_job_status()),
        "Pod" => Some(match (fails, elapsed) {
            (true, _) if invalid_name.is_some() => {
                json!({"phase": "Pending", "containerStatuses": [{"ready": false, "state": {"waiting": {"reason": "InvalidImageName", "message": invalid_name}}}]})
            }
            (true, _) if missing => {
                let reason = if elapsed == 0 { "ErrImagePull" } else { "ImagePullBackOff" };
                json!({"phase": "Pending", "containerStatuses": [{"ready": false, "state": {"waiting": {"reason": reason}}}]})
            }
            (true, _) => {
                json!({"phase": "Running", "containerStatuses": [{"ready": false, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]})
            }
            (false, 0) => json!({"phase": "Pending"}),
            _ => json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}),
        }),
        _ => None,
    }
}

/// A controller's status of counts, at the object's `generation`.
fn counts(generation: Value, counts: &[(&str, u64)]) -> Value {
    let mut status = serde_json::Map::from_iter([("observedGeneration".to_string(), generation)]);
    for (name, count) in counts {
        status.insert(name.to_string(), Value::from(*count));
    }
    Value::Object(status)
}

/// What other controllers write for objects without pods: the storage
/// provisioner binds a claim; an autoscaler reports that it can scale.
fn provisioned_status(object: &Value) -> Option<Value> {
    match object.get("kind").and_then(Value::as_str)? {
        "CronJob" => Some(empty_cron_job_status()),
        "PersistentVolumeClaim" => Some(json!({"phase": "Bound"})),
        "HorizontalPodAutoscaler" => Some(json!({
            "conditions": [{"type": "AbleToScale", "status": "True", "reason": "SucceededGetScale"}]
        })),
        _ => None,
    }
}

/// The status a CronJob has before its first run, as the API server stores
/// it: empty. The world has no clock to run it on, so it stays so (Argo CD:
/// Healthy, not scheduled yet).
fn empty_cron_job_status() -> Value {
    json!({})
}
