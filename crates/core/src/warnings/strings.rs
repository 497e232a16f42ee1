//! `value-not-a-string`: a label, an annotation or a selector's label that
//! YAML reads as a number, a boolean, a map, a list or null, where
//! Kubernetes takes only a string (`state::string_maps`). The object never
//! reaches the cluster: Argo CD's comparison fails on an annotation, the API
//! server refuses the rest.

use super::{warning, Warning, VALUE_NOT_A_STRING};
use crate::state::string_maps::non_strings;
use crate::text::json::Kind;
use crate::value::ValueRef;

pub(super) fn values_not_strings(key: &str, object: ValueRef) -> Vec<Warning> {
    non_strings(object).into_iter().map(|found| {
        let what = match found.value.kind() {
            Kind::Number => "a number",
            Kind::Bool => "a boolean",
            Kind::Object => "a map",
            Kind::Array => "a list",
            Kind::Null | Kind::String => "null",
        };
        let refused = match found.pointer.starts_with("/metadata/annotations/") {
            true => "Argo CD's comparison fails (\"expected string\"), and the API server refuses the object",
            false => "the API server refuses the object (\"cannot unmarshal\")",
        };
        warning(
            key,
            VALUE_NOT_A_STRING,
            format!("`{}` is {what} as YAML reads `{}` unquoted, where Kubernetes takes only a string: {refused}. Quote it.", found.pointer, found.go_text()),
        )
    }).collect()
}
