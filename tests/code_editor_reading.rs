//! The code editor in headless Chromium, reading the page: the text and the caret
//! as the browser leaves them after its edits, and texts written in blocks of lines
//! read back whole.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::components::code_editor::{read_node, BLOCK_LINES};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::code_editor::{area, blocks, mount, numbers, props, value};
use common::dom::rendered;
use web_sys::HtmlElement;

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
