//! The fields of an object whose values Kubernetes types as strings
//! (`map[string]string` in its Go types): labels, annotations, a selector's
//! `matchLabels`. YAML writes `-1`, `true` or `1.10` unquoted as a number or
//! a boolean, and the value travels so until something typed reads it: Argo
//! CD's repo server, as it stamps its tracking annotation (apimachinery
//! `NestedStringMap`), and the API server, as it decodes the object. Both
//! refuse it; `non_strings` finds such values, in the order a decoder meets
//! them, for the refusals and the checklist's warning.

use crate::pointer::escape;
use crate::text::json::Kind;
use crate::value::ValueRef;

/// A value of a string map that is not a string.
pub struct NonString<'a> {
    /// Where the map is, as Go's JSON decoder names its field:
    /// `ObjectMeta.metadata.labels`.
    pub go_field: &'static str,
    /// The map's JSON pointer, with its last slash: `/metadata/labels/`.
    place: &'static str,
    pub name: &'a str,
    pub value: ValueRef<'a>,
}

/// Each map: its fields in the object, its JSON pointer and its Go field.
const STRING_MAPS: [(&[&str], &str, &str); 5] = [
    (&["metadata", "labels"], "/metadata/labels/", "ObjectMeta.metadata.labels"),
    (&["metadata", "annotations"], "/metadata/annotations/", "ObjectMeta.metadata.annotations"),
    (&["spec", "selector", "matchLabels"], "/spec/selector/matchLabels/", "LabelSelector.spec.selector.matchLabels"),
    (&["spec", "template", "metadata", "labels"], "/spec/template/metadata/labels/", "ObjectMeta.spec.template.metadata.labels"),
    (&["spec", "template", "metadata", "annotations"], "/spec/template/metadata/annotations/", "ObjectMeta.spec.template.metadata.annotations"),
];

/// Every value of the object's string maps that is not a string (`null`
/// included: apimachinery's accessor refuses it too).
pub fn non_strings(object: ValueRef<'_>) -> Vec<NonString<'_>> {
    let mut found = Vec::new();
    for (fields, place, go_field) in STRING_MAPS {
        for (name, value) in object.at(fields).map(ValueRef::fields).into_iter().flatten() {
            if value.kind() != Kind::String {
                found.push(NonString { go_field, place, name, value });
            }
        }
    }
    found
}

impl NonString<'_> {
    /// The value's JSON pointer: `/metadata/labels/version`.
    pub fn pointer(&self) -> String {
        format!("{}{}", self.place, escape(self.name))
    }

    /// The value as Go's encoding/json names its JSON type in an
    /// `UnmarshalTypeError`: `number`, `bool`, `object`, `array`.
    pub fn json_type(&self) -> &'static str {
        match self.value.kind() {
            Kind::Number => "number",
            Kind::Bool => "bool",
            Kind::Object => "object",
            Kind::Array => "array",
            Kind::Null | Kind::String => "null",
        }
    }

    /// The value's Go type in an unstructured object (`%T`): `int64`,
    /// `float64`, `bool`, ... as apimachinery's accessor error says.
    pub fn go_type(&self) -> &'static str {
        match self.value.kind() {
            Kind::Number if self.value.as_number().is_some_and(|number| number.is_f64()) => "float64",
            Kind::Number => "int64",
            Kind::Bool => "bool",
            Kind::Object => "map[string]interface {}",
            Kind::Array => "[]interface {}",
            Kind::Null | Kind::String => "<nil>",
        }
    }

    /// The value as Go's `%v` writes it (a number or a boolean as JSON does).
    pub fn go_text(&self) -> String {
        match self.value.kind() {
            Kind::Null => "<nil>".into(),
            _ => self.value.to_value().to_string(),
        }
    }
}
