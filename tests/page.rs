//! The page mounted in headless Chromium: its reducer and components together.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::dom::{dispatch, rendered, texts};
use gitops_playground::ui::components::code_editor::read_node;
use web_sys::{Element, HtmlDocument, HtmlElement, HtmlInputElement};

/// A fresh page: no work saved by an earlier test is restored.
fn mount() -> Element {
    if let Ok(Some(storage)) = gloo::utils::window().local_storage() {
        storage.clear().unwrap();
    }
    let root = common::dom::container();
    yew::Renderer::<App>::with_root(root.clone()).render();
    root
}

/// Each plan card as `verb key`, with ` (done)` once applied.
fn cards(root: &Element) -> Vec<String> {
    let nodes = root.query_selector_all(".card").unwrap();
    (0..nodes.length())
        .filter_map(|index| nodes.item(index))
        .filter_map(|node| node.dyn_into::<Element>().ok())
        .map(|card| {
            let part = |selector| {
                card.query_selector(selector)
                    .ok()
                    .flatten()
                    .and_then(|e| e.text_content())
                    .unwrap_or_default()
            };
            let done = if card
                .get_attribute("class")
                .unwrap_or_default()
                .split(' ')
                .any(|c| c == "done")
            {
                " (done)"
            } else {
                ""
            };
            format!("{} {}{done}", part(".verb"), part(".key"))
        })
        .collect()
}

/// Selects the whole text of the editor `id` and types `text` over it, as the browser
/// does it.
fn type_into(root: &Element, id: &str, text: &str) {
    let area: HtmlElement = root
        .query_selector(&format!("#{id}"))
        .unwrap()
        .unwrap()
        .unchecked_into();
    area.focus().unwrap();
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection.select_all_children(&area).unwrap();
    let document: HtmlDocument = gloo::utils::document().unchecked_into();
    assert!(document
        .exec_command_with_show_ui_and_value("insertText", false, text)
        .unwrap());
}

fn button(root: &Element, name: &str) -> HtmlElement {
    let nodes = root.query_selector_all("button").unwrap();
    (0..nodes.length())
        .filter_map(|index| nodes.item(index))
        .filter_map(|node| node.dyn_into::<HtmlElement>().ok())
        .find(|button| button.text_content().as_deref() == Some(name))
        .unwrap_or_else(|| panic!("a button named {name}"))
}

fn value_of(root: &Element, id: &str) -> String {
    let area = root.query_selector(&format!("#{id}")).unwrap().unwrap();
    read_node(&area, None).text
}

#[wasm_bindgen_test]
async fn the_page_opens_with_the_worked_example_planned() {
    let root = mount();
    rendered().await;
    assert_eq!(cards(&root), ["update web", "delete debug"]);
    assert_eq!(texts(&root, ".badge strong"), ["OutOfSync", "Healthy"]);
    assert!(texts(&root, ".warning .rule")
        .iter()
        .all(|rule| rule == "mutable-image-tag"));
}

#[wasm_bindgen_test]
async fn step_applies_the_next_operation_and_play_finishes() {
    let root = mount();
    rendered().await;
    button(&root, "Step").click();
    rendered().await;
    assert_eq!(cards(&root), ["update web (done)", "delete debug"]);
    assert!(
        value_of(&root, "actual-state").contains("\"replicas\": 3"),
        "{}",
        value_of(&root, "actual-state")
    );
    button(&root, "Step").click();
    rendered().await;
    assert_eq!(cards(&root), ["update web (done)", "delete debug (done)"]);
    assert_eq!(texts(&root, ".badge strong"), ["Synced", "Healthy"]);
    assert!(!value_of(&root, "actual-state").contains("debug"));
}

#[wasm_bindgen_test]
async fn editing_a_pane_replans() {
    let root = mount();
    rendered().await;
    type_into(&root, "actual-state", "{}");
    rendered().await;
    assert_eq!(cards(&root), ["create api", "create web"]);
    assert_eq!(
        value_of(&root, "actual-state"),
        "{}",
        "the person's text stays as typed"
    );
}

#[wasm_bindgen_test]
async fn typing_replans_at_once_and_commits_when_typing_pauses() {
    let root = mount();
    rendered().await;
    let commits = || texts(&root, ".timeline-commit-message");
    let before = commits();
    type_into(
        &root,
        "desired-state",
        r#"{"api": {"image": "registry.example/api:1.4.2", "replicas": 2}}"#,
    );
    rendered().await;
    assert_eq!(cards(&root), ["delete web", "delete debug"]);
    assert_eq!(commits(), before, "no commit while typing");
    gloo::timers::future::TimeoutFuture::new(400).await;
    rendered().await;
    assert_eq!(commits().len(), before.len() + 1);
    assert_eq!(commits()[0], "Edit envs/prod in the playground");
    assert_eq!(cards(&root), ["delete web", "delete debug"]);
}

#[wasm_bindgen_test]
async fn a_step_right_after_typing_applies_the_typed_plan_and_commits_first() {
    let root = mount();
    rendered().await;
    let before = texts(&root, ".timeline-commit-message").len();
    type_into(
        &root,
        "desired-state",
        r#"{"api": {"image": "registry.example/api:1.4.2", "replicas": 2}}"#,
    );
    button(&root, "Step").click();
    rendered().await;
    assert_eq!(texts(&root, ".timeline-commit-message").len(), before + 1);
    assert_eq!(cards(&root), ["delete web (done)", "delete debug"]);
}

#[wasm_bindgen_test]
async fn a_broken_pane_shows_its_error_and_keeps_the_last_plan() {
    let root = mount();
    rendered().await;
    type_into(&root, "desired-state", "{\"web\": ");
    rendered().await;
    assert_eq!(
        texts(&root, ".pane [role=alert]"),
        ["desired, line 1, column 8: EOF while parsing a value"]
    );
    assert_eq!(cards(&root), ["update web", "delete debug"]);
    let area = root.query_selector("#desired-state").unwrap().unwrap();
    assert_eq!(area.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(
        button(&root, "Step").has_attribute("disabled"),
        "no step while a pane is broken"
    );
}

#[wasm_bindgen_test]
async fn unchecking_prune_drops_the_delete() {
    let root = mount();
    rendered().await;
    let prune: HtmlInputElement = root
        .query_selector("section.options input[type=checkbox]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    prune.set_checked(false);
    dispatch(&prune, "change");
    rendered().await;
    assert_eq!(cards(&root), ["update web"]);
}

#[wasm_bindgen_test]
async fn time_runs_the_world_and_the_timeline_shows_it() {
    let root = mount();
    rendered().await;
    button(&root, "Run to end").click();
    rendered().await;
    let events = texts(&root, ".timeline-event");
    assert!(
        events
            .iter()
            .any(|event| event.contains("deleted debug from prod")),
        "{events:?}"
    );
    assert!(texts(&root, ".controls .position")[0].starts_with("Step 9 of 9"));
}
