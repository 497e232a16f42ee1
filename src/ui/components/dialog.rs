//! What the page's dialogs do with the keyboard: opening one moves focus into it,
//! Esc closes it, and closing it gives focus back to where it was.

use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, Node};
use yew::prelude::*;

/// A dialog's element and its keydown handler. The dialog takes both, and
/// `tabindex="-1"` so that it can take focus.
pub struct Dialog {
    pub node: NodeRef,
    pub onkeydown: Callback<KeyboardEvent>,
}

/// Focus moves into the dialog while it opens (which scrolls it into view); when it
/// closes with focus inside, focus returns to the element that had it before.
#[hook]
pub fn use_dialog(on_close: Callback<()>) -> Dialog {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((), move |()| {
            let before = focused();
            if let Some(dialog) = node.cast::<HtmlElement>() {
                let _ = dialog.focus();
            }
            move || {
                if holds_focus(&node) {
                    if let Some(before) = before {
                        let _ = before.focus();
                    }
                }
            }
        });
    }
    let onkeydown = Callback::from(move |event: KeyboardEvent| {
        // While an input method composes, Escape cancels the composition instead.
        if event.key() == "Escape" && !event.is_composing() {
            on_close.emit(());
        }
    });
    Dialog { node, onkeydown }
}

fn focused() -> Option<HtmlElement> {
    gloo::utils::document().active_element()?.dyn_into().ok()
}

/// Whether focus is in the dialog, or on nothing but the page's body.
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
