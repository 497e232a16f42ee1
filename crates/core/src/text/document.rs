//! Reading a document written in JSON or YAML. Text that starts like JSON
//! (`{` or `[`) is read as JSON, for JSON's exact messages; if it is not JSON
//! but is YAML (a flow mapping such as `{a: 1}`), it is read as YAML.

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

fn looks_like_json(text: &str) -> bool {
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
    fn a_trailing_comma_is_forgiven_as_yaml_forgives_it() {
        assert_eq!(
            parse_one("d", "{\"web\": {\"replicas\": 3,}}").unwrap(),
            json!({"web": {"replicas": 3}})
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
