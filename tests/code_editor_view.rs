//! The code editor mounted alone in headless Chromium, as it shows a text: its
//! gutter of line numbers, the error and highlight marks, scrolling, its size, folds,
//! and the keys it leaves to the browser.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::components::code_editor::CodeEditorProps;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::code_editor::{
    area, blocks, mount, next_frame, numbered_lines, numbers, one_to, press_chord, props, value,
};
use common::dom::{all, dispatch, find, rendered, texts};
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit};

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

#[wasm_bindgen_test]
async fn an_object_folds_to_its_first_line_stays_folded_when_the_text_changes_and_unfolds() {
    use gitops_page::{DriftMark, MarkKind, PaneMarks};
    // Objects of four lines each after `above` lines, and a drift mark inside the second.
    let marked = |above: usize| {
        let objects = ["a", "b", "c"]
            .iter()
            .enumerate()
            .map(|(at, key)| (key.to_string(), above + 4 * at..above + 4 * at + 4))
            .collect();
        let drift = vec![DriftMark {
            lines: above + 6..above + 7,
            kind: MarkKind::Changed,
            key: "b".into(),
            field: Some("/x".into()),
            owners: Vec::new(),
        }];
        Rc::new(PaneMarks {
            drift,
            ignored: Vec::new(),
            objects,
        })
    };
    let text = |above: usize| numbered_lines(above + 13).join("\n");
    let (root, mut handle) = mount(CodeEditorProps {
        marks: marked(1),
        ..props(&text(1))
    });
    rendered().await;
    let area = area(&root);
    let arrows = || {
        all(&root, ".code-editor-fold")
            .iter()
            .map(|arrow| arrow.get_attribute("title").unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert_eq!(arrows(), ["Fold a", "Fold b", "Fold c"]);
    let arrow = |title: &str| {
        all(&root, ".code-editor-fold")
            .into_iter()
            .find(|arrow| arrow.get_attribute("title").as_deref() == Some(title))
            .unwrap_or_else(|| panic!("no arrow {title}: {:?}", arrows()))
    };
    arrow("Fold b").unchecked_into::<HtmlElement>().click();
    rendered().await;
    let shown = |lines: &[usize]| lines.iter().map(usize::to_string).collect::<Vec<_>>();
    assert_eq!(
        numbers(&root),
        shown(&[1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14]),
        "the first line of b stays, its other three go"
    );
    assert_eq!(value(&area), text(1), "folded lines are still the text's");
    let hidden = all(&area, ".code-editor-block[hidden]");
    assert_eq!(hidden.len(), 1);
    assert_eq!(hidden[0].text_content().unwrap(), "line 7\nline 8\nline 9");
    assert!(arrow("Unfold lines 7 to 9")
        .get_attribute("class")
        .unwrap_or_default()
        .contains("folded"));
    assert_eq!(
        find(&root, ".code-editor-drift-mark")
            .get_attribute("style")
            .as_deref(),
        Some("top: calc(var(--code-editor-line) * 5)"),
        "a mark inside the fold is on its first line's row"
    );

    // A new text from the parent, with a line more above: b is folded where it now is.
    handle.update(CodeEditorProps {
        marks: marked(2),
        ..props(&text(2))
    });
    rendered().await;
    assert_eq!(
        numbers(&root),
        shown(&[1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15])
    );
    assert_eq!(value(&area), text(2));

    // The keyboard: Ctrl+Shift+] on b's first line unfolds it, Ctrl+Shift+[ inside c folds c.
    let first_block = blocks(&area)[0].clone();
    let before_fold = first_block.text_content().unwrap().encode_utf16().count() as u32;
    area.focus().unwrap();
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection
        .collapse_with_offset(first_block.first_child().as_ref(), before_fold)
        .unwrap();
    press_chord(&area, "BracketRight");
    rendered().await;
    assert_eq!(numbers(&root), one_to(15));
    assert!(all(&area, ".code-editor-block[hidden]").is_empty());
    let block = blocks(&area)[0].clone();
    let line_12 = block.text_content().unwrap().find("line 12").unwrap() as u32;
    selection
        .collapse_with_offset(block.first_child().as_ref(), line_12 + 2)
        .unwrap();
    press_chord(&area, "BracketLeft");
    rendered().await;
    assert_eq!(
        numbers(&root),
        shown(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15]),
        "c (lines 11 to 14) folds from the caret in its line 12"
    );
    let focus = selection.focus_node().unwrap();
    assert!(
        !focus
            .parent_element()
            .is_some_and(|block| block.has_attribute("hidden")),
        "the caret is not left in the folded lines"
    );
}
