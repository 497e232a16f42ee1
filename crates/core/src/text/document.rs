//! Reading a document written in JSON or YAML. Text that starts like JSON
//! (`{` or `[` after spaces) is read as JSON, for JSON's exact messages; if it
//! is not JSON but is YAML (a flow mapping such as `{a: 1}`, a trailing
//! comma), it is read as YAML, and if it is neither the error is JSON's. So
//! kubectl reads a manifest: apimachinery's `NewYAMLOrJSONDecoder`
//! (pkg/util/yaml/decoder.go) sniffs for `{` and, since Kubernetes 1.33
//! ("Better handling of YAML that tastes like JSON"), reads a first object
//! that is not JSON as YAML, returning JSON's error when YAML fails too.
//! A byte order mark is no space, so text after one is read as YAML, as
//! there.

use crate::error::InputError;
use crate::text::{json, yaml};
use serde_json::Value;

/// Every document of the text: one for JSON, one or more for a YAML stream.
pub fn parse_documents(source: &str, text: &str) -> Result<Vec<Value>, InputError> {
    json::check_size(source, text)?;
    if !looks_like_json(text) {
        return yaml::parse_documents(source, text);
    }
    match json::parse(source, text) {
        Ok(value) => Ok(vec![value]),
        Err(json_error) => yaml::parse_documents(source, text).map_err(|_| json_error),
    }
}

/// The one document of the text.
pub fn parse_one(source: &str, text: &str) -> Result<Value, InputError> {
    let mut documents = parse_documents(source, text)?;
    match documents.len() {
        1 => Ok(documents.remove(0)),
        0 => Err(InputError::syntax(source, 1, 1, "the document is empty")),
        count => Err(InputError::shape(
            source,
            "",
            format!("expected one document, found {count} separated by `---`"),
        )),
    }
}

/// Whether a text is JSON's to read first (the rest is YAML's): it starts,
/// after any space, with `{` or `[`.
pub fn looks_like_json(text: &str) -> bool {
    matches!(text.trim_start().chars().next(), Some('{' | '['))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_and_yaml_read_the_same() {
        let from_json = parse_one("d", r#"{"web": {"replicas": 3, "image": "web:1"}}"#).unwrap();
        let from_yaml = parse_one("d", "web:\n  replicas: 3\n  image: web:1\n").unwrap();
        assert_eq!(from_json, from_yaml);
    }

    #[test]
    fn a_yaml_flow_mapping_is_not_a_json_error() {
        assert_eq!(
            parse_one("d", "{web: {replicas: 3}}").unwrap(),
            json!({"web": {"replicas": 3}})
        );
    }

    #[test]
    fn broken_json_keeps_json_messages() {
        let error = parse_one("d", "{\"web\": {\"replicas\" 3}}").unwrap_err();
        assert_eq!(error.message, "expected `:`");
    }

    #[test]
    fn a_trailing_comma_reads_as_yaml_as_new_yaml_or_json_decoder_falls_back_to_it() {
        assert_eq!(
            parse_one("d", "{\"web\": {\"replicas\": 3,}}").unwrap(),
            json!({"web": {"replicas": 3}})
        );
        let error = parse_one("d", "{\"web\": {\"replicas\": 3,,}}").unwrap_err();
        assert_eq!(
            (error.line, error.column),
            (Some(1), Some(24)),
            "neither: JSON's error"
        );
    }

    #[test]
    fn text_after_a_byte_order_mark_reads() {
        assert_eq!(
            parse_one("d", "\u{feff}{\"web\": {\"replicas\": 3}}").unwrap(),
            json!({"web": {"replicas": 3}})
        );
        assert_eq!(
            parse_one("d", "\u{feff}web: 1\n").unwrap(),
            json!({"web": 1})
        );
    }

    #[test]
    fn one_document_is_one() {
        assert!(parse_one("d", "a: 1\n---\nb: 2\n")
            .unwrap_err()
            .message
            .contains("found 2"));
    }
}
