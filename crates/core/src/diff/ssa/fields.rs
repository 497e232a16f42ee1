//! Field paths and field sets, and their `fieldsV1` form: a tree whose keys
//! are `f:<field>`, `k:<key fields as JSON>` for an item of a list merged by
//! key, and `.` for a node that is a member itself and has members below.
//!
//! A path is written as its `fieldsV1` names, each after a `/` and escaped as
//! a JSON pointer escapes (`~0`, `~1`): `/f:spec/f:replicas`. A set keeps its
//! paths sorted, so a path comes before the paths below it.

use crate::diff::patch::Patch;
use crate::pointer::{escape, unescape};
use crate::value::ValueRef;
use serde_json::{Map, Value};
use std::borrow::Cow;

pub type FieldPath = String;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment<'a> {
    /// A field of an object.
    Field(Cow<'a, str>),
    /// The item of a list merged by key, named by its key field (compact JSON).
    Key(Cow<'a, str>),
}

/// The path of the field `name` of the object at `path`.
pub fn field(path: &str, name: &str) -> FieldPath {
    format!("{path}/{}", escape(&format!("f:{name}")))
}

/// The path of the item named `key` (`key_of`) of the list at `path`.
pub fn item(path: &str, key: &str) -> FieldPath {
    format!("{path}/{}", escape(&format!("k:{key}")))
}

/// The steps of `path`; none for a step that is not one. The `f:` and `k:` of
/// a step hold nothing an escape changes.
pub fn segments(path: &str) -> impl Iterator<Item = Option<Segment<'_>>> {
    path.split('/').skip(1).map(|step| {
        let (kind, name) = step.split_at_checked(2)?;
        let name = match name.contains('~') {
            true => Cow::Owned(unescape(name)?),
            false => Cow::Borrowed(name),
        };
        match kind {
            "f:" => Some(Segment::Field(name)),
            "k:" => Some(Segment::Key(name)),
            _ => None,
        }
    })
}

/// `path` as a person reads it: a JSON pointer to a field, an item of a keyed
/// list as its key (`/spec/template/spec/containers/[name=web]/image`).
pub fn readable(path: &str) -> String {
    let mut out = String::new();
    for step in path.split('/').skip(1) {
        out.push('/');
        match step.split_at_checked(2) {
            Some(("f:", name)) => out.push_str(name),
            Some(("k:", key)) => {
                out.push('[');
                out.extend(key.chars().filter(|c| !matches!(c, '{' | '}' | '"')).map(|c| if c == ':' { '=' } else { c }));
                out.push(']');
            }
            _ => out.push_str(step),
        }
    }
    out
}

/// Whether `path` names an item of a keyed list (rather than a field).
pub fn is_item(path: &str) -> bool {
    path.rsplit('/').next().is_some_and(|last| last.starts_with("k:"))
}

/// Whether `member` is `path` or a path below it.
pub fn is_at_or_below(member: &str, path: &str) -> bool {
    member.starts_with(path) && matches!(member.as_bytes().get(path.len()), None | Some(b'/'))
}

/// Paths, sorted and each once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSet(Vec<FieldPath>);

impl FieldSet {
    pub fn new() -> Self {
        FieldSet(Vec::new())
    }

    /// Adds `path`; whether it was not there.
    pub fn insert(&mut self, path: FieldPath) -> bool {
        match self.0.binary_search(&path) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, path);
                true
            }
        }
    }

    pub fn contains(&self, path: &str) -> bool {
        self.0.binary_search_by(|member| member.as_str().cmp(path)).is_ok()
    }

    /// Takes `path` out; whether it was there.
    pub fn remove(&mut self, path: &str) -> bool {
        match self.0.binary_search_by(|member| member.as_str().cmp(path)) {
            Ok(at) => {
                self.0.remove(at);
                true
            }
            Err(_) => false,
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &FieldPath> {
        self.0.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn retain(&mut self, keep: impl FnMut(&FieldPath) -> bool) {
        self.0.retain(keep);
    }

    /// Whether a member is `path` or below it.
    pub fn holds_at_or_below(&self, path: &str) -> bool {
        let from = self.0.partition_point(|member| member.as_str() < path);
        self.0[from..].iter().take_while(|member| member.starts_with(path)).any(|member| is_at_or_below(member, path))
    }
}

impl Extend<FieldPath> for FieldSet {
    fn extend<I: IntoIterator<Item = FieldPath>>(&mut self, paths: I) {
        for path in paths {
            self.insert(path);
        }
    }
}

impl FromIterator<FieldPath> for FieldSet {
    fn from_iter<I: IntoIterator<Item = FieldPath>>(paths: I) -> Self {
        let mut set = FieldSet::new();
        set.extend(paths);
        set
    }
}

/// The metadata fields no manager owns (`stripmeta.go`): the object's identity
/// and what the API server writes.
const STRIPPED_METADATA: [&str; 8] = [
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "managedFields",
    "selfLink",
];

/// The fields of `object` a manager owns once it sets them: every leaf (a
/// scalar but null, a list owned whole, an empty object) and every item of a list
/// merged by key, less `apiVersion`, `kind`, the stripped metadata and `status`
/// (written through the status subresource, not by an apply of the object).
pub fn field_set(object: &Value) -> FieldSet {
    let mut set = FieldSet::new();
    let patch = Patch::of(object);
    let Value::Object(fields) = object else {
        return set;
    };
    for (name, value) in fields {
        match (name.as_str(), value) {
            ("apiVersion" | "kind" | "status", _) => {}
            ("metadata", Value::Object(metadata)) => {
                let path = field("", name);
                for (name, value) in metadata.iter().filter(|(name, _)| !STRIPPED_METADATA.contains(&name.as_str())) {
                    collect(value, name, field(&path, name), patch, &mut set);
                }
            }
            _ => collect(value, name, field("", name), patch, &mut set),
        }
    }
    set
}

fn collect(value: &Value, name: &str, path: FieldPath, patch: Patch, set: &mut FieldSet) {
    match value {
        Value::Object(fields) if !fields.is_empty() => {
            for (name, value) in fields {
                collect(value, name, field(&path, name), patch, set);
            }
        }
        Value::Array(items) => match list_key(name, items, patch) {
            Some(key) => {
                for member in items {
                    let below = item(&path, &key_of(member, key));
                    for (name, value) in member.as_object().into_iter().flatten() {
                        collect(value, name, field(&below, name), patch, set);
                    }
                    set.insert(below);
                }
            }
            None => {
                set.insert(path);
            }
        },
        // A null sets nothing.
        Value::Null => {}
        _ => {
            set.insert(path);
        }
    }
}

/// The field the items of the list at `field` merge by, if they merge by one.
pub(super) fn list_key(field: &str, items: &[Value], patch: Patch) -> Option<&'static str> {
    let all: Vec<ValueRef> = items.iter().map(ValueRef::from).collect();
    patch.merge_key(field, &all)
}

/// An item's name in a field path: its key field as compact JSON (`{"name":"web"}`);
/// a merge key is a string or a number (`merge_key`).
pub(super) fn key_of(item: &Value, key: &str) -> String {
    let value = match item.get(key) {
        Some(Value::String(text)) => serde_json::to_string(text).unwrap_or_default(),
        Some(Value::Number(number)) => number.to_string(),
        _ => "null".to_string(),
    };
    format!("{{\"{key}\":{value}}}")
}

/// A field set in the API server's `fieldsV1` form.
pub fn to_fields_v1(set: &FieldSet) -> Value {
    let mut root = Map::new();
    for path in set.iter() {
        node_at(&mut root, path);
    }
    // A member with members below is marked `.` beside them.
    for path in set.iter() {
        if let Some(node) = node_at(&mut root, path).filter(|node| !node.is_empty()) {
            node.insert(".".to_string(), Value::Object(Map::new()));
        }
    }
    Value::Object(root)
}

/// The node of `path` in `tree`, made if missing.
fn node_at<'t>(tree: &'t mut Map<String, Value>, path: &str) -> Option<&'t mut Map<String, Value>> {
    let mut node = tree;
    for step in path.split('/').skip(1) {
        let below = node.entry(unescape(step)?).or_insert_with(|| Value::Object(Map::new()));
        node = below.as_object_mut()?;
    }
    Some(node)
}

/// A field set read from `fieldsV1`; none where the tree is not one.
pub fn from_fields_v1(tree: &Value) -> Option<FieldSet> {
    let mut set = FieldSet::new();
    read_tree(tree, "", &mut set)?;
    Some(set)
}

fn read_tree(tree: &Value, path: &str, set: &mut FieldSet) -> Option<()> {
    let node = tree.as_object()?;
    if (node.is_empty() || node.contains_key(".")) && !path.is_empty() {
        set.insert(path.to_string());
    }
    for (name, below) in node.iter().filter(|(name, _)| *name != ".") {
        if !matches!(name.get(..2), Some("f:" | "k:")) {
            return None;
        }
        read_tree(below, &format!("{path}/{}", escape(name)), set)?;
    }
    Some(())
}
