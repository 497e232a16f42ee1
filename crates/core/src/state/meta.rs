//! Reading an object's labels and annotations: under `metadata` for a
//! Kubernetes object, at the top level for an object of the lesson's form
//! (one without `metadata`).

use crate::value::ValueRef;

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
