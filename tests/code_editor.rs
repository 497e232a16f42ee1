//! The code editor, mounted alone in headless Chromium.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::components::code_editor::{read_node, CodeEditorProps, BLOCK_LINES};
use gitops_playground::ui::components::CodeEditor;
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::dom::{all, dispatch, find, paste_event, rendered, texts};
use gitops_playground::ui::ptr_eq::SameText;
use gitops_core::text::bytes::common_ends;
use gitops_core::text::edit::{SharedText, TypedText};
use std::rc::Rc;
use web_sys::{Element, HtmlDocument, HtmlElement, KeyboardEvent, KeyboardEventInit, Node};
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

fn mount(props: CodeEditorProps) -> (Element, AppHandle<CodeEditor>) {
    let root = container();
    let handle = yew::Renderer::<CodeEditor>::with_root_and_props(root.clone(), props).render();
    (root, handle)
}

fn area(root: &Element) -> HtmlElement {
    find(root, ".code-editor-input").unchecked_into()
}

/// The text the editor shows, read as the editor reads it.
fn value(area: &HtmlElement) -> String {
    read_node(area, None).text
}

/// The editor's blocks of lines.
fn blocks(area: &HtmlElement) -> Vec<Node> {
    let children = area.child_nodes();
    (0..children.length())
        .filter_map(|index| children.item(index))
        .collect()
}

/// Puts the caret in the `block`th block at UTF-16 `offset` (a text node's), with the
/// focus in the editor, and lets a frame pass: the browser lays out a block that was
/// off screen once the selection is in it, as it does before a person's keystroke.
async fn place_caret(area: &HtmlElement, block: usize, offset: u32) {
    area.focus().unwrap();
    let block = &blocks(area)[block];
    block.unchecked_ref::<Element>().scroll_into_view();
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection
        .collapse_with_offset(Some(&block.first_child().unwrap()), offset)
        .unwrap();
    next_frame().await;
}

/// Pastes `text` as the browser sends a paste to the page.
fn paste(area: &HtmlElement, text: &str) {
    assert!(
        !paste_event(area, text),
        "the editor pastes, not the browser"
    );
}

/// A few frames' time (headless Chromium draws 60 frames a second).
async fn next_frame() {
    gloo::timers::future::TimeoutFuture::new(50).await;
}

/// Has the browser edit as a person's keystroke does (insertText, delete,
/// insertLineBreak, undo...): it changes the page its own way and sends input events.
fn edit(command: &str, value: &str) {
    let document: HtmlDocument = gloo::utils::document().unchecked_into();
    assert!(
        document
            .exec_command_with_show_ui_and_value(command, false, value)
            .unwrap(),
        "{command} did nothing"
    );
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
async fn the_editor_is_a_labelled_plain_text_field() {
    let (root, mut handle) = mount(props("a\tb"));
    rendered().await;
    let area = area(&root);
    assert_eq!(area.id(), "editor");
    assert_eq!(value(&area), "a\tb");
    for (name, value) in [
        ("role", "textbox"),
        ("aria-multiline", "true"),
        ("aria-labelledby", "editor-label"),
        ("contenteditable", "plaintext-only"),
        ("spellcheck", "false"),
        ("autocapitalize", "off"),
    ] {
        assert_eq!(area.get_attribute(name).as_deref(), Some(value), "{name}");
    }
    assert_eq!(area.get_attribute("aria-invalid"), None);
    assert_eq!(area.get_attribute("aria-describedby"), None);
    assert!(area.is_content_editable());
    handle.update(CodeEditorProps {
        readonly: true,
        ..props("a\tb")
    });
    rendered().await;
    assert!(!area.is_content_editable());
    assert_eq!(area.get_attribute("aria-readonly").as_deref(), Some("true"));
    assert_eq!(
        area.tab_index(),
        0,
        "a read-only text is still reached by keyboard"
    );
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
    /// For each text typed: none when the editor said nothing of how it was made,
    /// else whether what it said is right: made from the parent's text, and with the
    /// ends the two texts share where a compare of them whole finds them.
    static EDITS: RefCell<Vec<Option<bool>>> = const { RefCell::new(Vec::new()) };
}

#[wasm_bindgen_test]
async fn typing_sends_the_whole_text_and_the_gutter_follows() {
    let (root, area) = mount_keeper("first").await;
    assert_eq!(numbers(&root), one_to(1));
    place_caret(&area, 0, 5).await;
    edit("insertLineBreak", "");
    edit("insertText", "\tsecond  ");
    edit("insertLineBreak", "");
    edit("insertLineBreak", "");
    edit("insertText", "fourth");
    edit("insertLineBreak", "");
    rendered().await;
    let typed = "first\n\tsecond  \n\nfourth\n";
    TYPED.with(|log| assert_eq!(log.borrow().last().map(String::as_str), Some(typed)));
    assert_eq!(value(&area), typed);
    assert_eq!(numbers(&root), one_to(5));
}

/// A parent that keeps what is typed, except that typing `undo` puts back the text
/// it had before, and a button that replaces the text.
#[function_component(Rewriter)]
fn rewriter() -> Html {
    let text = use_state(|| SharedText::from("first"));
    let on_input = {
        let text = text.clone();
        Callback::from(move |typed: TypedText| {
            if typed.text.ends_with("undo") {
                text.set("first".into());
            } else {
                text.set(typed.text);
            }
        })
    };
    let replace = {
        let text = text.clone();
        Callback::from(move |_| text.set("replaced".into()))
    };
    html! {
        <>
            <CodeEditor id="rewritten" labelled_by="rewritten-label" text={SameText::from((*text).clone())} {on_input} />
            <button onclick={replace}>{ "Replace" }</button>
        </>
    }
}

/// A component rendered by `render` into a fresh container: the container and the
/// editor's editable element.
async fn mounted(render: impl FnOnce(Element)) -> (Element, HtmlElement) {
    let root = container();
    render(root.clone());
    rendered().await;
    let area = area(&root);
    (root, area)
}

async fn mount_rewriter() -> (Element, HtmlElement) {
    mounted(|root| drop(yew::Renderer::<Rewriter>::with_root(root).render())).await
}

#[wasm_bindgen_test]
async fn the_editor_shows_the_parent_s_text_and_keeps_the_caret_in_what_was_typed() {
    let (root, area) = mount_rewriter().await;
    assert_eq!(value(&area), "first");
    let typed_into = blocks(&area)[0].first_child().unwrap();

    place_caret(&area, 0, 5).await;
    edit("insertText", " line");
    rendered().await;
    assert_eq!(value(&area), "first line");
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    assert_eq!(
        (selection.focus_node(), selection.focus_offset()),
        (Some(typed_into), 10),
        "the caret stays where it was, in the text typed into"
    );

    edit("insertText", " undo");
    rendered().await;
    assert_eq!(
        value(&area),
        "first",
        "the parent's text, not what was typed"
    );

    find(&root, "button")
        .unchecked_into::<HtmlElement>()
        .click();
    rendered().await;
    assert_eq!(value(&area), "replaced");
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
    // On screen, as the page's editors are: the browser lays out the blocks on screen.
    root.scroll_into_view();
    next_frame().await;
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
    // Line 30 of the text: its top, the padding (12px), 29 lines of 20px, less the scroll.
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
    // Column 8 is 7 cells in, after the padding (12px), less the horizontal scroll; the
    // underline is as many cells wide as it holds blanks.
    let column = find(&root, ".code-editor-column").get_bounding_client_rect();
    let squiggle = find(&root, ".code-editor-squiggle");
    let cells = squiggle.text_content().unwrap_or_default().chars().count();
    assert!(cells >= 1);
    let cell = squiggle.get_bounding_client_rect().width() / cells as f64;
    let left = area.get_bounding_client_rect().left() + 12.0 + 7.0 * cell - 50.0;
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

/// An element holding `html`, to read as the editor reads its root.
fn holding(html: &str) -> HtmlElement {
    let element: HtmlElement = gloo::utils::document()
        .create_element("div")
        .unwrap()
        .unchecked_into();
    element.set_inner_html(html);
    element
}

#[wasm_bindgen_test]
fn the_text_reads_as_the_browser_shows_it() {
    // The shapes Chromium leaves after Enter, Backspace at a block's start, a paste of
    // two lines, select-all and delete, select-all and type.
    for (html, text) in [
        ("<div>a1\na2</div><div>b1\nb2</div>", "a1\na2\nb1\nb2"),
        ("<div>a1\na2\n\n</div><div>b1</div>", "a1\na2\n\nb1"),
        ("<div>c1\n\n\n</div>", "c1\n\n"),
        ("<div>a1\na2b1</div><div>b2</div>", "a1\na2b1\nb2"),
        ("<div>ap1</div><div>p21\na2</div>", "ap1\np21\na2"),
        ("<br>", ""),
        ("q", "q"),
        ("<div>Z</div>", "Z"),
        ("<div>x<br></div><div>y</div>", "x\ny"),
        ("<div><br></div><div>y</div>", "\ny"),
        ("<div>x<br>y</div>", "x\ny"),
        ("<div></div><div>y</div><div></div>", "y"),
        ("<div>\n</div>", ""),
        ("<div>\n</div><div>\n</div>", "\n"),
        ("a<div>b</div>c", "a\nb\nc"),
        ("<div><span>s</span>t</div>", "st"),
        ("<div>&lt;b&gt;</div>", "<b>"),
    ] {
        assert_eq!(read_node(&holding(html), None).text, text, "{html:?}");
    }
}

#[wasm_bindgen_test]
fn the_caret_reads_as_a_byte_offset_in_the_text() {
    let element = holding("<div>ab\ncd</div><div>é😀f</div>");
    let second = element.child_nodes().item(1).unwrap();
    let text = second.first_child().unwrap();
    // "é😀" is three UTF-16 units and six bytes.
    let read = read_node(&element, Some(&(text, 3)));
    assert_eq!(read.text, "ab\ncd\né😀f");
    assert_eq!(&read.text[..read.caret.unwrap()], "ab\ncd\né😀");
    let between = read_node(&element, Some(&(element.clone().into(), 1)));
    assert_eq!(between.caret, Some("ab\ncd\n".len()));
}

#[wasm_bindgen_test]
async fn written_texts_read_back_whole_in_blocks_of_lines() {
    let long = (1..=450)
        .map(|line| format!("line {line}\n"))
        .collect::<String>();
    let texts = [
        String::new(),
        "\n".to_string(),
        "a\n".to_string(),
        "a\r\nb\rc".to_string(),
        "\n".repeat(BLOCK_LINES),
        "x\n".repeat(BLOCK_LINES),
        long.clone(),
        format!("{long}\n\n"),
        "<script>alert(1)</script>\n&amp;".to_string(),
    ];
    let (root, mut handle) = mount(props(""));
    for text in texts {
        handle.update(props(&text));
        rendered().await;
        let area = area(&root);
        let expected = text.replace("\r\n", "\n").replace('\r', "\n");
        assert_eq!(value(&area), expected, "{text:?}");
        let lines = expected.split('\n').count();
        assert_eq!(blocks(&area).len(), lines.div_ceil(BLOCK_LINES), "{text:?}");
        assert_eq!(numbers(&root).len(), lines.min(1_000), "{text:?}");
        let shown = area.get_bounding_client_rect();
        assert!(shown.height() > 0.0);
    }
    assert_eq!(
        area(&root).query_selector("script").unwrap(),
        None,
        "markup stays text"
    );
}

/// A parent that owns the text and keeps what is typed, as the page does, starting
/// from `text`.
#[derive(Properties, PartialEq)]
struct KeeperProps {
    text: AttrValue,
}

#[function_component(Keeper)]
fn keeper(props: &KeeperProps) -> Html {
    let text = use_state(|| SharedText::from(props.text.as_str()));
    let on_input = {
        let text = text.clone();
        Callback::from(move |typed: TypedText| {
            TYPED.with(|log| log.borrow_mut().push(typed.text.to_string()));
            let edit_right = typed.edit.as_ref().map(|edit| {
                edit.before.same(&text)
                    && edit.common_ends(&typed.text)
                        == Some(common_ends(text.as_bytes(), typed.text.as_bytes()))
            });
            EDITS.with(|log| log.borrow_mut().push(edit_right));
            text.set(typed.text);
        })
    };
    html! { <CodeEditor id="kept" labelled_by="kept-label" text={SameText::from((*text).clone())} {on_input} /> }
}

async fn mount_keeper(text: &str) -> (Element, HtmlElement) {
    let props = KeeperProps {
        text: text.to_string().into(),
    };
    mounted(|root| drop(yew::Renderer::<Keeper>::with_root_and_props(root, props).render())).await
}

/// Asserts that two long texts are equal, showing where they part.
fn assert_same_text(actual: &str, expected: &str, what: &str) {
    if actual == expected {
        return;
    }
    let at = actual
        .bytes()
        .zip(expected.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(actual.len().min(expected.len()));
    let around = |text: &str| {
        text[at.saturating_sub(40).min(text.len())..(at + 40).min(text.len())].to_string()
    };
    panic!(
        "{what}: the texts part at byte {at} (lengths {} and {}): {:?} where {:?} was expected",
        actual.len(),
        expected.len(),
        around(actual),
        around(expected)
    );
}

fn last_typed() -> String {
    TYPED.with(|log| log.borrow().last().cloned().unwrap_or_default())
}

fn numbered_lines(count: usize) -> Vec<String> {
    (1..=count).map(|line| format!("line {line}")).collect()
}

#[wasm_bindgen_test]
async fn typing_in_a_large_text_changes_one_block_and_reads_right() {
    let mut lines = numbered_lines(1_000);
    let (_, area) = mount_keeper(&lines.join("\n")).await;
    let before = blocks(&area);
    assert_eq!(before.len(), 5);
    EDITS.with(|log| log.borrow_mut().clear());
    // Line 401 starts block 2 (from 0); "line 401" is 8 units.
    place_caret(&area, 2, 8).await;
    edit("insertText", "!");
    edit("insertLineBreak", "");
    edit("insertText", "new");
    rendered().await;
    lines[400] = "line 401!\nnew".to_string();
    assert_same_text(&last_typed(), &lines.join("\n"), "typed into one block");
    // A letter typed over another: the texts part at it and meet again right after it.
    place_caret(&area, 2, 3).await;
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection.extend_with_offset(&blocks(&area)[2].first_child().unwrap(), 4).unwrap();
    edit("insertText", "E");
    rendered().await;
    lines[400] = "linE 401!\nnew".to_string();
    assert_same_text(&last_typed(), &lines.join("\n"), "typed over a letter");
    assert_eq!(
        EDITS.with(|log| log.borrow().clone()),
        [Some(true); 4],
        "each keystroke says, rightly, which block of the last text it replaced"
    );
    let after = blocks(&area);
    assert!(
        before
            .iter()
            .zip(&after)
            .all(|(old, new)| old.is_same_node(Some(new))),
        "the browser kept every block"
    );
    // Backspace at the start of a block joins it to the one before: two blocks change.
    place_caret(&area, 3, 0).await;
    edit("delete", "");
    rendered().await;
    let joined = lines
        .join("\n")
        .replacen("line 600\nline 601", "line 600line 601", 1);
    assert_same_text(&last_typed(), &joined, "joined two blocks");
    assert_same_text(&value(&area), &joined, "the page shows the joined blocks");
    // Undo is the browser's: it puts back the line break.
    edit("undo", "");
    rendered().await;
    assert_same_text(&last_typed(), &lines.join("\n"), "undone");
}

/// Sets the text of a block's first text node, as the browser's editing does.
fn set_block_text(area: &HtmlElement, block: usize, from: &str, to: &str) {
    let text = blocks(area)[block].first_child().expect("a text node");
    let value = text.node_value().unwrap_or_default();
    text.set_node_value(Some(&value.replacen(from, to, 1)));
}

#[wasm_bindgen_test]
async fn changes_seen_before_the_input_event_are_read_too() {
    // Another listener that runs before the editor's input handler lets the browser
    // deliver the mutations seen so far: the editor must still know every block that
    // changed, or it would read the last one alone and lose the others.
    let mut lines = numbered_lines(1_000);
    let (_, area) = mount_keeper(&lines.join("\n")).await;
    set_block_text(&area, 1, "line 201", "line 201 early");
    gloo::timers::future::TimeoutFuture::new(0).await;
    set_block_text(&area, 3, "line 601", "line 601 late");
    dispatch(&area, "input");
    rendered().await;
    lines[200] = "line 201 early".to_string();
    lines[600] = "line 601 late".to_string();
    assert_same_text(&last_typed(), &lines.join("\n"), "both blocks read");
    // One block changed and delivered before the input event: that block is read.
    set_block_text(&area, 4, "line 999", "line 999 alone");
    gloo::timers::future::TimeoutFuture::new(0).await;
    dispatch(&area, "input");
    rendered().await;
    lines[998] = "line 999 alone".to_string();
    assert_same_text(&last_typed(), &lines.join("\n"), "the one block read");
}

#[wasm_bindgen_test]
async fn the_gutter_counts_the_lines_of_each_edit_in_blocks() {
    let (root, area) = mount_keeper(&numbered_lines(300).join("\n")).await;
    assert_eq!(blocks(&area).len(), 2);
    assert_eq!(numbers(&root), one_to(300));
    // A line break in the second block: that block alone is read again.
    place_caret(&area, 1, 3).await;
    edit("insertLineBreak", "");
    edit("insertLineBreak", "");
    rendered().await;
    assert_eq!(numbers(&root), one_to(302), "two lines more");
    // Backspace at the start of the second block joins it to the first.
    place_caret(&area, 1, 0).await;
    edit("delete", "");
    rendered().await;
    assert_eq!(last_typed().split('\n').count(), 301);
    assert_eq!(numbers(&root), one_to(301), "one line less");
    edit("undo", "");
    rendered().await;
    assert_eq!(numbers(&root), one_to(302), "undone");
}

#[wasm_bindgen_test]
async fn a_large_paste_is_written_in_blocks_again_with_the_caret_after_it() {
    let (_, area) = mount_keeper("start\nend").await;
    place_caret(&area, 0, 6).await;
    let pasted = numbered_lines(1_000).join("\n") + "\r\n";
    paste(&area, &pasted);
    let pasted = pasted.replace("\r\n", "\n");
    rendered().await;
    let text = format!("start\n{pasted}end");
    assert_same_text(&last_typed(), &text, "the paste is read");
    assert_same_text(&value(&area), &text, "the page shows the paste");
    let written = blocks(&area);
    assert_eq!(written.len(), 1_002_usize.div_ceil(BLOCK_LINES));
    assert!(written.iter().all(|block| block.node_name() == "DIV"));
    next_frame().await;
    edit("insertText", "X");
    rendered().await;
    assert_same_text(
        &last_typed(),
        &format!("start\n{pasted}Xend"),
        "the caret stayed after the paste",
    );
}

#[wasm_bindgen_test]
async fn undo_stops_at_a_text_the_parent_wrote() {
    let (root, area) = mount_rewriter().await;
    place_caret(&area, 0, 5).await;
    edit("insertText", "!");
    edit("insertParagraph", "");
    edit("insertText", "two");
    rendered().await;
    assert_eq!(value(&area), "first!\ntwo");
    find(&root, "button")
        .unchecked_into::<HtmlElement>()
        .click();
    rendered().await;
    area.focus().unwrap();
    let document: HtmlDocument = gloo::utils::document().unchecked_into();
    for _ in 0..4 {
        let _ = document.exec_command_with_show_ui_and_value("undo", false, "");
        rendered().await;
    }
    assert_eq!(
        value(&area),
        "replaced",
        "the typing before it is not undone into it"
    );
    assert_eq!(blocks(&area).len(), 1);
}

#[wasm_bindgen_test]
async fn a_paste_without_text_changes_nothing() {
    let (_, area) = mount_keeper("kept").await;
    place_caret(&area, 0, 0).await;
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection.select_all_children(&area).unwrap();
    TYPED.with(|log| log.borrow_mut().clear());
    paste(&area, "");
    rendered().await;
    assert_eq!(value(&area), "kept");
    assert!(
        TYPED.with(|log| log.borrow().is_empty()),
        "nothing was sent"
    );
}

/// Presses Ctrl+Shift and the key of `code` (BracketLeft, BracketRight) in `element`.
fn press_chord(element: &Element, code: &str) {
    let init = KeyboardEventInit::new();
    init.set_code(code);
    init.set_key(if code == "BracketLeft" { "{" } else { "}" });
    init.set_ctrl_key(true);
    init.set_shift_key(true);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    assert!(!element.dispatch_event(&event).unwrap(), "the editor takes {code}");
}

#[wasm_bindgen_test]
async fn an_object_folds_to_its_first_line_stays_folded_when_the_text_changes_and_unfolds() {
    use gitops_page::{DriftMark, MarkKind, PaneMarks};
    // Objects of four lines each after `above` lines, and a drift mark inside the second.
    let marked = |above: usize| {
        let objects = ["a", "b", "c"].iter().enumerate().map(|(at, key)| (key.to_string(), above + 4 * at..above + 4 * at + 4)).collect();
        let drift = vec![DriftMark { lines: above + 6..above + 7, kind: MarkKind::Changed, key: "b".into(), field: Some("/x".into()) }];
        Rc::new(PaneMarks { drift, ignored: Vec::new(), objects })
    };
    let text = |above: usize| numbered_lines(above + 13).join("\n");
    let (root, mut handle) = mount(CodeEditorProps { marks: marked(1), ..props(&text(1)) });
    rendered().await;
    let area = area(&root);
    let arrows = || all(&root, ".code-editor-fold").iter().map(|arrow| arrow.get_attribute("title").unwrap_or_default()).collect::<Vec<_>>();
    assert_eq!(arrows(), ["Fold a", "Fold b", "Fold c"]);
    let arrow = |title: &str| all(&root, ".code-editor-fold").into_iter().find(|arrow| arrow.get_attribute("title").as_deref() == Some(title)).unwrap_or_else(|| panic!("no arrow {title}: {:?}", arrows()));
    arrow("Fold b").unchecked_into::<HtmlElement>().click();
    rendered().await;
    let shown = |lines: &[usize]| lines.iter().map(usize::to_string).collect::<Vec<_>>();
    assert_eq!(numbers(&root), shown(&[1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14]), "the first line of b stays, its other three go");
    assert_eq!(value(&area), text(1), "folded lines are still the text's");
    let hidden = all(&area, ".code-editor-block[hidden]");
    assert_eq!(hidden.len(), 1);
    assert_eq!(hidden[0].text_content().unwrap(), "line 7\nline 8\nline 9");
    assert!(arrow("Unfold lines 7 to 9").get_attribute("class").unwrap_or_default().contains("folded"));
    assert_eq!(
        find(&root, ".code-editor-drift-mark").get_attribute("style").as_deref(),
        Some("top: calc(var(--code-editor-line) * 5)"),
        "a mark inside the fold is on its first line's row"
    );

    // A new text from the parent, with a line more above: b is folded where it now is.
    handle.update(CodeEditorProps { marks: marked(2), ..props(&text(2)) });
    rendered().await;
    assert_eq!(numbers(&root), shown(&[1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15]));
    assert_eq!(value(&area), text(2));

    // The keyboard: Ctrl+Shift+] on b's first line unfolds it, Ctrl+Shift+[ inside c folds c.
    let first_block = blocks(&area)[0].clone();
    let before_fold = first_block.text_content().unwrap().encode_utf16().count() as u32;
    area.focus().unwrap();
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection.collapse_with_offset(first_block.first_child().as_ref(), before_fold).unwrap();
    press_chord(&area, "BracketRight");
    rendered().await;
    assert_eq!(numbers(&root), one_to(15));
    assert!(all(&area, ".code-editor-block[hidden]").is_empty());
    let block = blocks(&area)[0].clone();
    let line_12 = block.text_content().unwrap().find("line 12").unwrap() as u32;
    selection.collapse_with_offset(block.first_child().as_ref(), line_12 + 2).unwrap();
    press_chord(&area, "BracketLeft");
    rendered().await;
    assert_eq!(numbers(&root), shown(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15]), "c (lines 11 to 14) folds from the caret in its line 12");
    let focus = selection.focus_node().unwrap();
    assert!(!focus.parent_element().is_some_and(|block| block.has_attribute("hidden")), "the caret is not left in the folded lines");
}

// The page may show a text other than the editor's: a change not yet read (see
// `changes_seen_before_the_input_event_are_read_too`), or carriage returns that writing the
// text turns into line breaks. An offset read from the page then need not fall between two
// characters of the editor's text. Here it falls inside its `€` (three bytes).

/// An editor of `€ ok` whose page shows `a€ ok`, not yet read, with the caret
/// after the `a`: the page's byte 1, inside the editor's `€`.
async fn caret_in_a_change_not_yet_read() -> HtmlElement {
    let (_, area) = mount_keeper("€ ok").await;
    set_block_text(&area, 0, "€", "a€");
    place_caret(&area, 0, 1).await;
    area
}

#[wasm_bindgen_test]
async fn a_fold_key_at_a_caret_in_a_change_not_yet_read_leaves_the_editor_working() {
    let area = caret_in_a_change_not_yet_read().await;
    press_chord(&area, "BracketLeft");
    rendered().await;
    dispatch(&area, "input");
    rendered().await;
    assert_eq!(last_typed(), "a€ ok", "the change is read");
}

#[wasm_bindgen_test]
async fn a_paste_at_a_caret_in_a_change_not_yet_read_goes_before_the_character() {
    let area = caret_in_a_change_not_yet_read().await;
    paste(&area, "b");
    rendered().await;
    assert_eq!(last_typed(), "b€ ok");
}

#[wasm_bindgen_test]
async fn a_caret_after_carriage_returns_is_placed_in_the_text_written_again() {
    let (_, area) = mount_keeper("start").await;
    // More lines than blocks of the right size hold, so the text is written again, its
    // line breaks normalized: 500 bytes shorter before the caret, after 300 of the `€`.
    let text = "\r\n".repeat(500) + &"€".repeat(1_000);
    set_block_text(&area, 0, "start", &text);
    place_caret(&area, 0, 1_000 + 300).await;
    dispatch(&area, "input");
    rendered().await;
    assert_same_text(
        &last_typed(),
        &("\n".repeat(500) + &"€".repeat(1_000)),
        "the text is read",
    );
    assert_eq!(blocks(&area).len(), 3, "written again in blocks");
}
