//! Mutations of a seed's value rather than its bytes: a node replaced by an
//! edge value, removed, grafted elsewhere, or a key renamed. The text stays
//! well formed, so the input reaches past the parser into the states, the
//! world and the replay of links.

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Value};
use std::sync::LazyLock;

#[derive(Debug, Clone)]
pub enum Reshape {
    Replace { node: Index, with: Index },
    Remove { node: Index },
    Graft { from: Index, to: Index },
    Rename { node: Index, key: Index },
}

pub fn reshapes(most: usize) -> impl Strategy<Value = Vec<Reshape>> {
    let index = any::<Index>;
    let reshape = prop_oneof![
        4 => (index(), index()).prop_map(|(node, with)| Reshape::Replace { node, with }),
        2 => index().prop_map(|node| Reshape::Remove { node }),
        1 => (index(), index()).prop_map(|(from, to)| Reshape::Graft { from, to }),
        2 => (index(), index()).prop_map(|(node, key)| Reshape::Rename { node, key }),
    ];
    prop::collection::vec(reshape, 1..=most)
}

#[derive(Debug, Clone)]
enum Step {
    Field(String),
    Item(usize),
}

type Path = Vec<Step>;

pub fn apply(value: &mut Value, reshapes: &[Reshape]) {
    for reshape in reshapes {
        apply_one(value, reshape);
    }
}

fn apply_one(value: &mut Value, reshape: &Reshape) {
    let nodes = paths(value);
    let pick = |index: &Index| &nodes[index.index(nodes.len())];
    match reshape {
        Reshape::Replace { node, with } => {
            let edges = &*EDGE_VALUES;
            set(value, pick(node), edges[with.index(edges.len())].clone());
        }
        Reshape::Remove { node } => remove(value, pick(node)),
        Reshape::Graft { from, to } => {
            if let Some(piece) = get(value, pick(from)).cloned() {
                set(value, pick(to), piece);
            }
        }
        Reshape::Rename { node, key } => {
            rename(value, pick(node), EDGE_KEYS[key.index(EDGE_KEYS.len())])
        }
    }
}

/// Every node's path, the root first, in document order.
fn paths(value: &Value) -> Vec<Path> {
    let mut found = Vec::new();
    let mut pending = vec![(Path::new(), value)];
    while let Some((path, node)) = pending.pop() {
        let children: Vec<(Step, &Value)> = match node {
            Value::Object(fields) => fields
                .iter()
                .map(|(k, v)| (Step::Field(k.clone()), v))
                .collect(),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (Step::Item(i), v))
                .collect(),
            _ => Vec::new(),
        };
        for (step, child) in children.into_iter().rev() {
            let mut child_path = path.clone();
            child_path.push(step);
            pending.push((child_path, child));
        }
        found.push(path);
    }
    found
}

fn get<'v>(value: &'v Value, path: &[Step]) -> Option<&'v Value> {
    path.iter().try_fold(value, |node, step| match step {
        Step::Field(name) => node.get(name.as_str()),
        Step::Item(index) => node.get(*index),
    })
}

fn get_mut<'v>(value: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |node, step| match step {
        Step::Field(name) => node.get_mut(name.as_str()),
        Step::Item(index) => node.get_mut(*index),
    })
}

/// How deep a reshaped value may get: past the parsers' caps (128), well
/// short of what the fuzzer's own recursive serializer could overflow on.
const MAX_DEPTH: usize = 300;

fn depth(value: &Value) -> usize {
    paths(value).iter().map(Vec::len).max().unwrap_or(0)
}

fn set(value: &mut Value, path: &[Step], new: Value) {
    if path.len() + depth(&new) > MAX_DEPTH {
        return;
    }
    if let Some(node) = get_mut(value, path) {
        *node = new;
    }
}

fn remove(value: &mut Value, path: &[Step]) {
    let Some((last, parent)) = path.split_last() else {
        *value = Value::Null;
        return;
    };
    match (get_mut(value, parent), last) {
        (Some(Value::Object(fields)), Step::Field(name)) => {
            fields.remove(name);
        }
        (Some(Value::Array(items)), Step::Item(index)) if *index < items.len() => {
            items.remove(*index);
        }
        _ => {}
    }
}

/// Renames the field at `path` to `key` (nothing when it is not a field).
fn rename(value: &mut Value, path: &[Step], key: &str) {
    let Some((Step::Field(name), parent)) = path.split_last() else {
        return;
    };
    if let Some(Value::Object(fields)) = get_mut(value, parent) {
        if let Some(moved) = fields.remove(name) {
            fields.insert(key.to_string(), moved);
        }
    }
}

/// Field names the playground reads, and names that are hard to read.
const EDGE_KEYS: &[&str] = &[
    "kind",
    "apiVersion",
    "metadata",
    "name",
    "namespace",
    "annotations",
    "labels",
    "spec",
    "status",
    "items",
    "replicas",
    "image",
    "containers",
    "stringData",
    "data",
    "desired",
    "actual",
    "options",
    "prune",
    "ignore",
    "jsonPointers",
    "repository",
    "files",
    "branches",
    "clusters",
    "registry",
    "controllers",
    "script",
    "steps",
    "at",
    "do",
    "exercise",
    "goals",
    "settle",
    "envs/prod/a.yaml",
    "envs/staging/a.yaml",
    "envs//a",
    "envs/prod",
    "app/a.yaml",
    "argocd.argoproj.io/sync-wave",
    "argocd.argoproj.io/sync-options",
    "kustomize.toolkit.fluxcd.io/prune",
    "gitops-playground/needs",
    "kubectl.kubernetes.io/last-applied-configuration",
    "p",
    "s",
    "i",
    "",
    "~1",
    "/",
    "*",
];

fn deep(levels: usize) -> Value {
    (0..levels).fold(json!(0), |inner, _| json!([inner]))
}

/// Values at the edges of what each field takes, and pieces of scenarios,
/// objects and sessions that are valid on their own.
static EDGE_VALUES: LazyLock<Vec<Value>> = LazyLock::new(|| {
    vec![
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1),
        json!(2),
        json!(u32::MAX),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(i64::MAX),
        json!(1e308),
        json!(-0.5),
        json!(""),
        json!("0"),
        json!("-1"),
        json!("-9223372036854775808"),
        json!("9223372036854775808"),
        json!("HEAD"),
        json!("HEAD~1"),
        json!("HEAD~18446744073709551616"),
        json!("/"),
        json!("/spec/replicas"),
        json!("/spec/template/spec/containers/*/image"),
        json!("/~2"),
        json!("/a".repeat(20_000)),
        json!("~"),
        json!("*"),
        json!("Prune=false"),
        json!("PruneLast=true"),
        json!("Prune=confirm,PruneLast=true"),
        json!("disabled"),
        json!("Deployment/shop/web"),
        json!("web"),
        json!("prod"),
        json!("staging"),
        json!("push"),
        json!("branches"),
        json!("edge"),
        json!("registry.example/web:2.0.0"),
        json!("registry.example/web@sha256:"),
        json!("@"),
        json!(":"),
        json!("a:b:c@d@e"),
        json!("StatefulSet/shop/db,Job/shop/migrate"),
        json!("\u{0}\u{e9}\u{1F600}"),
        json!("kind: [\n"),
        json!("x".repeat(10_000)),
        json!([]),
        json!({}),
        json!([[]]),
        json!({"": {}}),
        deep(120),
        deep(130),
        json!({"kind": "List", "items": []}),
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}}),
        json!({"kind": "Deployment", "metadata": {"name": "web", "namespace": "shop",
               "annotations": {"argocd.argoproj.io/sync-wave": "-3"}},
               "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "web:1"}]}}}}),
        json!({"at": 0, "do": "revert", "author": "x", "commit": "HEAD~3"}),
        json!({"at": 1, "do": "commit", "author": "a", "message": "m",
               "set": [{"file": "envs/prod/web.yaml", "path": "/spec/replicas", "value": 9}]}),
        json!({"at": 1, "do": "commit", "author": "a", "message": "m", "write": {"envs/prod/x.yaml": "kind: ["}}),
        json!({"at": 2, "do": "edit-cluster", "by": "b", "key": "web", "path": "", "value": null}),
        json!({"at": 1, "do": "merge-branch", "by": "a", "from": "staging", "to": "prod"}),
        json!({"at": 1, "do": "lose-cluster", "environment": "prod"}),
        json!({"at": 1, "do": "promote", "author": "a", "key": "Deployment/shop/web", "from": "staging", "to": "prod"}),
        json!({"at": 1, "do": "approve", "by": "b", "pullRequest": 1}),
        json!({"at": 1, "do": "merge", "by": "a", "pullRequest": 1}),
        json!({"at": 1, "do": "update-image", "by": "bot", "tag": "registry.example/web:2.0.0",
               "environment": "prod", "key": "Deployment/shop/web"}),
        json!({"kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}),
        json!("s"),
        json!("n"),
        json!({"d": "{\"web\": {}}"}),
        json!({"a": "- kind: ["}),
        json!({"r": "HEAD~1"}),
        json!({"q": [0, 4294967295u64]}),
        json!({"v": 1}),
        json!({"g": 1}),
        json!({"e": "staging"}),
        json!({"m": "push"}),
        json!({"i": "- /status"}),
        json!({"p": false}),
    ]
});
