//! What makes a Kubernetes object in Git comparable with the same object as
//! the cluster returns it: fields the cluster writes itself, the record of
//! what was last applied, and Secret `stringData`.

use crate::pointer::Step;
use crate::state::namespace::in_destination;
use crate::text::json;
use crate::value::reads_as::reads_as;
use crate::value::{Kind, ValueCow, ValueRef};
use base64::Engine;
use serde_json::{Map, Value};

/// How objects of a state are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The lesson's form: every field counts, unless an ignore rule says otherwise.
    Exact,
    /// Kubernetes objects: fields the cluster writes are not drift (see `changes`).
    Kubernetes,
}

/// The annotation in which `kubectl apply` records the object it applied.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Fields the cluster writes itself: never drift, and apply never overwrites them.
pub const SERVER_WRITTEN: [&[&str]; 7] = [
    &["status"],
    &["metadata", "uid"],
    &["metadata", "resourceVersion"],
    &["metadata", "generation"],
    &["metadata", "creationTimestamp"],
    &["metadata", "managedFields"],
    &["metadata", "selfLink"],
];

/// Whether the field is the object's namespace, which its key already
/// holds (as it lands: `namespace_of`), so two objects at one key never
/// differ in it. gitops-engine's `ThreeWayDiff` takes it out of the desired
/// and the last-applied object for the same reason
/// (`removeNamespaceAnnotation`, pkg/diff/diff.go).
pub fn is_namespace(path: &[Step]) -> bool {
    path == [Step::Field("metadata"), Step::Field("namespace")]
}

/// Whether the cluster writes this field itself (`SERVER_WRITTEN`), or it is
/// the last-applied record.
pub fn is_server_written(path: &[Step]) -> bool {
    if let [Step::Field("metadata"), Step::Field("annotations"), Step::Field(LAST_APPLIED)] = path {
        return true;
    }
    SERVER_WRITTEN.iter().any(|fields| {
        fields.len() == path.len()
            && fields
                .iter()
                .zip(path)
                .all(|(field, step)| *step == Step::Field(field))
    })
}

/// The object Git last applied, from the live object's annotation.
pub fn last_applied<'a>(live: impl Into<ValueRef<'a>>) -> Option<Value> {
    read_record(&record_of(live.into())?.text()?)
}

/// The object Git last applied, as `last_applied` reads it; `declared`
/// itself, not a copy, when the record reads as that object (an apply
/// records the desired object as stored, and Git most often declares what
/// it applied last). A record known to read as `declared` without reading
/// it (`ValueRef::known_to_read_as`) is not read.
pub fn last_applied_beside<'l, 'v>(
    live: impl Into<ValueRef<'l>>,
    declared: ValueRef<'v>,
) -> Option<ValueCow<'v>> {
    let record = record_of(live.into())?;
    if record.known_to_read_as(declared) {
        return Some(ValueCow::Same(declared));
    }
    let record = record.text()?;
    if reads_as(&record, declared) {
        return Some(ValueCow::Same(declared));
    }
    read_record(&record).map(ValueCow::Changed)
}

/// The record's annotation. Its text is read afresh from a tape each time
/// (`ValueRef::text`): records are read once a comparison, and kept they
/// would take about the bytes of Git's objects again.
fn record_of(live: ValueRef<'_>) -> Option<ValueRef<'_>> {
    live.at(&["metadata", "annotations", LAST_APPLIED])
}

fn read_record(record: &str) -> Option<Value> {
    // A record with a field written twice is read as `kubectl` reads it: the last one counts.
    json::read_last_wins(record).ok()
}

/// `object` with the annotation that records it as the last applied one.
pub fn with_last_applied<'a>(mut object: Value, applied: impl Into<ValueRef<'a>>) -> Value {
    let record = format!("{}\n", serde_json::to_string(&applied.into()).unwrap_or_default());
    // Annotations that are no map (which the API server would refuse) stay as Git has them.
    if let Some(fields) = object.as_object_mut() {
        let metadata = fields
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(metadata) = metadata.as_object_mut() {
            let annotations = metadata
                .entry("annotations")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(annotations) = annotations.as_object_mut() {
                annotations.insert(LAST_APPLIED.to_string(), Value::String(record));
            }
        }
    }
    object
}

/// A desired object as the cluster would store it: in the namespace it
/// lands in (`in_destination`, as Argo CD's `NormalizeTargetObjects` writes
/// it); a Secret's `stringData` folded into `data`, base64-encoded, as the
/// API server does; and `metadata.annotations: null` (as Helm renders an
/// empty map) is no annotations at all, since an apply can never delete
/// them: kubectl's modified configuration always carries its last-applied
/// annotation (`GetModifiedConfiguration`, k8s.io/kubectl/pkg/util/apply.go),
/// and gitops-engine's diff compares typed objects, where a null map is absent.
pub fn desired_as_stored<'a>(object: impl Into<ValueRef<'a>>) -> ValueCow<'a> {
    ValueCow::Same(object.into())
        .then(without_null_annotations)
        .then(|object| in_destination(object))
        .then(with_string_data_in_data)
}

/// A Secret with its `stringData` folded into `data`, base64-encoded.
fn with_string_data_in_data(object: ValueRef<'_>) -> ValueCow<'_> {
    let is_secret = object.get("kind").and_then(ValueRef::as_str) == Some("Secret");
    if !is_secret || !object.get("stringData").is_some_and(ValueRef::is_object) {
        return ValueCow::Same(object);
    }
    let mut stored = object.to_value();
    let Some(fields) = stored.as_object_mut() else {
        return ValueCow::Same(object);
    };
    let Some(Value::Object(plain)) = fields.remove("stringData") else {
        return ValueCow::Same(object);
    };
    let mut data = match fields.get_mut("data") {
        Some(Value::Object(data)) => std::mem::take(data),
        _ => Map::new(),
    };
    for (name, value) in plain {
        let text = match value {
            Value::String(text) => text,
            other => other.to_string(),
        };
        data.insert(
            name,
            Value::String(base64::engine::general_purpose::STANDARD.encode(text)),
        );
    }
    fields.insert("data".into(), Value::Object(data));
    ValueCow::Changed(stored)
}

/// `object` without `metadata.annotations` when Git writes it as null.
fn without_null_annotations(object: ValueRef<'_>) -> ValueCow<'_> {
    let null = object
        .at(&["metadata", "annotations"])
        .is_some_and(ValueRef::is_null);
    if !null {
        return ValueCow::Same(object);
    }
    let mut stored = object.to_value();
    if let Some(metadata) = stored.get_mut("metadata").and_then(Value::as_object_mut) {
        metadata.remove("annotations");
    }
    ValueCow::Changed(stored)
}

/// A value Git may write for "nothing": null, "", [] or {}.
pub fn is_empty<'a>(value: impl Into<ValueRef<'a>>) -> bool {
    let value = value.into();
    match value.kind() {
        Kind::Null => true,
        Kind::String => value.as_str() == Some(""),
        Kind::Array | Kind::Object => value.count() == Some(0),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn folds_string_data_into_data() {
        let secret =
            json!({"kind": "Secret", "data": {"a": "eA=="}, "stringData": {"b": "hunter2"}});
        assert_eq!(
            desired_as_stored(&secret).into_owned(),
            json!({"kind": "Secret", "data": {"a": "eA==", "b": "aHVudGVyMg=="}})
        );
        let config = json!({"kind": "ConfigMap", "stringData": {"b": "x"}});
        assert!(desired_as_stored(&config).is_same());
    }

    #[test]
    fn records_and_reads_the_last_applied_object() {
        let applied = json!({"kind": "Service", "metadata": {"name": "web"}});
        let live = with_last_applied(applied.clone(), &applied);
        assert_eq!(last_applied(&live), Some(applied));
    }

    #[test]
    fn server_written_fields() {
        assert!(is_server_written(&[Step::Field("status")]));
        assert!(is_server_written(&[
            Step::Field("metadata"),
            Step::Field("resourceVersion")
        ]));
        assert!(!is_server_written(&[
            Step::Field("metadata"),
            Step::Field("labels")
        ]));
        assert!(!is_server_written(&[
            Step::Field("spec"),
            Step::Field("status")
        ]));
    }
}
