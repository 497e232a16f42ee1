//! The code editor mounted in headless Chromium under a parent that keeps its text:
//! typing, pasting and undoing as the browser does them, read back block by block,
//! with the caret kept where it belongs.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::components::code_editor::BLOCK_LINES;
use gitops_playground::ui::components::CodeEditor;
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::code_editor::{
    area, blocks, container, next_frame, numbered_lines, numbers, one_to, press_chord, value,
};
use common::dom::{dispatch, find, paste_event, rendered};
use gitops_core::text::bytes::common_ends;
use gitops_core::text::edit::{SharedText, TypedText};
use gitops_playground::ui::ptr_eq::SameText;
use web_sys::{Element, HtmlDocument, HtmlElement};
use yew::prelude::*;

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
    selection
        .extend_with_offset(&blocks(&area)[2].first_child().unwrap(), 4)
        .unwrap();
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
