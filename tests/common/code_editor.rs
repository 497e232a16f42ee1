//! The code editor mounted alone for a test, on a page styled as the playground's,
//! and what its tests read of it: its text, its blocks of lines and its gutter.

use crate::common;
use common::dom::{find, texts};
use gitops_playground::ui::components::code_editor::{read_node, CodeEditorProps};
use gitops_playground::ui::components::CodeEditor;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit, Node};
use yew::prelude::*;
use yew::AppHandle;

/// The page's stylesheet, so that sizes and scrolling are the real ones.
pub fn style_the_page() {
    let document = gloo::utils::document();
    if document
        .get_element_by_id("code-editor-test-style")
        .is_some()
    {
        return;
    }
    let style = document.create_element("style").unwrap();
    style.set_id("code-editor-test-style");
    style.set_text_content(Some(include_str!("../../static/style.css")));
    document.head().unwrap().append_child(&style).unwrap();
}

/// A 480px wide container on a page styled with the playground's CSS.
pub fn container() -> Element {
    style_the_page();
    let root = common::dom::container();
    root.set_attribute("style", "width: 480px").unwrap();
    root
}

pub fn props(text: &str) -> CodeEditorProps {
    CodeEditorProps {
        id: "editor".into(),
        labelled_by: "editor-label".into(),
        text: text.into(),
        on_input: Callback::noop(),
        error_at: None,
        error_message: None,
        described_by: None,
        marks: Default::default(),
        on_mark: Callback::noop(),
        highlight: None,
        readonly: false,
    }
}

pub fn mount(props: CodeEditorProps) -> (Element, AppHandle<CodeEditor>) {
    let root = container();
    let handle = yew::Renderer::<CodeEditor>::with_root_and_props(root.clone(), props).render();
    (root, handle)
}

pub fn area(root: &Element) -> HtmlElement {
    find(root, ".code-editor-input").unchecked_into()
}

/// The text the editor shows, read as the editor reads it.
pub fn value(area: &HtmlElement) -> String {
    read_node(area, None).text
}

/// The editor's blocks of lines.
pub fn blocks(area: &HtmlElement) -> Vec<Node> {
    let children = area.child_nodes();
    (0..children.length())
        .filter_map(|index| children.item(index))
        .collect()
}

/// A few frames' time (headless Chromium draws 60 frames a second).
pub async fn next_frame() {
    gloo::timers::future::TimeoutFuture::new(50).await;
}

pub fn numbers(root: &Element) -> Vec<String> {
    texts(root, ".code-editor-number")
}

pub fn one_to(count: usize) -> Vec<String> {
    (1..=count).map(|line| line.to_string()).collect()
}

pub fn numbered_lines(count: usize) -> Vec<String> {
    (1..=count).map(|line| format!("line {line}")).collect()
}

/// Presses Ctrl+Shift and the key of `code` (BracketLeft, BracketRight) in `element`.
pub fn press_chord(element: &Element, code: &str) {
    let init = KeyboardEventInit::new();
    init.set_code(code);
    init.set_key(if code == "BracketLeft" { "{" } else { "}" });
    init.set_ctrl_key(true);
    init.set_shift_key(true);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    assert!(
        !element.dispatch_event(&event).unwrap(),
        "the editor takes {code}"
    );
}
