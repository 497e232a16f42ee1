//! `kustomize edit set image` on a kustomization written as a JSON value
//! (kustomize/commands/edit/set/setimage.go): the `images` entry of a name
//! is replaced by one that gives it the new reference's name, tag and
//! digest; a new entry goes in name order, as kustomize sorts them. argocd-image-updater's kustomize write-back and
//! a promotion change an overlay this way: one entry, often one line.

use super::images::split;
use serde_json::{Map, Value};

/// The entry `name` of `images` set to `reference` (`repository:tag`,
/// `repository@digest` or both); the entry it replaced, if any.
pub fn set_image(kustomization: &mut Value, name: &str, reference: &str) -> Result<(), String> {
    let Value::Object(fields) = kustomization else {
        return Err("the kustomization is not a map".into());
    };
    let (new_name, tag, digest) = split(reference);
    let mut entry = Map::new();
    entry.insert("name".into(), Value::String(name.into()));
    for (field, value) in [
        ("newName", if new_name == name { "" } else { new_name }),
        ("newTag", tag),
        ("digest", digest),
    ] {
        if !value.is_empty() {
            entry.insert(field.into(), Value::String(value.into()));
        }
    }
    let images = fields
        .entry("images")
        .or_insert_with(|| Value::Array(Vec::new()));
    if images.is_null() {
        *images = Value::Array(Vec::new());
    }
    let Value::Array(images) = images else {
        return Err("`images` is not a list".into());
    };
    let named = |image: &Value| image.get("name").and_then(Value::as_str) == Some(name);
    match images.iter_mut().find(|image| named(image)) {
        Some(existing) => *existing = Value::Object(entry),
        None => {
            let after = |image: &Value| {
                image
                    .get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|other| other > name)
            };
            let at = images.iter().position(after).unwrap_or(images.len());
            images.insert(at, Value::Object(entry));
        }
    }
    Ok(())
}

/// The name of the `images` entry that sets images of `repository`: the
/// entry whose `newName` or `name` it is, else `repository` itself (the
/// name the base writes, when no entry renames it).
pub fn entry_for(kustomization: &Value, repository: &str) -> String {
    let images = kustomization.get("images").and_then(Value::as_array);
    let field =
        |image: &Value, field: &str| image.get(field).and_then(Value::as_str).map(str::to_string);
    let entries = images.into_iter().flatten();
    entries
        .clone()
        .find_map(|image| {
            (field(image, "newName").as_deref() == Some(repository))
                .then(|| field(image, "name"))
                .flatten()
        })
        .or_else(|| {
            entries
                .clone()
                .find_map(|image| field(image, "name").filter(|name| name == repository))
        })
        .unwrap_or_else(|| repository.to_string())
}
