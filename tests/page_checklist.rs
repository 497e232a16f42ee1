//! The page mounted in headless Chromium: what it says of the texts in its panes,
//! an error in a pane or an ignore rule, and the checklist's warnings.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::dom::{all, dispatch, find, rendered, texts};
use common::page::{button, cards, mount, type_into, until};
use web_sys::Element;

#[wasm_bindgen_test]
async fn a_broken_pane_is_marked_invalid_with_its_error_as_an_alert() {
    let root = mount();
    rendered().await;
    type_into(&root, "desired-state", "{\"web\": ");
    rendered().await;
    assert_eq!(
        texts(&root, ".pane [role=alert]"),
        ["desired, line 1, column 8: EOF while parsing a value"]
    );
    assert_eq!(cards(&root), ["delete debug", "update web"]);
    let area = root.query_selector("#desired-state").unwrap().unwrap();
    assert_eq!(area.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(button(&root, "Step").has_attribute("disabled"));
}

#[wasm_bindgen_test]
async fn the_checklist_shows_names_as_code_and_markup_in_them_as_text() {
    let root = mount();
    rendered().await;
    let messages = all(&root, "section.warnings li.warning p");
    let api = messages
        .iter()
        .find(|message| texts(message, "code").first().map(String::as_str) == Some("api"))
        .expect("a warning about api");
    assert_eq!(
        texts(api, "code")[..2],
        ["api", "registry.example/api:1.4.2"]
    );
    let text = api.text_content().unwrap();
    assert!(
        text.starts_with("api runs the image registry.example/api:1.4.2") && !text.contains('`'),
        "{text}"
    );
    type_into(
        &root,
        "desired-state",
        r#"{"<b>x</b>": {"image": "busybox"}}"#,
    );
    rendered().await;
    let checklist = find(&root, "section.warnings");
    let codes = texts(&checklist, "li.warning p code");
    assert!(codes.contains(&"<b>x</b>".to_string()), "{codes:?}");
    assert!(
        all(&checklist, "b").is_empty(),
        "markup in a name stays text"
    );
}

#[wasm_bindgen_test]
async fn a_wrong_ignore_rule_names_its_field_as_code() {
    let root = mount();
    rendered().await;
    let rules: web_sys::HtmlTextAreaElement = find(&root, "#ignore-rules").unchecked_into();
    rules.set_value("- spec/replicas\n");
    dispatch(&rules, "input");
    rendered().await;
    let error = find(&root, "#ignore-error");
    assert_eq!(texts(&error, "code"), ["spec/replicas", "/"]);
    assert!(
        !error.text_content().unwrap().contains('`'),
        "{:?}",
        error.text_content()
    );
}

#[wasm_bindgen_test]
async fn the_checklist_puts_the_lessons_own_rules_first_and_folds_the_mutable_tags() {
    let root = mount();
    rendered().await;
    let rules = |root: &Element| {
        texts(root, "section.warnings > ul > li > .rule, section.warnings > ul > li > details > summary > .rule")
    };
    let open = |root: &Element| {
        all(root, "section.warnings details")
            .iter()
            .map(|details| details.has_attribute("open"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        rules(&root),
        ["mutable-image-tag"],
        "the worked example warns of tags alone"
    );
    assert_eq!(open(&root), [true], "so they are open");
    type_into(
        &root,
        "desired-state",
        r#"{"db": {"kind": "Secret", "data": {"password": "aHVudGVyMg=="}}, "web": {"image": "web:2"}, "api": {"image": "api:1"}}"#,
    );
    rendered().await;
    until(|| rules(&root), ["plaintext-secret", "mutable-image-tag"]).await;
    assert_eq!(
        open(&root),
        [false],
        "beside the lesson's own rule, the tags fold"
    );
    assert_eq!(
        texts(&root, "section.warnings summary"),
        ["mutable-image-tag2 images are named by a tag that can move"]
    );
    assert_eq!(all(&root, "section.warnings details li.warning").len(), 2);
}
