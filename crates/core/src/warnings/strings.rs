//! `value-not-a-string`: a label, an annotation or a selector's label that
//! YAML reads as a number, a boolean, a map, a list or null, where
//! Kubernetes takes only a string (`state::string_maps`). The object never
//! reaches the cluster: Argo CD's comparison fails on an annotation, the API
//! server refuses the rest.

use super::{warning, Warning, VALUE_NOT_A_STRING};
use crate::state::string_maps::non_strings;
use crate::value::ValueRef;

pub(super) fn values_not_strings(key: &str, object: ValueRef) -> Vec<Warning> {
    let warn = |found: &crate::state::string_maps::NonString| {
        let message = format!(
            "`{}` is YAML's {} `{}`, where Kubernetes takes only a string: the object is refused. Quote it.",
            found.pointer(),
            found.json_type(),
            found.value.to_value()
        );
        warning(key, VALUE_NOT_A_STRING, message)
    };
    non_strings(object).iter().map(warn).collect()
}
