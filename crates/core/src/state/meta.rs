//! Reading an object's labels and annotations: under `metadata` for a
//! Kubernetes object, at the top level for an object of the lesson's form
//! (one without `metadata`).

use crate::value::ValueRef;
use serde_json::{Map, Value};

/// `metadata.<field>` of a Kubernetes object, or the top-level `<field>` of an
/// object of the lesson's form.
pub fn metadata_map<'a>(object: impl Into<ValueRef<'a>>, field: &str) -> Option<ValueRef<'a>> {
    let object = object.into();
    let map = match object.get("metadata") {
        Some(metadata) if metadata.is_object() => metadata.get(field),
        _ => object.get(field),
    };
    map.filter(|map| map.is_object())
}

/// The text of one annotation.
pub fn annotation<'a>(object: impl Into<ValueRef<'a>>, name: &str) -> Option<&'a str> {
    metadata_map(object, "annotations")?.get(name)?.as_str()
}

/// Sets `metadata.<field>.<name>` of a Kubernetes object (a label, an
/// annotation), making `metadata` and the map where they are missing or not maps.
pub fn set_in_metadata(object: &mut Value, field: &str, name: &str, value: Value) {
    let Some(fields) = object.as_object_mut() else {
        return;
    };
    let metadata = fields.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
    if !metadata.is_object() {
        *metadata = Value::Object(Map::new());
    }
    let Some(metadata) = metadata.as_object_mut() else {
        return;
    };
    let map = metadata.entry(field).or_insert_with(|| Value::Object(Map::new()));
    if !map.is_object() {
        *map = Value::Object(Map::new());
    }
    if let Some(map) = map.as_object_mut() {
        map.insert(name.to_string(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn annotations_of_both_forms() {
        assert_eq!(
            annotation(&json!({"metadata": {"annotations": {"a": "1"}}}), "a"),
            Some("1")
        );
        assert_eq!(
            annotation(&json!({"annotations": {"a": "1"}}), "a"),
            Some("1")
        );
        assert_eq!(
            annotation(&json!({"metadata": {}, "annotations": {"a": "1"}}), "a"),
            None,
            "a Kubernetes object's are under metadata"
        );
        assert_eq!(
            annotation(&json!({"metadata": {"annotations": {"a": 1}}}), "a"),
            None
        );
    }
}
