//! What the page's dialogs do with the keyboard: opening one moves focus into it,
//! Esc closes it, and closing it gives focus back to where it was.
//!
//! The dialogs (the help, the Share panel) are non-modal (`aria-modal="false"`):
//! they sit in the page, which stays usable beside them, so Tab may leave them. Esc
//! closes an open dialog wherever focus is, not only inside it.

use gloo::events::EventListener;
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, Node};
use yew::prelude::*;

/// The ids of the buttons that open the dialogs, where focus goes when a dialog
/// closes and nothing had focus before it opened.
pub const HELP_BUTTON: &str = "help-button";
pub const SHARE_BUTTON: &str = "share-button";

thread_local! {
    /// The dialogs open, oldest first, each by a number none of the others has.
    static OPEN: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Focus moves into the dialog while it opens (which scrolls it into view); Esc
/// closes it (`on_close`) while it is open; when it closes with focus inside, focus
/// returns to the element that had it before, or, when nothing had it (a shortcut
/// pressed on the page's body), to the button that opens the dialog, whose id is
/// `opened_by` (the WAI-ARIA dialog pattern). The dialog takes the returned node
/// and `tabindex="-1"`, so that it can take focus. `on_close` is the callback given
/// when the dialog opens (the page's callbacks dispatch an action, the same at
/// every render).
#[hook]
pub fn use_dialog(on_close: Callback<()>, opened_by: &'static str) -> NodeRef {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((), move |()| {
            let before = focused().filter(|element| !is_body(element));
            if let Some(dialog) = node.cast::<HtmlElement>() {
                let _ = dialog.focus();
            }
            let id = OPEN.with(|open| {
                let mut open = open.borrow_mut();
                let id = open.last().map_or(0, |last| last + 1);
                open.push(id);
                id
            });
            // On the document, so that Esc closes it wherever focus is.
            let escape = EventListener::new(&gloo::utils::document(), "keydown", {
                let node = node.clone();
                move |event| {
                    let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    // While an input method composes, Escape cancels the composition instead.
                    if event.key() == "Escape" && !event.is_composing() && closes(event, &node, id)
                    {
                        on_close.emit(());
                    }
                }
            });
            move || {
                drop(escape);
                OPEN.with(|open| open.borrow_mut().retain(|open| *open != id));
                if holds_focus(&node) {
                    let opener = || {
                        gloo::utils::document()
                            .get_element_by_id(opened_by)
                            .and_then(|opener| opener.dyn_into::<HtmlElement>().ok())
                    };
                    if let Some(back) = before.or_else(opener) {
                        let _ = back.focus();
                    }
                }
            }
        });
    }
    node
}

/// Whether this Esc closes the dialog `id`: it does with focus in it; with focus in
/// another dialog, that one closes; in an editor or a text area, Esc leaves the text
/// first (then Tab moves on from it), and the next Esc closes; anywhere else, the
/// dialog opened last closes.
fn closes(event: &KeyboardEvent, dialog: &NodeRef, id: u32) -> bool {
    let Some(dialog) = dialog.cast::<Node>() else {
        return false;
    };
    if let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) {
        if dialog.contains(Some(&target)) {
            return true;
        }
        if let Ok(Some(_)) = target.closest("[role=dialog], textarea, [role=textbox]") {
            return false;
        }
    }
    OPEN.with(|open| open.borrow().last() == Some(&id))
}

fn focused() -> Option<HtmlElement> {
    gloo::utils::document().active_element()?.dyn_into().ok()
}

fn is_body(element: &HtmlElement) -> bool {
    gloo::utils::document()
        .body()
        .is_some_and(|body| body.is_same_node(Some(element)))
}

/// Whether focus is in the dialog, or on nothing but the page's body. Focus that
/// moved on to the page stays where it is.
fn holds_focus(dialog: &NodeRef) -> bool {
    let document = gloo::utils::document();
    let Some(active) = document.active_element() else {
        return true;
    };
    let on_body = document
        .body()
        .is_some_and(|body| body.is_same_node(Some(&active)));
    on_body
        || dialog
            .cast::<Node>()
            .is_some_and(|dialog| dialog.contains(Some(&active)))
}
