//! Where each object of a state sits in the text it was read from: the document
//! (numbered as `text::document::parse_documents` numbers them) and the JSON pointer
//! of its value there, in the order `State::read` reads them.

use super::read::{shape_of, Shape};
use super::{key_of, Key};
use crate::pointer::escape;
use crate::text::document::parse_documents;
use crate::value::ValueRef;
use serde_json::Value;

/// A value's place in a text: its document's number and its pointer there.
pub type Place = (usize, String);

/// Each object's key and place, in text order; none when the text does not read as a
/// state. An object without a key is left out.
pub fn object_places(text: &str) -> Option<Vec<(Key, Place)>> {
    let mut documents = parse_documents("", text).ok()?;
    let keyed = |object: ValueRef, place: Place| Some((Key::from(key_of(object)?), place));
    let items = |list: Option<ValueRef>, within: &str| -> Vec<(Key, Place)> {
        let place = |index| (0, format!("{within}/{index}"));
        let keyed_item = |(index, item)| keyed(item, place(index));
        list.map_or_else(Vec::new, |list| list.items().enumerate().filter_map(keyed_item).collect())
    };
    if documents.len() > 1 {
        let keyed_document = |(document, object): (usize, &Value)| keyed(object.into(), (document, String::new()));
        return Some(documents.iter().enumerate().filter_map(keyed_document).collect());
    }
    let document = documents.pop()?;
    let document = ValueRef::Built(&document);
    Some(match shape_of("", document).ok()? {
        Shape::List => items(Some(document), ""),
        Shape::KubernetesList => items(document.get("items"), "/items"),
        Shape::Single => keyed(document, (0, String::new())).into_iter().collect(),
        Shape::Named => document
            .fields()
            .map(|(name, _)| (Key::from(name), (0, format!("/{}", escape(name)))))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(text: &str) -> Vec<(String, usize, String)> {
        object_places(text)
            .unwrap()
            .into_iter()
            .map(|(key, (document, pointer))| (key.to_string(), document, pointer))
            .collect()
    }

    #[test]
    fn every_form_of_state_gives_its_objects_in_text_order() {
        let deployment = |name: &str| format!(r#"{{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {{"name": "{name}", "namespace": "shop"}}}}"#);
        let list = format!("[{}, {}]", deployment("web"), deployment("api"));
        assert_eq!(
            places(&list),
            [
                ("Deployment/shop/web".into(), 0, "/0".into()),
                ("Deployment/shop/api".into(), 0, "/1".into())
            ]
        );
        let kubernetes_list = format!(r#"{{"kind": "List", "items": [{}]}}"#, deployment("web"));
        assert_eq!(places(&kubernetes_list), [("Deployment/shop/web".into(), 0, "/items/0".into())]);
        let stream = "---\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\nkind: ConfigMap\nmetadata: {name: b}\n";
        assert_eq!(
            places(stream),
            [("ConfigMap/default/a".into(), 0, "".into()), ("ConfigMap/default/b".into(), 1, "".into())]
        );
        assert_eq!(places(r#"{"web/1": {"image": "web:1"}}"#), [("web/1".into(), 0, "/web~11".into())]);
        assert!(object_places("[").is_none());
    }
}
