//! The first page's components, mounted in headless Chromium.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlInputElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

fn mount() -> Element {
    let document = gloo::utils::document();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    root
}

/// Lets Yew render what was dispatched.
async fn rendered() {
    gloo::timers::future::TimeoutFuture::new(0).await;
}

fn texts(root: &Element, selector: &str) -> Vec<String> {
    let nodes = root.query_selector_all(selector).unwrap();
    (0..nodes.length())
        .filter_map(|index| nodes.item(index))
        .filter_map(|node| node.text_content())
        .collect()
}

fn dispatch(element: &Element, event: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    element
        .dispatch_event(&Event::new_with_event_init_dict(event, &init).unwrap())
        .unwrap();
}

fn type_into(root: &Element, id: &str, text: &str) {
    let area: HtmlTextAreaElement = root
        .query_selector(&format!("#{id}"))
        .unwrap()
        .unwrap()
        .unchecked_into();
    area.set_value(text);
    dispatch(&area, "input");
}

#[wasm_bindgen_test]
async fn the_page_opens_with_the_worked_example_planned() {
    let root = mount();
    rendered().await;
    assert_eq!(
        texts(&root, ".operations li"),
        ["update web", "delete debug"]
    );
    assert_eq!(texts(&root, ".status strong"), ["OutOfSync"]);
}

#[wasm_bindgen_test]
async fn editing_a_pane_replans() {
    let root = mount();
    rendered().await;
    type_into(&root, "actual-state", "{}");
    rendered().await;
    assert_eq!(texts(&root, ".operations li"), ["create api", "create web"]);
}

#[wasm_bindgen_test]
async fn a_broken_pane_shows_its_error_and_keeps_the_last_plan() {
    let root = mount();
    rendered().await;
    type_into(&root, "desired-state", "{\"web\": ");
    rendered().await;
    assert_eq!(
        texts(&root, "[role=alert]"),
        ["desired, line 1, column 8: EOF while parsing a value"]
    );
    assert_eq!(
        texts(&root, ".operations li"),
        ["update web", "delete debug"]
    );
    let area = root.query_selector("#desired-state").unwrap().unwrap();
    assert_eq!(area.get_attribute("aria-invalid").as_deref(), Some("true"));
}

#[wasm_bindgen_test]
async fn unchecking_prune_drops_the_delete() {
    let root = mount();
    rendered().await;
    let prune: HtmlInputElement = root
        .query_selector("input[type=checkbox]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    prune.set_checked(false);
    dispatch(&prune, "change");
    rendered().await;
    assert_eq!(texts(&root, ".operations li"), ["update web"]);
}
