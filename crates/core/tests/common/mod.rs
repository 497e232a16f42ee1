//! What the core's law and property tests share: builders and generators
//! of states, objects and options (the macros that run each test natively
//! and in headless Chromium are `gitops_testing`'s).

#![allow(dead_code)]

pub mod sessions;

use gitops_core::options::Agent;
use gitops_core::{IgnoreRule, Options, State};
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// A state from a JSON value known to be valid.
pub fn state(value: Value) -> State {
    State::from_value("test", value).expect("a valid test state")
}

/// The keys of a plan, each with its verb: `["update web", "delete debug"]`.
pub fn steps(plan: &[gitops_core::Operation]) -> Vec<String> {
    plan.iter()
        .map(|operation| format!("{} {}", operation.verb(), operation.key()))
        .collect()
}

/// A HorizontalPodAutoscaler in `shop` of the Deployment `name`, between 1 and 5
/// replicas: the controller that owns its `spec.replicas`.
pub fn autoscaler_of(name: &str) -> Value {
    json!({
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": name, "namespace": "shop"},
        "spec": {"scaleTargetRef": {"kind": "Deployment", "name": name}, "minReplicas": 1, "maxReplicas": 5}
    })
}

/// A `v1` object of `kind` named `name`, in `namespace` if one is given, with these
/// annotations.
pub fn object(kind: &str, name: &str, namespace: Option<&str>, annotations: Value) -> Value {
    let mut metadata = json!({"name": name, "annotations": annotations});
    if let Some(namespace) = namespace {
        metadata["namespace"] = json!(namespace);
    }
    json!({"apiVersion": "v1", "kind": kind, "metadata": metadata})
}

/// Options that prune or not, with these ignore rules (as a scenario writes them) and
/// nothing else.
pub fn options(prune: bool, ignore: Value) -> Options {
    Options {
        prune,
        ignore: serde_json::from_value::<Vec<IgnoreRule>>(ignore).unwrap(),
        respect_ignore_differences: false,
        application: None,
        force: false,
        agent: Agent::ArgoCd,
        server_side_apply: false,
    }
}

pub mod generate {
    //! Generated states for the property tests: mostly small name and value
    //! alphabets, so that desired and actual often share keys and contents,
    //! and now and then what else Kubernetes objects hold (other names,
    //! images by registry, tag and digest, large replica counts, kinds of
    //! several API groups, containers with their env and ports, volumes:
    //! lists merged by key); some objects carry sync waves, prune protection,
    //! a hook's annotations or a status.

    use gitops_core::state::key_of;
    use gitops_core::options::Agent;
    use gitops_core::{IgnoreRule, Options, State};
    use proptest::prelude::*;
    use serde_json::{json, Map, Value};
    use std::collections::BTreeMap;

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => "(api|web|db|cache|debug|worker)(-[a-c])?",
            1 => "[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,5}){0,2}",
        ]
    }

    fn image() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => prop::sample::select(vec!["web:1.0", "web:1.1", "api@sha256:00ff", "busybox"]).prop_map(String::from),
            1 => (
                prop::sample::select(vec!["", "registry.example/", "registry.example:5000/team/", "localhost/"]),
                "[a-z][a-z0-9-]{0,10}",
                prop::option::of("[a-z0-9][a-z0-9.-]{0,8}"),
                prop::option::of("[0-9a-f]{64}"),
            )
                .prop_map(|(registry, repository, tag, digest)| {
                    let tag = tag.map_or(String::new(), |tag| format!(":{tag}"));
                    let digest = digest.map_or(String::new(), |digest| format!("@sha256:{digest}"));
                    format!("{registry}{repository}{tag}{digest}")
                }),
        ]
    }

    fn replicas() -> impl Strategy<Value = u32> {
        prop_oneof![6 => 0u32..4, 1 => 0u32..10_000]
    }

    fn fields() -> impl Strategy<Value = Value> {
        (
            image(),
            replicas(),
            prop::option::of(prop::collection::btree_map("[a-c]", "[x-z]{0,2}", 0..3)),
        )
            .prop_map(|(image, replicas, labels)| {
                let mut object = json!({"image": image, "replicas": replicas});
                if let Some(labels) = labels {
                    object["labels"] = json!(labels);
                }
                object
            })
    }

    fn annotations() -> impl Strategy<Value = Option<Value>> {
        prop::option::of(prop::sample::select(vec![
            json!({"argocd.argoproj.io/sync-options": "Prune=false"}),
            json!({"kustomize.toolkit.fluxcd.io/prune": "disabled"}),
            json!({"argocd.argoproj.io/sync-options": "PruneLast=true"}),
            json!({"argocd.argoproj.io/sync-wave": "-1"}),
            json!({"argocd.argoproj.io/sync-wave": "2"}),
            json!({"argocd.argoproj.io/hook": "PreSync"}),
            json!({"helm.sh/hook": "post-install", "helm.sh/hook-weight": "1"}),
        ]))
    }

    fn status() -> impl Strategy<Value = Option<Value>> {
        prop::option::of(prop::sample::select(vec![
            json!("ready"),
            json!({"readyReplicas": 1}),
        ]))
    }

    fn lesson_object() -> impl Strategy<Value = Value> {
        (fields(), annotations(), status()).prop_map(|(mut object, annotations, status)| {
            if let Some(annotations) = annotations {
                object["annotations"] = annotations;
            }
            if let Some(status) = status {
                object["status"] = status;
            }
            object
        })
    }

    /// States in the lesson's form.
    pub fn named_state() -> impl Strategy<Value = State> {
        prop::collection::btree_map(name(), lesson_object(), 0..12)
            .prop_map(|objects| State::from_value("generated", json!(objects)).expect("valid"))
    }

    /// A pod's containers, each with env and ports: lists merged by key
    /// (`name`, `containerPort`), each key once.
    fn containers() -> impl Strategy<Value = Value> {
        let container = (
            image(),
            prop::collection::btree_map("[A-C]{1,2}", "[x-z0-9]{0,3}", 0..3),
            prop::collection::btree_set(prop_oneof![Just(80u16), Just(8080), 1u16..10_000], 0..3),
        )
            .prop_map(|(image, env, ports)| {
                let env: Vec<Value> = env.into_iter().map(|(name, value)| json!({"name": name, "value": value})).collect();
                let ports: Vec<Value> = ports.into_iter().map(|port| json!({"containerPort": port, "protocol": "TCP"})).collect();
                json!({"image": image, "env": env, "ports": ports})
            });
        prop::collection::btree_map("(main|sidecar|init)", container, 1..3).prop_map(|containers| {
            Value::Array(
                containers
                    .into_iter()
                    .map(|(name, mut container)| {
                        container["name"] = json!(name);
                        container
                    })
                    .collect(),
            )
        })
    }

    /// What a workload's `spec` holds: the short fields, and now and then a pod
    /// template with containers and volumes.
    fn workload_spec() -> impl Strategy<Value = Value> {
        (
            fields(),
            prop::option::of((containers(), prop::collection::btree_set("(data|cache|config)", 0..3))),
        )
            .prop_map(|(mut spec, template)| {
                if let Some((containers, volumes)) = template {
                    let volumes: Vec<Value> = volumes.into_iter().map(|name| json!({"name": name, "emptyDir": {}})).collect();
                    spec["template"] = json!({"spec": {"containers": containers, "volumes": volumes}});
                }
                spec
            })
    }

    /// States as lists of Kubernetes objects of several API groups, namespaced
    /// or not.
    pub fn kubernetes_state() -> impl Strategy<Value = State> {
        let item = (
            prop::sample::select(vec![
                ("apps/v1", "Deployment"),
                ("v1", "Service"),
                ("v1", "ConfigMap"),
                ("v1", "Namespace"),
                ("apps/v1", "StatefulSet"),
                ("batch/v1", "Job"),
                ("v1", "Secret"),
                ("autoscaling/v2", "HorizontalPodAutoscaler"),
                ("networking.k8s.io/v1", "Ingress"),
            ]),
            name(),
            prop::option::of(prop::sample::select(vec!["shop", "ops"])),
            workload_spec(),
            annotations(),
            status(),
        )
            .prop_map(|((api_version, kind), name, namespace, spec, annotations, status)| {
                let mut metadata = Map::new();
                metadata.insert("name".into(), json!(name));
                if let Some(namespace) = namespace {
                    metadata.insert("namespace".into(), json!(namespace));
                }
                if let Some(annotations) = annotations {
                    metadata.insert("annotations".into(), annotations);
                }
                let mut object =
                    json!({"apiVersion": api_version, "kind": kind, "metadata": metadata, "spec": spec});
                if let Some(status) = status {
                    object["status"] = status;
                }
                object
            });
        prop::collection::vec(item, 0..12).prop_map(|items| {
            let unique: BTreeMap<String, Value> = items
                .into_iter()
                .map(|item| (key_of(&item).expect("a Kubernetes object"), item))
                .collect();
            State::from_value("generated", Value::Array(unique.into_values().collect()))
                .expect("valid")
        })
    }

    /// States of `apps/v1` Deployments whose selectors the API server will
    /// not change, some annotated to be recreated instead, in two waves.
    pub fn selecting_state() -> impl Strategy<Value = State> {
        let item = (
            name(),
            prop::sample::select(vec!["web", "web-v2"]),
            prop::sample::select(vec!["web:1.0", "web:1.1"]),
            prop::option::of(prop::sample::select(vec![
                ("argocd.argoproj.io/sync-options", "Force=true"),
                ("argocd.argoproj.io/sync-options", "Replace=true"),
                ("kustomize.toolkit.fluxcd.io/force", "enabled"),
            ])),
            prop::sample::select(vec!["0", "1"]),
        )
            .prop_map(|(name, app, image, force, wave)| {
                let mut annotations = json!({"argocd.argoproj.io/sync-wave": wave});
                if let Some((annotation, value)) = force {
                    annotations[annotation] = json!(value);
                }
                json!({"apiVersion": "apps/v1", "kind": "Deployment",
                       "metadata": {"name": name, "namespace": "shop", "annotations": annotations},
                       "spec": {"selector": {"matchLabels": {"app": app}},
                                "template": {"spec": {"containers": [{"name": "main", "image": image}]}}}})
            });
        prop::collection::btree_map(name(), item, 0..6).prop_map(|items| {
            let unique: BTreeMap<String, Value> = items
                .into_values()
                .map(|item| (item["metadata"]["name"].to_string(), item))
                .collect();
            State::from_value("generated", Value::Array(unique.into_values().collect()))
                .expect("valid")
        })
    }

    /// A pair of states in one form.
    pub fn desired_and_actual() -> impl Strategy<Value = (State, State)> {
        prop_oneof![
            (named_state(), named_state()),
            (kubernetes_state(), kubernetes_state())
        ]
    }

    /// Who wrote an ignore rule, the one name it is for, if any, and whether
    /// it names every group and kind (`*`): what the laws' own oracles read,
    /// instead of asking the rule.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Written {
        pub by: Writer,
        pub name: Option<String>,
        pub every_kind: bool,
    }

    #[derive(Debug, Clone, Copy, PartialEq)]
    pub enum Writer {
        Shorthand,
        ArgoCd,
        Flux,
    }

    /// Options with prune on or off and a few ignore rules, some for every
    /// object and some for one name.
    pub fn options() -> impl Strategy<Value = Options> {
        written_options().prop_map(|(options, _)| options)
    }

    /// `options()`, with how each of its ignore rules was written.
    pub fn written_options() -> impl Strategy<Value = (Options, Vec<Written>)> {
        // Each path as the shorthand's pointer and as Argo CD's jq path: a
        // `*` is the shorthand's, and Argo CD's rules write it `[]`.
        let path = prop::sample::select(vec![
            ("/replicas", ".replicas"),
            ("/labels/*", ".labels[]"),
            ("/spec/replicas", ".spec.replicas"),
            ("/spec/labels", ".spec.labels"),
            ("/spec/*", ".spec[]"),
            ("/image", ".image"),
        ]);
        // Who writes the rule: the shorthand (no name), Argo CD (by name, or by
        // group and kind globs) or Flux (paths and a target).
        let dialect = prop::sample::select(vec!["argo-cd-name", "argo-cd-kind", "flux"]);
        let rule =
            (path, prop::option::of((name(), dialect))).prop_map(|((pointer, jq), chosen)| {
                let written = |by, name: Option<&String>| Written { by, name: name.cloned(), every_kind: false };
                let (value, written) = match &chosen {
                    None => {
                        let rule = IgnoreRule::everywhere(pointer).expect("a valid pointer");
                        return (rule, written(Writer::Shorthand, None));
                    }
                    Some((_, "flux")) if pointer.contains('*') => {
                        (json!({"paths": ["/metadata/labels"]}), written(Writer::Flux, None))
                    }
                    Some((name, "flux")) => (
                        json!({"paths": [pointer], "target": {"name": name}}),
                        written(Writer::Flux, Some(name)),
                    ),
                    Some((_, "argo-cd-kind")) => (
                        json!({"group": "*", "kind": "*", "jqPathExpressions": [jq]}),
                        Written { every_kind: true, ..written(Writer::ArgoCd, None) },
                    ),
                    Some((name, _)) if pointer.contains('*') => (
                        json!({"name": name, "jqPathExpressions": [jq]}),
                        written(Writer::ArgoCd, Some(name)),
                    ),
                    Some((name, _)) => (
                        json!({"name": name, "jsonPointers": [pointer]}),
                        written(Writer::ArgoCd, Some(name)),
                    ),
                };
                (serde_json::from_value(value).expect("a valid rule"), written)
            });
        // With an application, only live objects carrying its tracking id are extra.
        let application = prop::option::of(Just("shop".to_string()));
        (
            any::<bool>(),
            prop::collection::vec(rule, 0..3),
            any::<bool>(),
            application,
            agent(),
            any::<bool>(),
        )
            .prop_map(|(prune, rules, respect_ignore_differences, application, agent, server_side_apply)| {
                let (ignore, written) = rules.into_iter().unzip();
                let options = Options {
                    prune,
                    ignore,
                    respect_ignore_differences,
                    application,
                    force: false,
                    agent,
                    server_side_apply,
                };
                (options, written)
            })
    }

    /// Either tool's agent.
    pub fn agent() -> impl Strategy<Value = Agent> {
        prop_oneof![Just(Agent::ArgoCd), Just(Agent::Flux)]
    }
}
