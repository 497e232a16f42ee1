//! A server-side apply (structured-merge-diff `Updater.Apply`): the applier
//! owns exactly the fields its configuration sets; a field it owned before
//! and no longer sets is removed unless another manager owns it too; a field
//! whose value it changes that another manager owns is a conflict, which a
//! forced apply (`--force-conflicts`, `client.ForceOwnership`) takes over.

use super::entries::{managed_fields, with_managed_fields, Entry, Operation};
use super::fields::{field_set, list_key, key_of, FieldPath, Segment};
use crate::diff::patch::Patch;
use serde_json::{Map, Value};

/// The manager an apply gives the fields of an object that recorded no owner.
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";

/// A field whose value an apply would change while other managers own it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub path: FieldPath,
    pub managers: Vec<String>,
}

/// A field a forced apply took from another manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub path: FieldPath,
    pub from: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The live object after the apply, its `managedFields` included.
    pub object: Value,
    pub taken: Vec<Taken>,
    /// The fields the applier owned alone and no longer sets, removed.
    pub removed: Vec<FieldPath>,
}

/// `config` applied by `manager` over `live` (none: the apply creates the
/// object), forced or not.
pub fn apply(live: Option<&Value>, config: &Value, manager: &str, force: bool) -> Result<Applied, Vec<Conflict>> {
    let mut entries = live.map(managed_fields).unwrap_or_default();
    // A live object that records no owner has its fields given to `before-first-apply`
    // by the first apply (the API server's field manager, `fieldmanager.go`).
    if let Some(live) = live.filter(|live| live.pointer("/metadata/managedFields").is_none()) {
        entries.push(Entry::new(BEFORE_FIRST_APPLY, Operation::Update, "", field_set(live)));
    }
    let applied = field_set(config);
    let own = |entry: &Entry| entry.is(manager, Operation::Apply, "");

    let mut conflicts = Vec::new();
    for path in applied.iter().filter(|path| matches!(path.last(), Some(Segment::Field(_)))) {
        let changes = live.is_some_and(|live| value_at(live, path) != value_at(config, path));
        let owners: Vec<String> = entries
            .iter()
            .filter(|entry| !own(entry) && entry.fields.contains(path))
            .map(|entry| entry.manager.clone())
            .collect();
        if changes && !owners.is_empty() {
            conflicts.push(Conflict { path: path.clone(), managers: owners });
        }
    }
    if !force && !conflicts.is_empty() {
        return Err(conflicts);
    }
    let mut taken = Vec::new();
    for conflict in conflicts {
        for entry in entries.iter_mut().filter(|entry| !own(entry)) {
            if entry.fields.remove(&conflict.path) {
                taken.push(Taken { path: conflict.path.clone(), from: entry.manager.clone() });
            }
        }
    }

    let before = entries.iter().find(|entry| own(entry)).map(|entry| entry.fields.clone()).unwrap_or_default();
    let owned_by_others = |path: &FieldPath| {
        entries
            .iter()
            .filter(|entry| !own(entry))
            .any(|entry| entry.fields.range(path.clone()..).next().is_some_and(|owned| owned.starts_with(path)))
    };
    let mut object = live.cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let mut removed = Vec::new();
    for path in before.difference(&applied) {
        if owned_by_others(path) || removed.iter().any(|above: &FieldPath| path.starts_with(above)) {
            continue;
        }
        if remove_at(&mut object, path) {
            removed.push(path.clone());
        }
    }
    merge_into(&mut object, config);

    match entries.iter_mut().find(|entry| own(entry)) {
        Some(entry) => entry.fields = applied,
        None => entries.push(Entry::new(manager, Operation::Apply, "", applied)),
    }
    Ok(Applied { object: with_managed_fields(object, &entries), taken, removed })
}

/// The value at `path` in `object`, if it has one there.
pub(super) fn value_at<'v>(object: &'v Value, path: &FieldPath) -> Option<&'v Value> {
    let mut node = object;
    let mut field = "";
    for segment in path {
        node = match segment {
            Segment::Field(name) => {
                field = name;
                node.get(name)?
            }
            Segment::Key(key) => item_at(node, field, key, Patch::of(object))?,
        };
    }
    Some(node)
}

fn item_at<'v>(list: &'v Value, field: &str, key: &str, patch: Patch) -> Option<&'v Value> {
    let items = list.as_array()?;
    let by = list_key(field, items, patch)?;
    items.iter().find(|item| key_of(item, by) == key)
}

/// Removes the field or item at `path` from `object`, and any object or list
/// the removal left empty; whether there was one.
pub(super) fn remove_at(object: &mut Value, path: &FieldPath) -> bool {
    let patch = Patch::of(&*object);
    remove_below(object, path, "", patch)
}

fn remove_below(node: &mut Value, path: &[Segment], field: &str, patch: Patch) -> bool {
    let Some((first, rest)) = path.split_first() else {
        return false;
    };
    let removed = match (first, node) {
        (Segment::Field(name), Value::Object(fields)) => {
            if rest.is_empty() {
                fields.remove(name).is_some()
            } else {
                let Some(below) = fields.get_mut(name) else {
                    return false;
                };
                let removed = remove_below(below, rest, name, patch);
                if removed && is_emptied(below) {
                    fields.remove(name);
                }
                removed
            }
        }
        (Segment::Key(key), Value::Array(items)) => {
            let Some(by) = list_key(field, items, patch) else {
                return false;
            };
            let Some(at) = items.iter().position(|item| key_of(item, by) == *key) else {
                return false;
            };
            if rest.is_empty() {
                items.remove(at);
                true
            } else {
                remove_below(&mut items[at], rest, field, patch)
            }
        }
        _ => false,
    };
    removed
}

fn is_emptied(value: &Value) -> bool {
    match value {
        Value::Object(fields) => fields.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

/// Writes `config` over `object`: objects merged field by field, lists merged
/// by key item by item (the configuration's items in its order, then the live
/// items it does not name), anything else replaced. The configuration's
/// `status` and `managedFields` are not written.
fn merge_into(object: &mut Value, config: &Value) {
    let patch = Patch::of(config);
    let (Value::Object(live), Value::Object(fields)) = (&mut *object, config) else {
        *object = config.clone();
        return;
    };
    for (name, value) in fields {
        if name == "status" {
            continue;
        }
        if name == "metadata" {
            let mut value = value.clone();
            if let Some(metadata) = value.as_object_mut() {
                metadata.remove("managedFields");
            }
            merge_field(live, name, &value, patch);
            continue;
        }
        merge_field(live, name, value, patch);
    }
}

fn merge_field(live: &mut Map<String, Value>, name: &str, value: &Value, patch: Patch) {
    match live.get_mut(name) {
        Some(current) => merge_value(current, value, name, patch),
        None => {
            live.insert(name.to_string(), value.clone());
        }
    }
}

fn merge_value(current: &mut Value, value: &Value, field: &str, patch: Patch) {
    match (&mut *current, value) {
        (Value::Object(live), Value::Object(fields)) if !fields.is_empty() => {
            for (name, value) in fields {
                merge_field(live, name, value, patch);
            }
        }
        (Value::Array(have), Value::Array(want)) => match list_key(field, want, patch) {
            Some(by) => {
                let mut merged: Vec<Value> = Vec::new();
                for item in want {
                    let key = key_of(item, by);
                    let mut result = match have.iter().find(|live| key_of(live, by) == key) {
                        Some(live) => live.clone(),
                        None => Value::Object(Map::new()),
                    };
                    merge_value(&mut result, item, field, patch);
                    merged.push(result);
                }
                let named: Vec<String> = want.iter().map(|item| key_of(item, by)).collect();
                merged.extend(have.iter().filter(|live| !named.contains(&key_of(live, by))).cloned());
                *current = Value::Array(merged);
            }
            None => *current = value.clone(),
        },
        _ => *current = value.clone(),
    }
}
