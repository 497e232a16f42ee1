//! Patches (plugin/builtin/patchtransformer): a file or inline text that
//! is either strategic-merge patches (objects) or a JSON 6902 patch (a
//! list of operations). A strategic-merge patch without a `target`
//! patches the object of its own kind, name and namespace; with one, every
//! object the target selects. It merges as kustomize merges one
//! (kyaml/yaml/merge2, the patch's list items first): maps field by
//! field, null deletes, `$patch: delete` and `$patch: replace`, and the
//! lists of Kubernetes' own kinds that its API merges by key (containers,
//! env, ports, volumes, ...) merged by key; any other list, and every list
//! of a custom resource, is replaced, as a JSON merge patch replaces it.
//! The object keeps its name, kind and namespace unless the patch's
//! options allow a change. A JSON 6902 patch needs a target.

use super::kustomization::{flag, text};
use super::select::Selector;
use super::{resolve, Level, Resource};
use gitops_core::diff::patch::merge_key;
use gitops_core::error::InputError;
use gitops_core::text::document;
use gitops_core::value::ValueRef;
use json_patch::jsonptr::PointerBuf;
use json_patch::PatchOperation;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The most values a JSON patch's `copy` operations may grow an object to.
const MAX_VALUES: usize = 200_000;

/// Applies one patch entry, at pointer `at` of the kustomization.
pub fn apply(
    level: &Level,
    at: &str,
    patch: &Value,
    resources: &mut Vec<Resource>,
    read: &mut BTreeSet<String>,
) -> Result<(), InputError> {
    let refuse = |why: String| InputError::shape(level.file, at, why);
    let documents = documents(level, at, patch, read)?;
    let target = patch.get("target").map(Selector::of);
    match documents.as_slice() {
        [Value::Array(_)] => {
            let Some(target) = &target else {
                return Err(refuse("must specify a target for a JSON patch".into()));
            };
            let operations = operations(&documents[0]).map_err(refuse)?;
            for resource in resources.iter_mut() {
                if target.selects(resource).map_err(refuse)? {
                    json_6902(resource, &operations).map_err(refuse)?;
                }
            }
            Ok(())
        }
        patches if patches.iter().all(Value::is_object) && !patches.is_empty() => {
            let options = patch.get("options").unwrap_or(&Value::Null);
            let options = (flag(options, "allowNameChange"), flag(options, "allowKindChange"));
            match &target {
                Some(target) => {
                    let [one] = patches else {
                        return Err(refuse(
                            "several strategic-merge patches in one `patches` entry may not have a `target`".into(),
                        ));
                    };
                    let mut selected = Vec::new();
                    for (index, resource) in resources.iter().enumerate() {
                        if target.selects(resource).map_err(refuse)? {
                            selected.push(index);
                        }
                    }
                    for index in selected.into_iter().rev() {
                        let mut targeted = one.clone();
                        targeted["apiVersion"] = resources[index].object["apiVersion"].clone();
                        strategic_merge(resources, index, &targeted, options).map_err(refuse)?;
                    }
                    Ok(())
                }
                None => {
                    for one in patches {
                        let index = patched(resources, one).map_err(refuse)?;
                        strategic_merge(resources, index, one, options).map_err(refuse)?;
                    }
                    Ok(())
                }
            }
        }
        _ => Err(refuse(
            "unable to parse a strategic-merge patch (objects) or a JSON 6902 patch (a list of operations)".into(),
        )),
    }
}

/// The documents of a patch entry: its file's, or its inline text's.
fn documents(
    level: &Level,
    at: &str,
    patch: &Value,
    read: &mut BTreeSet<String>,
) -> Result<Vec<Value>, InputError> {
    let refuse = |why: String| InputError::shape(level.file, at, why);
    let (path, inline) = (text(patch, "path"), text(patch, "patch").trim());
    match (path.is_empty(), inline.is_empty()) {
        (true, true) => Err(refuse("must specify one of patch and path".into())),
        (false, false) => Err(refuse(
            "patch and path can't be set at the same time".into(),
        )),
        (false, true) => {
            let file = resolve(level.directory, path).map_err(refuse)?;
            let Some(content) = level.files.get(&file) else {
                return Err(refuse(format!(
                    "failed to get the patch file from path({path}): there is no file {file}"
                )));
            };
            read.insert(file.clone());
            match content {
                Value::String(text) => document::parse_documents(&file, text),
                value => Ok(vec![value.clone()]),
            }
        }
        (true, false) => document::parse_documents(level.file, inline).map_err(|error| {
            let place = match (error.line, error.column) {
                (Some(line), Some(column)) => {
                    format!(" (line {line}, column {column} of the patch)")
                }
                _ => String::new(),
            };
            InputError::shape(
                level.file,
                format!("{at}/patch"),
                format!("{}{place}", error.message),
            )
        }),
    }
}

/// The object a patch without a target patches: its kind, group and
/// version, its name (as it is now, or as its file wrote it) and its
/// namespace (none is `default`).
fn patched(resources: &[Resource], patch: &Value) -> Result<usize, String> {
    let id = Resource::new(patch.clone());
    let namespace = |resource: &Resource| match resource.namespace() {
        "" => "default".to_string(),
        other => other.to_string(),
    };
    let matching: Vec<usize> = resources
        .iter()
        .enumerate()
        .filter(|(_, resource)| {
            resource.kind() == id.kind()
                && resource.group_version() == id.group_version()
                && (resource.name() == id.name() || resource.original_name == id.name())
                && namespace(resource) == namespace(&id)
        })
        .map(|(index, _)| index)
        .collect();
    match matching.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "no resource matches strategic merge patch {} {}{}",
            id.kind(),
            id.name(),
            match id.namespace() {
                "" => String::new(),
                namespace => format!(" in namespace {namespace}"),
            }
        )),
        _ => Err(format!(
            "several resources match strategic merge patch {} {}",
            id.kind(),
            id.name()
        )),
    }
}

/// Merges `patch` into the resource at `index` (resource.go `ApplySmPatch`):
/// its name and kind stay unless allowed to change, its namespace stays,
/// and a patch that deletes it removes it.
fn strategic_merge(
    resources: &mut Vec<Resource>,
    index: usize,
    patch: &Value,
    (allow_name_change, allow_kind_change): (bool, bool),
) -> Result<(), String> {
    let resource = &resources[index];
    let keyed = resource.is_built_in();
    let (name, kind) = (resource.name().to_string(), resource.kind().to_string());
    let namespace = resource.object.pointer("/metadata/namespace").cloned();
    let Some(merged) = merge(Some(&resource.object), patch, keyed, "")? else {
        resources.remove(index);
        return Ok(());
    };
    let resource = &mut resources[index];
    resource.object = merged;
    if !allow_kind_change {
        resource.object["kind"] = Value::String(kind);
    }
    if let Some(metadata) = resource.metadata_mut() {
        if !allow_name_change {
            metadata.insert("name".into(), Value::String(name));
        }
        match namespace {
            Some(namespace) => metadata.insert("namespace".into(), namespace),
            None => metadata.shift_remove("namespace"),
        };
    }
    Ok(())
}

/// `patch` merged into `dest`; `None` clears the value.
fn merge(
    dest: Option<&Value>,
    patch: &Value,
    keyed: bool,
    field: &str,
) -> Result<Option<Value>, String> {
    let dest = dest.filter(|value| !value.is_null());
    let shape = |value: &Value| match value {
        Value::Object(_) => "a map",
        Value::Array(_) => "a list",
        _ => "a value",
    };
    if let Some(dest) = dest.filter(|dest| !patch.is_null() && shape(dest) != shape(patch)) {
        return Err(format!(
            "`{field}` is {} in the object and {} in the patch",
            shape(dest),
            shape(patch)
        ));
    }
    match patch {
        Value::Null => Ok(None),
        Value::Object(fields) => merge_map(dest.and_then(Value::as_object), fields, keyed),
        Value::Array(items) => {
            merge_list(dest.and_then(Value::as_array), items, keyed, field).map(Some)
        }
        value => Ok(Some(value.clone())),
    }
}

fn merge_map(
    dest: Option<&Map<String, Value>>,
    patch: &Map<String, Value>,
    keyed: bool,
) -> Result<Option<Value>, String> {
    let mut result = match patch.get("$patch").map(|directive| directive.as_str()) {
        None | Some(Some("merge")) => dest.cloned().unwrap_or_default(),
        Some(Some("delete")) => return Ok(None),
        Some(Some("replace")) => Map::new(),
        Some(directive) => {
            return Err(format!(
                "`$patch: {}` is not a directive kustomize knows (merge, replace, delete)",
                directive.unwrap_or("?")
            ))
        }
    };
    for (name, value) in patch.iter().filter(|(name, _)| *name != "$patch") {
        if name.starts_with('$') {
            return Err(format!(
                "the directive `{name}` is not modelled in the playground"
            ));
        }
        match merge(result.get(name), value, keyed, name)? {
            Some(merged) => result.insert(name.clone(), merged),
            None => result.shift_remove(name),
        };
    }
    Ok(Some(Value::Object(result)))
}

/// A list merged by key (the patch's items first, then the others), or
/// replaced by the patch's.
fn merge_list(
    dest: Option<&Vec<Value>>,
    patch: &[Value],
    keyed: bool,
    field: &str,
) -> Result<Value, String> {
    let all: Vec<&Value> = patch.iter().chain(dest.into_iter().flatten()).collect();
    let items: Vec<ValueRef> = all.iter().map(ValueRef::from).collect();
    let Some(key) = keyed.then(|| merge_key(field, &items)).flatten() else {
        return Ok(Value::Array(patch.to_vec()));
    };
    let mut keys: Vec<&Value> = Vec::new();
    for item in &all {
        if let Some(id) = item.get(key).filter(|id| !keys.contains(id)) {
            keys.push(id);
        }
    }
    let find =
        |items: &[Value], id: &Value| items.iter().find(|item| item.get(key) == Some(id)).cloned();
    let mut merged = Vec::new();
    for id in keys {
        let existing = dest.and_then(|dest| find(dest, id));
        let item = match find(patch, id) {
            Some(patched) => merge(existing.as_ref(), &patched, keyed, "")?,
            None => existing,
        };
        merged.extend(item);
    }
    Ok(Value::Array(merged))
}

/// The operations of a JSON 6902 patch, read as kustomize's JSON patch
/// library reads them (fields it does not know are ignored).
fn operations(patch: &Value) -> Result<Vec<PatchOperation>, String> {
    use json_patch::{
        AddOperation, CopyOperation, MoveOperation, RemoveOperation, ReplaceOperation,
        TestOperation,
    };
    let mut operations = Vec::new();
    for (index, item) in patch.as_array().into_iter().flatten().enumerate() {
        let field = |name: &str| {
            item.get(name)
                .ok_or_else(|| format!("operation {index} of the JSON patch has no `{name}`"))
        };
        let pointer = |name: &str| {
            let text = field(name)?
                .as_str()
                .ok_or_else(|| format!("the `{name}` of operation {index} is not a string"))?;
            PointerBuf::parse(text).map_err(|_| {
                format!("the `{name}` of operation {index}, `{text}`, is not a JSON pointer")
            })
        };
        let value = || field("value").cloned();
        operations.push(match field("op")?.as_str().unwrap_or("") {
            "add" => PatchOperation::Add(AddOperation { path: pointer("path")?, value: value()? }),
            "remove" => PatchOperation::Remove(RemoveOperation { path: pointer("path")? }),
            "replace" => PatchOperation::Replace(ReplaceOperation { path: pointer("path")?, value: value()? }),
            "move" => PatchOperation::Move(MoveOperation { from: pointer("from")?, path: pointer("path")? }),
            "copy" => PatchOperation::Copy(CopyOperation { from: pointer("from")?, path: pointer("path")? }),
            "test" => PatchOperation::Test(TestOperation { path: pointer("path")?, value: value()? }),
            other => {
                return Err(format!(
                    "operation {index} of the JSON patch is `{other}`, not add, remove, replace, move, copy or test"
                ))
            }
        });
    }
    Ok(operations)
}

/// A JSON 6902 patch applied to one resource, operation by operation, so
/// that `copy` cannot grow it past what the playground builds.
fn json_6902(resource: &mut Resource, operations: &[PatchOperation]) -> Result<(), String> {
    let (kind, name) = (resource.kind().to_string(), resource.name().to_string());
    for (index, operation) in operations.iter().enumerate() {
        json_patch::patch(&mut resource.object, std::slice::from_ref(operation)).map_err(
            |error| {
                format!(
                    "the JSON patch's operation {index} fails on {kind} {name} at {}: {}",
                    error.path, error.kind
                )
            },
        )?;
        if matches!(operation, PatchOperation::Copy(_))
            && size(&resource.object, MAX_VALUES) >= MAX_VALUES
        {
            return Err(format!(
                "the JSON patch grows {kind} {name} past {MAX_VALUES} values"
            ));
        }
    }
    if !resource.object.is_object() {
        return Err(format!("the JSON patch leaves {kind} {name} no object"));
    }
    Ok(())
}

/// How many values `value` holds, counted up to `cap`.
fn size(value: &Value, cap: usize) -> usize {
    let mut count = 0;
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        count += 1;
        if count >= cap {
            break;
        }
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(fields) => pending.extend(fields.values()),
            _ => {}
        }
    }
    count
}
