//! The page mounted in headless Chromium, at the keyboard: its shortcuts, where focus
//! goes, and the help and the Share panel as dialogs that Esc closes.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

mod common;

use common::dom::{find, rendered};
use common::page::{button, cards, dialog, focus, mount, started, until};
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit};

/// Presses `key` with focus on `target` (Ctrl held with `ctrl`), as the browser
/// sends it: bubbling and cancelable. The event says whether a listener cancelled it.
fn press(target: &Element, key: &str, ctrl: bool) -> KeyboardEvent {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_ctrl_key(ctrl);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&event).unwrap();
    event
}

fn focused() -> Element {
    gloo::utils::document()
        .active_element()
        .expect("a focused element")
}

#[wasm_bindgen_test]
async fn ctrl_enter_steps_and_keeps_the_browser_from_acting_on_it() {
    let root = mount();
    rendered().await;
    let body = gloo::utils::document().body().unwrap();
    let event = press(&body, "Enter", true);
    assert!(event.default_prevented(), "the listener may cancel the key");
    rendered().await;
    assert_eq!(cards(&root), ["delete debug (done)", "update web"]);
}

#[wasm_bindgen_test]
async fn question_mark_on_a_checkbox_opens_the_help_with_focus_in_it_and_esc_closes_it() {
    let root = mount();
    rendered().await;
    let (prune, _) = help_from_a_checkbox(&root).await;
    press(&focused(), "Escape", false);
    rendered().await;
    assert!(
        dialog(&root, "Keyboard shortcuts").is_none(),
        "Esc closes it"
    );
    assert!(
        focused().is_same_node(Some(&prune)),
        "focus returns to the checkbox"
    );
}

#[wasm_bindgen_test]
async fn question_mark_in_a_text_field_is_a_character() {
    let root = mount();
    rendered().await;
    let ignore = focus(&find(&root, "#ignore-rules"));
    press(&ignore, "?", false);
    rendered().await;
    assert!(dialog(&root, "Keyboard shortcuts").is_none());
    assert!(focused().is_same_node(Some(&ignore)));
}

#[wasm_bindgen_test]
async fn closing_the_help_gives_focus_back_to_the_help_button() {
    let root = mount();
    rendered().await;
    let help_button = focus(&button(&root, "Help"));
    help_button.click();
    rendered().await;
    let help = dialog(&root, "Keyboard shortcuts").expect("the help opens");
    assert!(help.contains(Some(&focused())), "focus moves into the help");
    let close = focus(&button(&root, "Close help"));
    press(&close, "Escape", false);
    rendered().await;
    assert!(
        dialog(&root, "Keyboard shortcuts").is_none(),
        "Esc on Close help closes it"
    );
    assert!(focused().is_same_node(Some(&help_button)));
    help_button.click();
    rendered().await;
    focus(&button(&root, "Close help")).click();
    rendered().await;
    assert!(dialog(&root, "Keyboard shortcuts").is_none());
    assert!(
        focused().is_same_node(Some(&help_button)),
        "Close help gives focus back too"
    );
}

#[wasm_bindgen_test]
async fn the_help_opens_in_view_of_a_page_scrolled_down() {
    let root = mount();
    rendered().await;
    let spacer = gloo::utils::document().create_element("div").unwrap();
    spacer.set_attribute("style", "height: 10000px").unwrap();
    root.append_child(&spacer).unwrap();
    let window = gloo::utils::window();
    window.scroll_to_with_x_and_y(0.0, 8000.0);
    let body = gloo::utils::document().body().unwrap();
    press(&body, "?", false);
    rendered().await;
    let help = dialog(&root, "Keyboard shortcuts").expect("the help opens");
    let place = help.get_bounding_client_rect();
    let height = window.inner_height().unwrap().as_f64().unwrap();
    assert!(
        place.top() >= 0.0 && place.bottom() <= height,
        "the help is in view: from {} to {} of {height}",
        place.top(),
        place.bottom()
    );
    window.scroll_to_with_x_and_y(0.0, 0.0);
}

#[wasm_bindgen_test]
async fn the_share_panel_takes_focus_and_esc_closes_it_and_gives_focus_back() {
    let root = mount();
    started(&root).await;
    let share = focus(&button(&root, "Share"));
    share.click();
    rendered().await;
    let panel = dialog(&root, "Share").expect("the share panel opens");
    assert!(
        panel.contains(Some(&focused())),
        "focus moves into the panel"
    );
    // The browser deflates the link: it shows once that is done.
    until(
        || panel.query_selector("#share-link").ok().flatten().is_some(),
        true,
    )
    .await;
    let link = focus(&find(&panel, "#share-link"));
    press(&link, "Escape", false);
    rendered().await;
    assert!(dialog(&root, "Share").is_none(), "Esc closes it");
    assert!(focused().is_same_node(Some(&share)));
}

#[wasm_bindgen_test]
async fn esc_closes_the_help_after_focus_left_it_and_leaves_focus_where_it_went() {
    let root = mount();
    rendered().await;
    let (_, help) = help_from_a_checkbox(&root).await;
    // The help is not modal: Tab moves on from it to the page's controls.
    let step = focus(&button(&root, "Step"));
    assert!(!help.contains(Some(&focused())));
    press(&step, "Escape", false);
    rendered().await;
    assert!(
        dialog(&root, "Keyboard shortcuts").is_none(),
        "Esc closes it with focus outside it"
    );
    assert!(
        focused().is_same_node(Some(&step)),
        "focus stays on the control it moved to"
    );
}

#[wasm_bindgen_test]
async fn esc_in_an_editor_leaves_it_first_and_the_next_esc_closes_the_help() {
    let root = mount();
    rendered().await;
    let help_button = focus(&button(&root, "Help"));
    help_button.click();
    rendered().await;
    assert!(
        dialog(&root, "Keyboard shortcuts").is_some(),
        "the help opens"
    );
    let editor = focus(&find(&root, "#desired-state"));
    press(&editor, "Escape", false);
    rendered().await;
    assert!(
        dialog(&root, "Keyboard shortcuts").is_some(),
        "the first Esc leaves the editor"
    );
    assert!(!focused().is_same_node(Some(&editor)));
    press(&focused(), "Escape", false);
    rendered().await;
    assert!(
        dialog(&root, "Keyboard shortcuts").is_none(),
        "the next Esc closes the help"
    );
    assert!(
        focused().is_same_node(Some(&help_button)),
        "focus returns to the button that opened it"
    );
}

#[wasm_bindgen_test]
async fn esc_closes_the_share_panel_after_focus_left_it() {
    let root = mount();
    started(&root).await;
    let share = focus(&button(&root, "Share"));
    share.click();
    rendered().await;
    let panel = dialog(&root, "Share").expect("the share panel opens");
    assert!(panel.contains(Some(&focused())));
    let step = focus(&button(&root, "Step"));
    press(&step, "Escape", false);
    rendered().await;
    assert!(dialog(&root, "Share").is_none(), "Esc closes it");
    assert!(focused().is_same_node(Some(&step)));
}

#[wasm_bindgen_test]
async fn with_both_dialogs_open_esc_closes_one_at_a_time() {
    let root = mount();
    started(&root).await;
    focus(&button(&root, "Help")).click();
    rendered().await;
    let share = focus(&button(&root, "Share"));
    share.click();
    rendered().await;
    let panel = dialog(&root, "Share").expect("the share panel opens");
    assert!(panel.contains(Some(&focused())));
    assert!(dialog(&root, "Keyboard shortcuts").is_some());
    press(&focused(), "Escape", false);
    rendered().await;
    assert!(
        dialog(&root, "Share").is_none(),
        "Esc in it closes the Share panel"
    );
    assert!(dialog(&root, "Keyboard shortcuts").is_some(), "and only it");
    assert!(focused().is_same_node(Some(&share)));
    press(&share, "Escape", false);
    rendered().await;
    assert!(
        dialog(&root, "Keyboard shortcuts").is_none(),
        "the next Esc closes the help"
    );
}

/// Presses `?` on the Prune checkbox: the checkbox and the help it opens,
/// checked to have taken focus.
async fn help_from_a_checkbox(root: &Element) -> (HtmlElement, Element) {
    let prune = focus(&find(root, "section.options input[type=checkbox]"));
    press(&prune, "?", false);
    rendered().await;
    let help = dialog(root, "Keyboard shortcuts").expect("the help opens");
    assert!(help.contains(Some(&focused())), "focus moves into the help");
    (prune, help)
}
