//! Field paths and field sets, and their `fieldsV1` form: a tree whose keys
//! are `f:<field>`, `k:<key fields as JSON>` for an item of a list merged by
//! key, and `.` for a node that is a member itself and has members below.

use crate::diff::patch::Patch;
use crate::value::ValueRef;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Segment {
    /// A field of an object.
    Field(String),
    /// The item of a list merged by key, named by its key fields (compact JSON).
    Key(String),
}

pub type FieldPath = Vec<Segment>;
pub type FieldSet = BTreeSet<FieldPath>;

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
/// scalar, a list owned whole, an empty object) and every item of a list
/// merged by key, less `apiVersion`, `kind`, the stripped metadata and `status`
/// (written through the status subresource, not by an apply of the object).
pub fn field_set(object: &Value) -> FieldSet {
    let mut set = FieldSet::new();
    let patch = Patch::of(object);
    if let Value::Object(fields) = object {
        for (name, value) in fields {
            if matches!(name.as_str(), "apiVersion" | "kind" | "status") {
                continue;
            }
            let path = vec![Segment::Field(name.clone())];
            if name == "metadata" {
                if let Value::Object(metadata) = value {
                    for (field, value) in metadata {
                        if !STRIPPED_METADATA.contains(&field.as_str()) {
                            let path = vec![Segment::Field(name.clone()), Segment::Field(field.clone())];
                            collect(value, field, path, patch, &mut set);
                        }
                    }
                }
                continue;
            }
            collect(value, name, path, patch, &mut set);
        }
    }
    set
}

fn collect(value: &Value, field: &str, path: FieldPath, patch: Patch, set: &mut FieldSet) {
    match value {
        Value::Object(fields) if !fields.is_empty() => {
            for (name, value) in fields {
                let mut below = path.clone();
                below.push(Segment::Field(name.clone()));
                collect(value, name, below, patch, set);
            }
        }
        Value::Array(items) => match list_key(field, items, patch) {
            Some(key) => {
                for item in items {
                    let mut below = path.clone();
                    below.push(Segment::Key(key_of(item, key)));
                    if let Value::Object(fields) = item {
                        for (name, value) in fields {
                            let mut inner = below.clone();
                            inner.push(Segment::Field(name.clone()));
                            collect(value, name, inner, patch, set);
                        }
                    }
                    set.insert(below);
                }
            }
            None => {
                set.insert(path);
            }
        },
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

/// An item's name in a field path: its key field as compact JSON (`{"name":"web"}`).
pub(super) fn key_of(item: &Value, key: &str) -> String {
    let mut fields = Map::new();
    fields.insert(key.to_string(), item.get(key).cloned().unwrap_or(Value::Null));
    Value::Object(fields).to_string()
}

/// A field set in the API server's `fieldsV1` form.
pub fn to_fields_v1(set: &FieldSet) -> Value {
    Value::Object(tree_below(set, &Vec::new()))
}

/// The tree of the members of `set` below `prefix`.
fn tree_below(set: &FieldSet, prefix: &FieldPath) -> Map<String, Value> {
    let mut children: Vec<&Segment> = set
        .range(prefix.clone()..)
        .take_while(|path| path.starts_with(prefix))
        .filter_map(|path| path.get(prefix.len()))
        .collect();
    children.dedup();
    let mut tree = Map::new();
    for child in children {
        let mut path = prefix.clone();
        path.push(child.clone());
        let mut below = tree_below(set, &path);
        if set.contains(&path) && !below.is_empty() {
            below.insert(".".to_string(), Value::Object(Map::new()));
        }
        let name = match child {
            Segment::Field(field) => format!("f:{field}"),
            Segment::Key(key) => format!("k:{key}"),
        };
        tree.insert(name, Value::Object(below));
    }
    tree
}

/// A field set read from `fieldsV1`; none where the tree is not one.
pub fn from_fields_v1(tree: &Value) -> Option<FieldSet> {
    let mut set = FieldSet::new();
    read_tree(tree, &mut Vec::new(), &mut set)?;
    Some(set)
}

fn read_tree(tree: &Value, path: &mut FieldPath, set: &mut FieldSet) -> Option<()> {
    let node = tree.as_object()?;
    if (node.is_empty() || node.contains_key(".")) && !path.is_empty() {
        set.insert(path.clone());
    }
    for (name, below) in node {
        if name == "." {
            continue;
        }
        let segment = match name.split_once(':')? {
            ("f", field) => Segment::Field(field.to_string()),
            ("k", key) => Segment::Key(key.to_string()),
            _ => return None,
        };
        path.push(segment);
        read_tree(below, path, set)?;
        path.pop();
    }
    Some(())
}
