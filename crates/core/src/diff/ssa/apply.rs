//! A server-side apply (structured-merge-diff `Updater.Apply`): the applier
//! owns exactly the fields its configuration sets; a field it owned before
//! and no longer sets is removed unless another manager owns it too; a field
//! whose value it changes that another manager owns is a conflict, which a
//! forced apply (`--force-conflicts`, `client.ForceOwnership`) takes over.

use super::entries::{managed_fields, with_managed_fields, Entry, Operation};
use super::fields::{field_set, is_at_or_below, is_item, key_of, list_key, segments, FieldPath, Segment};
use crate::diff::patch::{merged, Patch};
use crate::state::defaults::with_api_server_defaults;
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
    let config = &as_applied(config);
    let applied = field_set(config);
    let own = |entry: &Entry| entry.is(manager, Operation::Apply, "");

    let mut conflicts = Vec::new();
    for path in applied.iter().filter(|path| !is_item(path)) {
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

    let mut object = live.cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let mut removed: Vec<FieldPath> = Vec::new();
    if let Some(before) = entries.iter().find(|entry| own(entry)) {
        for path in before.fields.iter().filter(|path| !applied.contains(path)) {
            let others_own = entries.iter().any(|entry| !own(entry) && entry.fields.holds_at_or_below(path));
            let gone_above = removed.iter().any(|above| is_at_or_below(path, above));
            if !others_own && !gone_above && remove_at(&mut object, path) {
                removed.push(path.clone());
            }
        }
    }
    merge_into(&mut object, config);
    with_api_server_defaults(&mut object);

    match entries.iter_mut().find(|entry| own(entry)) {
        Some(entry) => entry.fields = applied,
        None => entries.push(Entry::new(manager, Operation::Apply, "", applied)),
    }
    Ok(Applied { object: with_managed_fields(object, &entries), taken, removed })
}

/// The value at `path` in `object`, if it has one there.
pub(super) fn value_at<'v>(object: &'v Value, path: &str) -> Option<&'v Value> {
    let patch = Patch::of(object);
    let mut node = object;
    let mut field: &str = "";
    let names: Vec<Segment> = segments(path).collect::<Option<_>>()?;
    for segment in &names {
        node = match segment {
            Segment::Field(name) => {
                field = name;
                node.get(name.as_ref())?
            }
            Segment::Key(key) => {
                let items = node.as_array()?;
                let by = list_key(field, items, patch)?;
                items.iter().find(|item| key_of(item, by) == *key)?
            }
        };
    }
    Some(node)
}

/// Removes the field or item at `path` from `object`, and any object or list
/// the removal left empty; whether there was one.
pub(super) fn remove_at(object: &mut Value, path: &str) -> bool {
    let patch = Patch::of(&*object);
    let names: Option<Vec<Segment>> = segments(path).collect();
    names.is_some_and(|names| remove_below(object, &names, "", patch))
}

fn remove_below(node: &mut Value, path: &[Segment], field: &str, patch: Patch) -> bool {
    let Some((first, rest)) = path.split_first() else {
        return false;
    };
    match (first, node) {
        (Segment::Field(name), Value::Object(fields)) if rest.is_empty() => fields.remove(name.as_ref()).is_some(),
        (Segment::Field(name), Value::Object(fields)) => {
            let Some(below) = fields.get_mut(name.as_ref()) else {
                return false;
            };
            let removed = remove_below(below, rest, name, patch);
            if removed && is_emptied(below) {
                fields.remove(name.as_ref());
            }
            removed
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
    }
}

fn is_emptied(value: &Value) -> bool {
    match value {
        Value::Object(fields) => fields.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

/// What an apply of `config` sets: a null sets nothing, as the API server
/// stores none, and `status` and `managedFields` are not the apply's.
fn as_applied(config: &Value) -> Value {
    let mut written = config.clone();
    if let Some(fields) = written.as_object_mut() {
        fields.remove("status");
        if let Some(metadata) = fields.get_mut("metadata").and_then(Value::as_object_mut) {
            metadata.remove("managedFields");
        }
    }
    drop_nulls(&mut written);
    written
}

/// `config` written over `object` as a patch without a last-applied record
/// writes it (`diff::patch::merged`).
fn merge_into(object: &mut Value, config: &Value) {
    *object = merged(config, object, None, "", Patch::of(config));
}

fn drop_nulls(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            fields.retain(|_, value| !value.is_null());
            fields.values_mut().for_each(drop_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}
