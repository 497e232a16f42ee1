//! Sessions of small edits for the property tests of a workspace's reports:
//! first states of either form, then steps that change, add or remove one
//! object in Git or in the cluster (every other object the very one it was),
//! sync, or change the options. The objects are of the kinds the plan and the
//! checklist read across objects (Namespaces, autoscalers and what they scale,
//! hooks, sync waves, prune protections, Secrets, images), with few names, so
//! that edits meet what other objects refer to.

use super::generate;
use gitops_core::diff::tracking::{tracking_id, TRACKING_ID};
use gitops_core::state::key_of;
use gitops_core::{Options, State};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Map, Value};

/// ConfigMaps both states hold alike, added to some cases: enough objects that
/// the workspace's memos remember what they found (`SMALLEST_REMEMBERED`).
const PADDING: usize = 130;

const NAMES: [&str; 6] = ["api", "web", "db", "shop", "ops", "default"];

fn name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(NAMES.to_vec())
}

fn image() -> impl Strategy<Value = Option<&'static str>> {
    prop::option::of(prop::sample::select(vec![
        "web:1.0",
        "web:latest",
        "busybox",
        "api@sha256:00ff",
    ]))
}

/// A few annotations of those the plan and the checklist read: waves, hooks,
/// prune protections (one misspelt), Flux's marks.
fn annotations() -> impl Strategy<Value = Map<String, Value>> {
    let annotation = prop::sample::select(vec![
        ("argocd.argoproj.io/sync-wave", "-1"),
        ("argocd.argoproj.io/sync-wave", "2"),
        ("argocd.argoproj.io/hook", "PreSync"),
        ("argocd.argoproj.io/hook", "Sync"),
        ("helm.sh/hook", "post-install"),
        ("argocd.argoproj.io/sync-options", "Prune=false"),
        ("argocd.argoproj.io/sync-options", "PruneLast=true"),
        ("argocd.argoproj.io/sync-options", "Prune=confirm"),
        ("argocd.argoproj.io/sync-options", "prune=false"),
        ("kustomize.toolkit.fluxcd.io/prune", "disabled"),
        ("kustomize.toolkit.fluxcd.io/reconcile", "disabled"),
        ("kustomize.toolkit.fluxcd.io/ssa", "IfNotPresent"),
    ]);
    prop::collection::vec(annotation, 0..3).prop_map(|annotations| {
        annotations
            .into_iter()
            .map(|(name, value)| (name.to_string(), json!(value)))
            .collect()
    })
}

/// What an object holds besides its identity and annotations: replicas and a
/// container's image, an autoscaler's target, a Secret's values, a database's
/// label, a status, an owner.
fn body() -> impl Strategy<Value = Value> {
    (
        prop::option::of(0u32..4),
        image(),
        prop::option::of((
            prop::sample::select(vec!["Deployment", "StatefulSet"]),
            name(),
        )),
        prop::option::of(prop::sample::select(vec!["data", "stringData"])),
        any::<bool>(),
        prop::option::of(prop::sample::select(vec![
            json!({"readyReplicas": 1}),
            json!({"phase": "Bound"}),
        ])),
        prop::sample::select(vec![false, false, false, true]),
    )
        .prop_map(
            |(replicas, image, target, values, database, status, owned)| {
                let mut body = json!({});
                if let Some(replicas) = replicas {
                    body["spec"]["replicas"] = json!(replicas);
                }
                if let Some(image) = image {
                    body["spec"]["template"] =
                        json!({"spec": {"containers": [{"name": "main", "image": image}]}});
                }
                if let Some((kind, name)) = target {
                    body["spec"]["scaleTargetRef"] =
                        json!({"apiVersion": "apps/v1", "kind": kind, "name": name});
                }
                if let Some(field) = values {
                    body[field] = json!({"password": "c2VjcmV0"});
                }
                if database {
                    body["metadata"]["labels"] = json!({"tier": "database"});
                }
                if let Some(status) = status {
                    body["status"] = status;
                }
                if owned {
                    body["metadata"]["ownerReferences"] =
                        json!([{"kind": "ReplicaSet", "name": "owner"}]);
                }
                body
            },
        )
}

/// A Kubernetes object of one of the kinds the plan and the checklist read
/// across objects (more often), or of none of them. A Namespace is one the
/// other objects are in; an autoscaler without a target of its own scales the
/// Deployment of its name.
fn kubernetes_object() -> impl Strategy<Value = Value> {
    let kind = prop::sample::select(vec![
        ("apps/v1", "Deployment"),
        ("apps/v1", "Deployment"),
        ("apps/v1", "StatefulSet"),
        ("v1", "Service"),
        ("v1", "Secret"),
        ("v1", "Namespace"),
        ("v1", "Namespace"),
        ("autoscaling/v2", "HorizontalPodAutoscaler"),
        ("autoscaling/v2", "HorizontalPodAutoscaler"),
        ("v1", "PersistentVolumeClaim"),
        ("batch/v1", "Job"),
        ("batch/v1", "Job"),
        ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
    ]);
    let namespace = prop::sample::select(vec![None, Some("shop"), Some("ops")]);
    (kind, name(), namespace, body(), annotations()).prop_map(
        |((api_version, kind), name, namespace, body, annotations)| {
            let name = match kind {
                "Namespace" if !["shop", "ops", "default"].contains(&name) => "shop",
                _ => name,
            };
            let mut object = body;
            object["apiVersion"] = json!(api_version);
            object["kind"] = json!(kind);
            object["metadata"]["name"] = json!(name);
            if let Some(namespace) = namespace {
                object["metadata"]["namespace"] = json!(namespace);
            }
            if !annotations.is_empty() {
                object["metadata"]["annotations"] = Value::Object(annotations);
            }
            if kind == "HorizontalPodAutoscaler" && object["spec"].get("scaleTargetRef").is_none() {
                object["spec"]["scaleTargetRef"] =
                    json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": name});
            }
            object
        },
    )
}

/// An object of the lesson's form: no identity but its key, the same fields
/// otherwise, an autoscaler or a Secret now and then.
fn lesson_object() -> impl Strategy<Value = Value> {
    let kind = prop::option::of(prop::sample::select(vec![
        "Secret",
        "HorizontalPodAutoscaler",
    ]));
    (kind, body(), annotations()).prop_map(|(kind, body, annotations)| {
        let mut object = body;
        if let Some(kind) = kind {
            object["kind"] = json!(kind);
        }
        if !annotations.is_empty() {
            object["annotations"] = Value::Object(annotations);
        }
        object
    })
}

/// An object of either form with the key it goes under.
fn keyed(named: bool) -> BoxedStrategy<(String, Value)> {
    match named {
        true => (name(), lesson_object())
            .prop_map(|(key, object)| (key.to_string(), object))
            .boxed(),
        false => kubernetes_object()
            .prop_filter_map("a Kubernetes object has a key", |object| {
                Some((key_of(&object)?, object))
            })
            .boxed(),
    }
}

/// An edit of one object of a state.
#[derive(Debug, Clone)]
pub enum Edit {
    /// The object at a key, its identity kept and the rest made anew.
    Change(Index, Value),
    /// An object at its key, in place of any there.
    Add(String, Value),
    /// The object at a key.
    Remove(Index),
}

/// One step of a session.
#[derive(Debug, Clone)]
pub enum Step {
    /// An edit in Git.
    Desired(Edit),
    /// An edit in the cluster.
    Actual(Edit),
    /// The cluster after the plan.
    Sync,
    Options(Options),
}

fn edit(named: bool) -> impl Strategy<Value = Edit> {
    let object = keyed(named);
    prop_oneof![
        3 => (any::<Index>(), object.clone()).prop_map(|(at, (_, object))| Edit::Change(at, object)),
        2 => object.prop_map(|(key, object)| Edit::Add(key, object)),
        2 => any::<Index>().prop_map(Edit::Remove),
    ]
}

fn step(named: bool) -> impl Strategy<Value = Step> {
    prop_oneof![
        12 => edit(named).prop_map(Step::Desired),
        2 => edit(named).prop_map(Step::Actual),
        1 => Just(Step::Sync),
        1 => options().prop_map(Step::Options),
    ]
}

/// Ignore rules of every dialect, among them Argo CD rules that select some
/// objects and not others, or none: `ignore-rule-selects-nothing` warns about
/// a rule once the last object it selected is gone.
fn ignore_rule() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!({"group": "apps", "kind": "*", "name": "api", "jsonPointers": ["/spec/replicas"]}),
        json!({"group": "apps", "kind": "*", "namespace": "ops", "jsonPointers": ["/spec/replicas"]}),
        json!({"group": "batch", "kind": "*", "jsonPointers": ["/spec/replicas"]}),
        json!({"group": "batch", "kind": "*", "jsonPointers": ["/spec/parallelism"]}),
        json!({"group": "", "kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}),
        json!({"group": "autoscaling", "kind": "*", "namespace": "shop", "jsonPointers": ["/spec/maxReplicas"]}),
        json!({"name": "db", "jsonPointers": ["/spec/replicas"]}),
        json!({"group": "*", "kind": "*", "jqPathExpressions": [".spec.replicas"]}),
        json!({"paths": ["/spec/replicas"], "target": {"name": "web"}}),
    ])
}

/// Options from the shared generator, or with the rules above.
fn options() -> impl Strategy<Value = Options> {
    let written = (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(ignore_rule(), 1..4),
        generate::agent(),
        any::<bool>(),
    )
        .prop_map(
            |(prune, respect_ignore_differences, tracked, ignore, agent, server_side_apply)| Options {
                prune,
                ignore: serde_json::from_value(Value::Array(ignore)).expect("valid rules"),
                respect_ignore_differences,
                application: tracked.then(|| "shop".to_string()),
                force: false,
                agent,
                server_side_apply,
            },
        );
    prop_oneof![generate::options(), written]
}

/// What the cluster holds of an object Git declares: nothing, a copy, the copy a
/// sync by the application `shop` leaves, or that copy drifted.
#[derive(Debug, Clone, Copy)]
enum Live {
    Absent,
    Copy,
    Tracked,
    Drifted,
}

/// A session: the form, whether to pad the states, the first desired objects and
/// what the cluster holds of each, the objects only the cluster holds (tracked
/// or not), the options and the steps.
#[derive(Debug, Clone)]
pub struct Session {
    pub named: bool,
    padded: bool,
    desired: Vec<((String, Value), Live)>,
    live: Vec<((String, Value), bool)>,
    pub options: Options,
    pub steps: Vec<Step>,
}

pub fn session() -> impl Strategy<Value = Session> {
    (any::<bool>(), prop::sample::select(vec![false, false, true])).prop_flat_map(|(named, padded)| {
        let live = prop::sample::select(vec![Live::Absent, Live::Copy, Live::Tracked, Live::Tracked, Live::Drifted]);
        // Now and then an empty cluster, where Git's objects alone are selected by
        // an ignore rule, and removing one can leave a rule selecting nothing.
        let cluster = prop_oneof![
            2 => (prop::collection::vec((keyed(named), live), 2..20), prop::collection::vec((keyed(named), any::<bool>()), 0..8)),
            1 => prop::collection::vec(keyed(named), 2..20)
                .prop_map(|desired| (desired.into_iter().map(|object| (object, Live::Absent)).collect(), Vec::new())),
        ];
        (
            cluster,
            options(),
            prop::collection::vec(step(named), 2..16),
        )
            .prop_map(move |((desired, live), options, steps)| Session { named, padded, desired, live, options, steps })
    })
}

pub fn empty(named: bool) -> State {
    State::from_value("test", if named { json!({}) } else { json!([]) }).expect("valid")
}

/// The same object with the application's tracking id, as a sync leaves it.
pub fn tracked(mut object: Value) -> Value {
    let id = tracking_id("shop", &object);
    if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        let annotations = metadata.entry("annotations").or_insert_with(|| json!({}));
        annotations[TRACKING_ID] = json!(id);
    }
    object
}

/// The first two states, with the padding in both.
pub fn first_states(session: &Session) -> (State, State) {
    let (mut desired, mut actual) = (empty(session.named), empty(session.named));
    for ((key, object), live) in &session.desired {
        desired.insert(key.clone(), object.clone());
        let live = match live {
            Live::Absent => continue,
            Live::Copy => object.clone(),
            Live::Tracked => tracked(object.clone()),
            Live::Drifted => {
                let mut drifted = tracked(object.clone());
                drifted["spec"]["replicas"] = json!(7);
                drifted
            }
        };
        actual.insert(key.clone(), live);
    }
    for ((key, object), track) in &session.live {
        actual.insert(
            key.clone(),
            if *track {
                tracked(object.clone())
            } else {
                object.clone()
            },
        );
    }
    if session.padded {
        for number in 0..PADDING {
            let name = format!("padding-{number:03}");
            let (key, object) = match session.named {
                true => (name.clone(), json!({"image": "web@sha256:00ff"})),
                false => (
                    format!("ConfigMap/shop/{name}"),
                    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "shop"}, "data": {"n": "1"}}),
                ),
            };
            desired.insert(key.clone(), object.clone());
            actual.insert(key, tracked(object));
        }
    }
    (desired, actual)
}

/// `state` with `edit` made: every other object the very one it was.
pub fn edited(state: &State, edit: &Edit, named: bool) -> State {
    let mut state = state.clone();
    let key_at = |at: &Index| {
        (!state.is_empty())
            .then(|| state.objects().keys().nth(at.index(state.len())).cloned())
            .flatten()
    };
    match edit {
        Edit::Change(at, object) => {
            let Some(key) = key_at(at) else {
                return state;
            };
            let mut object = object.clone();
            if !named {
                let before = state.get(&key).cloned().unwrap_or_default();
                object["apiVersion"] = before["apiVersion"].clone();
                object["kind"] = before["kind"].clone();
                object["metadata"]["name"] = before["metadata"]["name"].clone();
                match before["metadata"].get("namespace") {
                    Some(namespace) => object["metadata"]["namespace"] = namespace.clone(),
                    None => {
                        if let Some(metadata) = object["metadata"].as_object_mut() {
                            metadata.remove("namespace");
                        }
                    }
                }
            }
            state.insert(key.to_string(), object);
        }
        Edit::Add(key, object) => state.insert(key.clone(), object.clone()),
        Edit::Remove(at) => {
            if let Some(key) = key_at(at) {
                state.remove(&key);
            }
        }
    }
    state
}
