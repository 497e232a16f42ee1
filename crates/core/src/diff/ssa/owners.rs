//! Who owns a field of a live object, named as a person names it (a JSON
//! pointer, `/spec/template/spec/containers/0/image`): the managers whose
//! `managedFields` hold its field path or a path below it, an item of a keyed
//! list found by its key as the API server records it.

use super::entries::{managed_fields, Entry};
use super::fields::{field, is_at_or_below, item, key_of, list_key, FieldPath};
use crate::diff::patch::Patch;
use crate::pointer::unescape;
use serde_json::Value;

/// The field path of the value at `pointer` in `object`; none where the
/// object has no value there, or a list on the way is not merged by key.
pub fn field_path_of(object: &Value, pointer: &str) -> Option<FieldPath> {
    let patch = Patch::of(object);
    let mut path = String::new();
    let mut here = object;
    let mut name = String::new();
    for step in pointer.split('/').skip(1) {
        let step = unescape(step)?;
        match here {
            Value::Object(fields) => {
                here = fields.get(&step)?;
                path = field(&path, &step);
                name = step;
            }
            Value::Array(items) => {
                let member = items.get(step.parse::<usize>().ok()?)?;
                path = item(&path, &key_of(member, list_key(&name, items, patch)?));
                here = member;
            }
            _ => return None,
        }
    }
    Some(path)
}

/// The managers that own the field at `pointer` of `object`, or a field below
/// it, each once, with the subresource it writes through
/// (`kube-controller-manager (scale)`); none for an object that records none.
pub fn owners_at(object: &Value, pointer: &str) -> Vec<String> {
    match field_path_of(object, pointer) {
        Some(path) => owners_where(object, |entry| entry.fields.iter().any(|owned| is_at_or_below(owned, &path))),
        None => Vec::new(),
    }
}

/// Every manager of `object`'s fields, each once, as `owners_at` names them.
pub fn managers(object: &Value) -> Vec<String> {
    owners_where(object, |_| true)
}

fn owners_where(object: &Value, owns: impl Fn(&Entry) -> bool) -> Vec<String> {
    let mut owners: Vec<String> = Vec::new();
    for entry in managed_fields(object).into_iter().filter(|entry| owns(entry)) {
        let owner = match entry.subresource.as_str() {
            "" => entry.manager,
            subresource => format!("{} ({subresource})", entry.manager),
        };
        if !owners.contains(&owner) {
            owners.push(owner);
        }
    }
    owners
}
