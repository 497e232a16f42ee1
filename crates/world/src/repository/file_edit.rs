//! Editing a file of Git as values: a file written as JSON values is edited
//! as it is; a file written as text (YAML or JSON, one document or a `---`
//! stream) is read, edited and written again in its own format. A stream of
//! several documents is edited as the array of its documents, so a pointer
//! into it starts with the document's index (`/1/spec/replicas`). Written
//! again, the text keeps its values and their order, not its comments or
//! quoting, as `yq` and `kustomize edit` write files anew.

use gitops_core::state::render::{render_value, Format};
use gitops_core::text::document::parse_documents;
use serde_json::Value;

/// `content` (the file at `path`) after `edit` has changed its values.
pub fn edit_as_values(
    path: &str,
    content: &Value,
    edit: &mut dyn FnMut(&mut Value) -> Result<(), String>,
) -> Result<Value, String> {
    let Value::String(text) = content else {
        let mut values = content.clone();
        edit(&mut values)?;
        return Ok(values);
    };
    let mut documents =
        parse_documents(path, text).map_err(|error| format!("{path} does not read: {error}"))?;
    let format = match text.trim_start().starts_with(['{', '[']) {
        true => Format::Json,
        false => Format::Yaml,
    };
    let written = match documents.len() {
        1 => {
            edit(&mut documents[0])?;
            render_value(&documents[0], format)
        }
        _ => {
            let count = documents.len();
            let mut stream = Value::Array(documents);
            edit(&mut stream).map_err(|error| {
                format!("{error} ({path} holds {count} documents, so a path into it starts with a document's index: /0/…, /1/…)")
            })?;
            let Value::Array(documents) = stream else {
                return Err(format!(
                    "{path} is a stream of documents; the edit left no list of them"
                ));
            };
            documents
                .iter()
                .map(|document| render_value(document, format))
                .collect::<Vec<_>>()
                .join("---\n")
        }
    };
    Ok(Value::String(written))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(path: &str, content: Value, pointer: &str, value: Value) -> Result<Value, String> {
        edit_as_values(path, &content, &mut |values| {
            crate::cluster::set_pointer(values, pointer, value.clone()).map(|_| ())
        })
    }

    fn documents(content: &Value) -> Vec<Value> {
        parse_documents("file", content.as_str().unwrap()).unwrap()
    }

    #[test]
    fn a_yaml_text_is_edited_and_written_again_as_yaml() {
        let text =
            "# the web tier\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n";
        let edited = set("web.yaml", json!(text), "/spec/replicas", json!(5)).unwrap();
        assert_eq!(
            documents(&edited),
            [json!({"kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 5}})]
        );
        assert!(
            !edited.as_str().unwrap().trim_start().starts_with('{'),
            "still YAML: {edited}"
        );
    }

    #[test]
    fn a_stream_is_edited_by_the_documents_index() {
        let text = "kind: Service\nmetadata: {name: web}\n---\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n";
        let edited = set("web.yaml", json!(text), "/1/spec/replicas", json!(3)).unwrap();
        let documents = documents(&edited);
        assert_eq!(documents.len(), 2);
        assert_eq!(documents[0]["kind"], "Service");
        assert_eq!(documents[1]["spec"]["replicas"], 3);
    }

    #[test]
    fn a_json_text_stays_json_and_values_stay_values() {
        let edited = set(
            "web.json",
            json!("{\"replicas\": 2}"),
            "/replicas",
            json!(4),
        )
        .unwrap();
        assert_eq!(documents(&edited), [json!({"replicas": 4})]);
        assert!(edited.as_str().unwrap().starts_with('{'));
        let values = set("web.json", json!({"replicas": 2}), "/replicas", json!(4)).unwrap();
        assert_eq!(values, json!({"replicas": 4}));
    }

    #[test]
    fn a_text_that_does_not_read_says_where() {
        let error = set("web.yaml", json!("kind: [\n"), "/kind", json!("x")).unwrap_err();
        assert!(
            error.starts_with("web.yaml does not read: web.yaml, line"),
            "{error}"
        );
    }
}
