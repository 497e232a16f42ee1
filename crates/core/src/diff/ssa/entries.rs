//! The entries of `metadata.managedFields`: a manager, the operation it owns
//! fields by, the subresource it wrote through, and the fields.

use super::fields::{from_fields_v1, to_fields_v1, FieldSet};
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    pub fn name(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub manager: String,
    pub operation: Operation,
    /// Empty for the object itself; `scale` or `status` for a subresource.
    pub subresource: String,
    pub fields: FieldSet,
}

impl Entry {
    pub fn new(manager: &str, operation: Operation, subresource: &str, fields: FieldSet) -> Self {
        Entry {
            manager: manager.to_string(),
            operation,
            subresource: subresource.to_string(),
            fields,
        }
    }

    /// Whether this is the entry of `manager` by `operation` through `subresource`.
    pub fn is(&self, manager: &str, operation: Operation, subresource: &str) -> bool {
        self.manager == manager && self.operation == operation && self.subresource == subresource
    }
}

/// The entries `object` carries; an entry that does not read is left out.
pub fn managed_fields(object: &Value) -> Vec<Entry> {
    let Some(entries) = object.pointer("/metadata/managedFields").and_then(Value::as_array) else {
        return Vec::new();
    };
    entries.iter().filter_map(entry).collect()
}

fn entry(value: &Value) -> Option<Entry> {
    let operation = match value.get("operation")?.as_str()? {
        "Apply" => Operation::Apply,
        "Update" => Operation::Update,
        _ => return None,
    };
    Some(Entry {
        manager: value.get("manager")?.as_str()?.to_string(),
        operation,
        subresource: value.get("subresource").and_then(Value::as_str).unwrap_or_default().to_string(),
        fields: from_fields_v1(value.get("fieldsV1")?)?,
    })
}

/// `object` carrying `entries` (those with fields), in their order, as the API
/// server writes them; none at all takes the field away.
pub fn with_managed_fields(mut object: Value, entries: &[Entry]) -> Value {
    let api_version = object.get("apiVersion").cloned().unwrap_or(Value::Null);
    let written: Vec<Value> = entries
        .iter()
        .filter(|entry| !entry.fields.is_empty())
        .map(|entry| {
            let mut value = json!({
                "manager": entry.manager,
                "operation": entry.operation.name(),
                "apiVersion": api_version,
                "fieldsType": "FieldsV1",
                "fieldsV1": to_fields_v1(&entry.fields),
            });
            if !entry.subresource.is_empty() {
                value["subresource"] = Value::String(entry.subresource.clone());
            }
            value
        })
        .collect();
    if let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        if written.is_empty() {
            metadata.remove("managedFields");
        } else {
            metadata.insert("managedFields".to_string(), Value::Array(written));
        }
    }
    object
}
