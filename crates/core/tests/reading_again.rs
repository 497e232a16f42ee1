//! A large text read again gives what it gave the first time, and a copy of a
//! state is its own: natively and in the browser.

mod common;

use gitops_testing::everywhere;

use gitops_core::state::SHORTEST_KEPT;
use gitops_core::{InputError, State, Workspace};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A state text of `count` named objects, well over the size the core keeps.
fn large_text(count: usize) -> String {
    let objects: serde_json::Map<String, Value> = (0..count)
        .map(|index| {
            (
                format!("service-{index:04}"),
                json!({"image": format!("registry.example/service:{index}"), "replicas": index % 5}),
            )
        })
        .collect();
    serde_json::to_string_pretty(&Value::Object(objects)).expect("serializes")
}

fn broken(text: &str) -> String {
    format!("{}, ", text.trim_end().trim_end_matches('}'))
}

fn error_of(workspace: &mut Workspace, source: &str, text: &str) -> InputError {
    workspace.read(source, text).expect_err("the text is broken")
}

everywhere! {
    fn a_large_text_read_again_reads_the_same() {
        let mut workspace = Workspace::new();
        let text = large_text(2_000);
        let first = workspace.read("desired", &text).unwrap();
        let again = workspace.read("desired", &text).unwrap();
        let elsewhere = workspace.read("envs/prod/manifests.json", &text).unwrap();
        assert_eq!(first, again);
        assert_eq!(first, elsewhere);
        assert_eq!(first.len(), 2_000);
        let edited = text.replacen("\"replicas\": 1", "\"replicas\": 4", 1);
        let changed = workspace.read("desired", &edited).unwrap();
        assert_ne!(changed, first, "an edited text is read, not remembered");
        assert_eq!(changed.get("service-0001").unwrap()["replicas"], 4);
    }

    fn a_broken_large_text_names_the_source_it_was_read_from_each_time() {
        let mut workspace = Workspace::new();
        let text = broken(&large_text(2_000));
        let desired = error_of(&mut workspace, "desired", &text);
        let file = error_of(&mut workspace, "envs/prod/manifests.json", &text);
        assert_eq!(desired.source, "desired");
        assert_eq!(file.source, "envs/prod/manifests.json");
        assert_eq!((desired.line, desired.column), (file.line, file.column));
        assert_eq!(error_of(&mut workspace, "desired", &text), desired);
    }

    fn more_large_texts_than_are_kept_all_read_right() {
        let mut workspace = Workspace::new();
        let texts: Vec<String> = (0..7).map(|extra| large_text(1_000 + extra)).collect();
        for _ in 0..2 {
            for (extra, text) in texts.iter().enumerate() {
                assert_eq!(workspace.read("desired", text).unwrap().len(), 1_000 + extra);
            }
        }
    }

    fn a_copy_of_a_state_changes_on_its_own() {
        let mut workspace = Workspace::new();
        let original = workspace.read("desired", &large_text(2_000)).unwrap();
        let mut copy = original.clone();
        assert!(copy.same_objects(&original));
        copy.insert("added", json!({"image": "added:1"}));
        copy.remove("service-0000");
        assert_eq!(original.len(), 2_000);
        assert!(original.get("added").is_none());
        assert!(original.get("service-0000").is_some());
        assert!(!copy.same_objects(&original));
        let reread = workspace.read("desired", &large_text(2_000)).unwrap();
        assert_eq!(reread, original, "what the core kept did not change with the copy");
        assert_eq!(copy.remove("absent"), None);
    }
}

/// `count` Deployment-like objects, each about 600 bytes as the page writes them.
fn deployments(count: usize) -> Vec<Value> {
    (0..count)
        .map(|index| {
            let name = format!("service-{index:04}");
            json!({
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": name, "namespace": "shop", "labels": {"app": name}},
                "spec": {
                    "replicas": 2 + index % 3,
                    "template": {"spec": {"containers": [{"name": "app", "image": format!("registry.example/{name}:1.{index}")}]}}
                }
            })
        })
        .collect()
}

/// The same objects in each form a state is written in: a list, a Kubernetes
/// List, and the lesson's form (named objects).
fn in_every_form(count: usize) -> Vec<String> {
    let objects = deployments(count);
    let named: serde_json::Map<String, Value> = objects
        .iter()
        .map(|object| {
            (
                object["metadata"]["name"].as_str().unwrap().to_string(),
                object.clone(),
            )
        })
        .collect();
    [
        Value::Array(objects.clone()),
        json!({"apiVersion": "v1", "kind": "List", "items": objects}),
        Value::Object(named),
    ]
    .iter()
    .map(|value| serde_json::to_string_pretty(value).expect("serializes"))
    .collect()
}

/// Deployments as a YAML stream, one document each, as manifests are written:
/// a comment on top, a marker before each document, one with a comment of its own.
fn yaml_stream(count: usize) -> String {
    let mut text = String::from("# shop's services\n");
    for index in 0..count {
        let name = format!("service-{index:04}");
        text.push_str(&format!(
            "---{}\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: shop\n  labels:\n    app: {name}\nspec:\n  replicas: {}\n  template:\n    spec:\n      containers:\n        - name: app\n          image: \"registry.example/{name}:1.{index}\"\n",
            if index == 3 { " # the third" } else { "" },
            2 + index % 3,
        ));
    }
    text
}

/// `text` with the bytes `at..at + removed` replaced by `inserted`.
fn edited(text: &str, at: usize, removed: usize, inserted: &str) -> String {
    let mut edited = text.to_string();
    edited.replace_range(at..(at + removed).min(text.len()), inserted);
    edited
}

/// What the text reads as, read right after `before`: it must be what the
/// text alone reads as.
#[allow(clippy::result_large_err)] // as the core's own reads
fn read_after(workspace: &mut Workspace, before: &str, text: &str) -> Result<State, InputError> {
    workspace.read("desired", before).expect("the text before reads");
    let read = workspace.read("desired", text);
    assert_eq!(
        read,
        State::read("desired", text),
        "read after an edit"
    );
    read
}

fn replicas_at(text: &str, name: &str) -> usize {
    let object = text
        .find(&format!("\"name\": \"{name}\""))
        .expect("the object is there");
    text[object..]
        .find("\"replicas\": ")
        .expect("a replica count")
        + object
        + 12
}

/// `text` with 7, 1 and 9 typed one after the other over the digit at `digit`,
/// each text read right after the one before it.
fn type_digits_over(workspace: &mut Workspace, text: &str, digit: usize) -> String {
    let mut typed = text.to_string();
    for key in ["7", "1", "9"] {
        let next = edited(&typed, digit, 1, key);
        read_after(workspace, &typed, &next).expect("the edit reads");
        typed = next;
    }
    typed
}

/// `after` holds 9 replicas at `edited_key`, and every other object of
/// `before` is the very same object.
fn assert_shares_all_but(before: &State, after: &State, edited_key: &str) {
    assert_eq!(after.get(edited_key).unwrap()["spec"]["replicas"], 9);
    for (key, object) in before.objects() {
        assert_eq!(std::sync::Arc::ptr_eq(object, &after.objects()[key]), &**key != edited_key, "{key}");
    }
}

everywhere! {
    fn typing_in_one_object_reads_that_object_again_and_shares_every_other() {
        let mut workspace = Workspace::new();
        for text in in_every_form(500) {
            let before = workspace.read("desired", &text).unwrap();
            let typed = type_digits_over(&mut workspace, &text, replicas_at(&text, "service-0300"));
            let after = workspace.read("desired", &typed).unwrap();
            let edited_key = after
                .objects()
                .keys()
                .find(|key| key.ends_with("service-0300"))
                .expect("the edited object")
                .clone();
            assert_shares_all_but(&before, &after, &edited_key);
        }
    }

    fn typing_in_one_document_of_a_yaml_stream_reads_that_document_again_and_shares_every_other() {
        let mut workspace = Workspace::new();
        let text = yaml_stream(300);
        let before = workspace.read("desired", &text).unwrap();
        let digit = text.find("name: service-0200").unwrap();
        let digit = digit + text[digit..].find("replicas: ").unwrap() + "replicas: ".len();
        let typed = type_digits_over(&mut workspace, &text, digit);
        let after = workspace.read("desired", &typed).unwrap();
        assert_shares_all_but(&before, &after, "Deployment/shop/service-0200");
        // A marker typed into a document splits it: read whole, as two documents.
        let split = typed.replacen("spec:\n  replicas: 9", "---\nspec:\n  replicas: 9", 1);
        assert!(read_after(&mut workspace, &typed, &split).is_err(), "a document of a spec alone is no Kubernetes object");
        // A line break taken from before a marker joins two documents.
        let marker = typed.find("---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: service-0201").unwrap();
        read_after(&mut workspace, &typed, &edited(&typed, marker - 1, 1, "")).ok();
    }

    fn a_rename_is_read_and_a_rename_onto_another_object_is_the_duplicate_it_is() {
        let mut workspace = Workspace::new();
        for text in in_every_form(500) {
            let name = text.find("\"name\": \"service-0001\"").unwrap() + 17;
            let renamed = read_after(&mut workspace, &text, &edited(&text, name, 4, "0777"));
            let onto_another = read_after(&mut workspace, &text, &edited(&text, name, 4, "0002"));
            if text.contains("\"service-0001\": {") {
                // In the lesson's form the name in metadata is a field like any other.
                assert!(renamed.is_ok() && onto_another.is_ok());
            } else {
                assert!(renamed.unwrap().get("Deployment/shop/service-0777").is_some());
                assert!(onto_another.unwrap_err().message.contains("two objects have the key"));
            }
        }
    }

    fn an_edit_that_breaks_the_text_or_crosses_objects_reads_as_the_whole_text_does() {
        let mut workspace = Workspace::new();
        for text in in_every_form(500) {
            let inside = replicas_at(&text, "service-0200");
            let next_object = replicas_at(&text, "service-0201");
            let error = read_after(&mut workspace, &text, &edited(&text, inside, 1, "}")).unwrap_err();
            assert!(error.line.is_some_and(|line| line > 1), "located: {error}");
            // A quote opens a string that YAML reads on: whatever the whole text reads as.
            read_after(&mut workspace, &text, &edited(&text, inside, 1, "\"")).ok();
            // From one object's replica count to the next one's: one object made of two.
            let joined = read_after(&mut workspace, &text, &edited(&text, inside, next_object - inside, ""));
            assert_eq!(joined.map(|state| state.len()), Ok(499));
            let broken = edited(&text, inside, next_object - inside + 1, "]");
            assert!(read_after(&mut workspace, &text, &broken).is_err(), "a replica count with no value");
            let trailing_comma = edited(&text, text.len() - 1, 0, ",");
            assert_eq!(read_after(&mut workspace, &text, &trailing_comma).map(|state| state.len()), Ok(500), "forgiven as YAML forgives it");
            assert!(read_after(&mut workspace, &text, &edited(&text, 0, 0, " ")).is_ok());
        }
    }
}

proptest! {
    #![proptest_config(gitops_testing::config_with_cases_in_the_browser(96))]

    /// Over the size the core keeps (`SHORTEST_KEPT`), so that the edited text is
    /// read again from the one before it (`reread`), not afresh. Fewer cases in the
    /// browser, within the test runner's time limit.
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn any_small_edit_reads_as_the_edited_text_alone_reads(
        form in 0..3usize,
        at in any::<prop::sample::Index>(),
        removed in 0..6usize,
        inserted in "[0-9a-z\"{}\\[\\],: ]{0,4}",
    ) {
        let text = &in_every_form(80)[form];
        prop_assert!(text.len() > SHORTEST_KEPT + 6, "{} bytes, kept from {SHORTEST_KEPT}", text.len());
        read_after(&mut Workspace::new(), text, &edited(text, at.index(text.len()), removed, &inserted)).ok();
    }

    /// The same of a YAML stream, with the bytes that make or break its documents
    /// (markers, directives, aliases, comments, block scalars) among those typed.
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn any_small_edit_of_a_yaml_stream_reads_as_the_edited_text_alone_reads(
        at in any::<prop::sample::Index>(),
        removed in 0..6usize,
        inserted in "[0-9a-z\"' :#&*%|>.\n\r\t-]{0,4}",
    ) {
        let text = yaml_stream(160);
        prop_assert!(text.len() > SHORTEST_KEPT + 6, "{} bytes, kept from {SHORTEST_KEPT}", text.len());
        read_after(&mut Workspace::new(), &text, &edited(&text, at.index(text.len()), removed, &inserted)).ok();
    }
}
