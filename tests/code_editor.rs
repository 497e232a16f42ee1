//! The code editor, mounted alone in headless Chromium.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::components::code_editor::CodeEditorProps;
use gitops_playground::ui::components::CodeEditor;
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::dom::{dispatch, find, rendered, texts};
use gitops_playground::ui::same::Same;
use std::rc::Rc;
use web_sys::{Element, HtmlElement, HtmlTextAreaElement, KeyboardEvent, KeyboardEventInit};
use yew::prelude::*;
use yew::AppHandle;

/// The page's stylesheet, so that sizes and scrolling are the real ones.
fn style_the_page() {
    let document = gloo::utils::document();
    if document
        .get_element_by_id("code-editor-test-style")
        .is_some()
    {
        return;
    }
    let style = document.create_element("style").unwrap();
    style.set_id("code-editor-test-style");
    style.set_text_content(Some(include_str!("../static/style.css")));
    document.head().unwrap().append_child(&style).unwrap();
}

/// A 480px wide container on a page styled with the playground's CSS.
fn container() -> Element {
    style_the_page();
    let root = common::dom::container();
    root.set_attribute("style", "width: 480px").unwrap();
    root
}

fn props(text: &str) -> CodeEditorProps {
    CodeEditorProps {
        id: "editor".into(),
        text: text.into(),
        on_input: Callback::noop(),
        error_at: None,
        described_by: None,
        highlight: None,
        readonly: false,
    }
}

fn mount(props: CodeEditorProps) -> (Element, AppHandle<CodeEditor>) {
    let root = container();
    let handle = yew::Renderer::<CodeEditor>::with_root_and_props(root.clone(), props).render();
    (root, handle)
}

fn area(root: &Element) -> HtmlTextAreaElement {
    find(root, "textarea").unchecked_into()
}

fn numbers(root: &Element) -> Vec<String> {
    texts(root, ".code-editor-number")
}

/// Presses `key` in `element`; false if a listener prevented the default.
fn press(element: &Element, key: &str) -> bool {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    element
        .dispatch_event(
            &KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
        )
        .unwrap()
}

fn one_to(count: usize) -> Vec<String> {
    (1..=count).map(|line| line.to_string()).collect()
}

#[wasm_bindgen_test]
async fn line_numbers_match_the_text_s_lines() {
    let (root, mut handle) = mount(props("{\n  \"web\": {}\n}"));
    rendered().await;
    assert_eq!(numbers(&root), one_to(3));
    for (text, lines) in [("", 1), ("one line", 1), ("a\n", 2), ("a\r\nb\rc\n\n", 5)] {
        handle.update(props(text));
        rendered().await;
        assert_eq!(numbers(&root), one_to(lines), "{text:?}");
    }
    let gutter = find(&root, ".code-editor-gutter");
    assert_eq!(gutter.get_attribute("aria-hidden").as_deref(), Some("true"));
}

#[wasm_bindgen_test]
async fn the_textarea_is_a_plain_text_field() {
    let (root, mut handle) = mount(props("a\tb"));
    rendered().await;
    let area = area(&root);
    assert_eq!(area.id(), "editor");
    assert_eq!(area.value(), "a\tb");
    for (name, value) in [
        ("spellcheck", "false"),
        ("autocomplete", "off"),
        ("autocapitalize", "off"),
        ("wrap", "off"),
    ] {
        assert_eq!(area.get_attribute(name).as_deref(), Some(value), "{name}");
    }
    assert_eq!(area.get_attribute("aria-invalid"), None);
    assert_eq!(area.get_attribute("aria-describedby"), None);
    assert!(!area.read_only());
    handle.update(CodeEditorProps {
        readonly: true,
        ..props("a\tb")
    });
    rendered().await;
    assert!(area.read_only());
}

#[wasm_bindgen_test]
async fn the_error_line_is_marked() {
    let (root, mut handle) = mount(CodeEditorProps {
        error_at: Some((2, 10)),
        described_by: Some("editor-error".into()),
        ..props("{\n  \"web\": ,\n}")
    });
    rendered().await;
    assert_eq!(texts(&root, ".code-editor-number.error-line"), ["2"]);
    assert_eq!(
        root.query_selector_all(".code-editor-mark.error-line")
            .unwrap()
            .length(),
        1
    );
    let area = area(&root);
    assert_eq!(area.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(
        area.get_attribute("aria-describedby").as_deref(),
        Some("editor-error")
    );
    // An error past the end (at the end of the input) marks the last line.
    handle.update(CodeEditorProps {
        error_at: Some((9, 1)),
        ..props("{\n  \"web\": ")
    });
    rendered().await;
    assert_eq!(texts(&root, ".code-editor-number.error-line"), ["2"]);
    handle.update(props("{}"));
    rendered().await;
    assert!(texts(&root, ".error-line").is_empty());
    assert_eq!(area.get_attribute("aria-invalid"), None);
}

thread_local! {
    static TYPED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// A parent that owns the text, as the page does.
#[function_component(Owner)]
fn owner() -> Html {
    let text = use_state(|| Rc::<str>::from("first"));
    let on_input = {
        let text = text.clone();
        Callback::from(move |typed: Rc<str>| {
            TYPED.with(|log| log.borrow_mut().push(typed.to_string()));
            text.set(typed);
        })
    };
    html! { <CodeEditor id="owned" text={Same((*text).clone())} {on_input} /> }
}

#[wasm_bindgen_test]
async fn typing_sends_the_whole_text_and_the_gutter_follows() {
    let root = container();
    yew::Renderer::<Owner>::with_root(root.clone()).render();
    rendered().await;
    assert_eq!(numbers(&root), one_to(1));
    let typed = "first\n\tsecond  \n\nfourth\n";
    let area = area(&root);
    area.set_value(typed);
    dispatch(&area, "input");
    rendered().await;
    TYPED.with(|log| assert_eq!(log.borrow().last().map(String::as_str), Some(typed)));
    assert_eq!(area.value(), typed);
    assert_eq!(numbers(&root), one_to(5));
}

/// A parent that keeps what is typed, except that typing `undo` puts back the text
/// it had before, and a button that replaces the text.
#[function_component(Rewriter)]
fn rewriter() -> Html {
    let text = use_state(|| Rc::<str>::from("first"));
    let on_input = {
        let text = text.clone();
        Callback::from(move |typed: Rc<str>| {
            if typed.ends_with("undo") {
                text.set("first".into());
            } else {
                text.set(typed);
            }
        })
    };
    let replace = {
        let text = text.clone();
        Callback::from(move |_| text.set("replaced".into()))
    };
    html! {
        <>
            <CodeEditor id="rewritten" text={Same((*text).clone())} {on_input} />
            <button onclick={replace}>{ "Replace" }</button>
        </>
    }
}

#[wasm_bindgen_test]
async fn the_textarea_shows_the_parent_s_text_and_keeps_the_caret_in_what_was_typed() {
    let root = container();
    yew::Renderer::<Rewriter>::with_root(root.clone()).render();
    rendered().await;
    let area = area(&root);
    assert_eq!(area.value(), "first");

    area.set_value("first line");
    area.set_selection_range(3, 3).unwrap();
    dispatch(&area, "input");
    rendered().await;
    assert_eq!(area.value(), "first line");
    assert_eq!(
        area.selection_start().unwrap(),
        Some(3),
        "the caret stays where it was"
    );

    area.set_value("first undo");
    dispatch(&area, "input");
    rendered().await;
    assert_eq!(
        area.value(),
        "first",
        "the parent's text, not what was typed"
    );

    find(&root, "button")
        .unchecked_into::<HtmlElement>()
        .click();
    rendered().await;
    assert_eq!(area.value(), "replaced");
    assert_eq!(numbers(&root), one_to(1));
}

#[wasm_bindgen_test]
async fn escape_leaves_the_editor_and_tab_is_the_browser_s() {
    let (root, _handle) = mount(props("a\nb"));
    rendered().await;
    let area = area(&root);
    let active = || gloo::utils::document().active_element();
    area.focus().unwrap();
    assert_eq!(active().as_ref(), Some(area.as_ref()));
    assert!(press(&area, "Tab"), "Tab's default was prevented");
    assert!(press(&area, "a"));
    assert_eq!(active().as_ref(), Some(area.as_ref()));
    press(&area, "Escape");
    assert_ne!(active().as_ref(), Some(area.as_ref()));
}

#[wasm_bindgen_test]
async fn the_highlight_marks_exactly_its_lines_and_replays_on_a_new_token() {
    let text = "a\nb\nc\nd\ne\nf";
    let (root, mut handle) = mount(CodeEditorProps {
        highlight: Some((2..4, 1)),
        ..props(text)
    });
    rendered().await;
    assert_eq!(texts(&root, ".code-editor-number.highlight"), ["3", "4"]);
    let mark = find(&root, ".code-editor-mark.highlight");
    // The same token keeps the element (no replay)...
    handle.update(CodeEditorProps {
        highlight: Some((2..4, 1)),
        ..props(text)
    });
    rendered().await;
    let same = find(&root, ".code-editor-mark.highlight");
    assert!(mark.is_same_node(Some(&same)));
    // ...and a new one replaces it, so that its animation starts again.
    handle.update(CodeEditorProps {
        highlight: Some((2..4, 2)),
        ..props(text)
    });
    rendered().await;
    let replayed = find(&root, ".code-editor-mark.highlight");
    assert!(!mark.is_same_node(Some(&replayed)));
    assert!(!root.contains(Some(&mark)));
    // A range past the end is cut to the text; an empty one marks nothing.
    handle.update(CodeEditorProps {
        highlight: Some((4..40, 3)),
        ..props(text)
    });
    rendered().await;
    assert_eq!(texts(&root, ".code-editor-number.highlight"), ["5", "6"]);
    handle.update(CodeEditorProps {
        highlight: Some((3..3, 4)),
        ..props(text)
    });
    rendered().await;
    assert!(texts(&root, ".highlight").is_empty());
}

#[wasm_bindgen_test]
async fn the_gutter_and_the_backdrop_scroll_with_the_text_and_stay_aligned() {
    let text = (1..=100)
        .map(|line| format!("line {line} {}", "x".repeat(line * 3)))
        .collect::<Vec<_>>()
        .join("\n");
    let (root, _handle) = mount(CodeEditorProps {
        error_at: Some((30, 8)),
        highlight: Some((29..31, 1)),
        ..props(&text)
    });
    rendered().await;
    let area = area(&root);
    area.set_scroll_top(200);
    area.set_scroll_left(50);
    dispatch(&area, "scroll");
    rendered().await;
    assert_eq!(area.scroll_top(), 200);
    assert_eq!(area.scroll_left(), 50);
    assert_eq!(
        find(&root, ".code-editor-numbers")
            .get_attribute("style")
            .as_deref(),
        Some("transform: translateY(-200px)")
    );
    assert_eq!(
        find(&root, ".code-editor-columns")
            .get_attribute("style")
            .as_deref(),
        Some("transform: translate(-50px, -200px)")
    );
    let top = |selector: &str| find(&root, selector).get_bounding_client_rect().top();
    let number = top(".code-editor-number.error-line");
    // Line 30 of the textarea: its top, the padding (12px), 29 lines of 20px, less the scroll.
    let line = area.get_bounding_client_rect().top() + 12.0 + 29.0 * 20.0 - 200.0;
    for (name, at) in [
        ("number", number),
        ("error mark", top(".code-editor-mark.error-line")),
        ("column mark", top(".code-editor-column")),
        ("highlight", top(".code-editor-mark.highlight")),
    ] {
        assert!((at - line).abs() < 0.5, "{name} at {at}, line at {line}");
    }
    let height = |selector: &str| find(&root, selector).get_bounding_client_rect().height();
    assert_eq!(height(".code-editor-number.error-line"), 20.0);
    assert_eq!(height(".code-editor-mark.highlight"), 40.0);
    // Column 8 is 7 cells in, after the padding (12px), less the horizontal scroll.
    let column = find(&root, ".code-editor-column").get_bounding_client_rect();
    let left = area.get_bounding_client_rect().left() + 12.0 + 7.0 * column.width() - 50.0;
    assert!(
        (column.left() - left).abs() < 0.5,
        "column at {}, expected {left}",
        column.left()
    );
    // The browser's own scroll event (after a frame) moves them too.
    area.set_scroll_top(100);
    let gutter = find(&root, ".code-editor-numbers");
    for _ in 0..50 {
        gloo::timers::future::TimeoutFuture::new(10).await;
        if gutter.get_attribute("style").as_deref() == Some("transform: translateY(-100px)") {
            return;
        }
    }
    panic!(
        "the gutter did not follow: {:?}",
        gutter.get_attribute("style")
    );
}

#[wasm_bindgen_test]
async fn the_editor_has_a_fixed_height_and_fills_its_container() {
    let (root, mut handle) = mount(props("a"));
    rendered().await;
    let editor: HtmlElement = find(&root, ".code-editor").unchecked_into();
    let (width, height) = (editor.offset_width(), editor.offset_height());
    assert_eq!(width, 480);
    assert!(height > 200, "height {height}");
    handle.update(props(&"line\n".repeat(200)));
    rendered().await;
    assert_eq!(
        (editor.offset_width(), editor.offset_height()),
        (width, height)
    );
}

#[wasm_bindgen_test]
async fn a_text_of_200_000_lines_keeps_a_window_of_numbers_in_line() {
    let text = "a: 1\n".repeat(200_000);
    let (root, _handle) = mount(CodeEditorProps {
        error_at: Some((100_001, 1)),
        ..props(&text)
    });
    rendered().await;
    let shown = numbers(&root);
    assert_eq!(shown.len(), 1_000, "a window of numbers, not all of them");
    assert_eq!(shown.first().map(String::as_str), Some("1"));
    let area = area(&root);
    area.set_scroll_top(100_000 * 20);
    dispatch(&area, "scroll");
    rendered().await;
    let shown = numbers(&root);
    assert!(shown.len() <= 1_000, "{}", shown.len());
    assert!(
        shown.contains(&"100001".to_string()),
        "the visible lines have their numbers"
    );
    let number = find(&root, ".code-editor-number.error-line");
    assert_eq!(number.text_content().as_deref(), Some("100001"));
    let mark = find(&root, ".code-editor-mark.error-line");
    let top = |element: &Element| element.get_bounding_client_rect().top();
    assert!(
        (top(&number) - top(&mark)).abs() < 0.5,
        "number at {}, mark at {}",
        top(&number),
        top(&mark)
    );
}
