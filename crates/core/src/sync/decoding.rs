//! What the API server cannot decode into its types, create or update alike:
//! a label, an annotation or a selector's `matchLabels` whose value YAML
//! read as a number, a boolean, a map or a list (`state::string_maps`). It
//! answers `400 BadRequest`, as the apiserver's decoder words it:
//! `Deployment in version "v1" cannot be handled as a Deployment: json:
//! cannot unmarshal number into Go struct field ObjectMeta.metadata.labels
//! of type string`. A `null` decodes as an empty string and passes.

use crate::state::string_maps::non_strings;
use crate::sync::refusal::Refusal;
use serde_json::Value;

pub(crate) fn undecodable(key: &str, object: &Value) -> Option<Refusal> {
    let kind = object.get("kind")?.as_str()?;
    let first = non_strings(object.into()).into_iter().find(|found| !found.value.is_null())?;
    let api_version = object.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    let version = api_version.rsplit('/').next().unwrap_or_default();
    Some(Refusal {
        key: key.to_string(),
        message: format!(
            "{kind} in version {version:?} cannot be handled as a {kind}: json: cannot unmarshal {} into Go struct field {} of type string",
            first.json_type(),
            first.go_field
        ),
    })
}
