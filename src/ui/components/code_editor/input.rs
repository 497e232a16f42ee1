//! What typing and pasting do: the element's new text goes to the parent, a
//! line broken after Enter with the indentation Enter found.

use super::content::Content;
use gitops_core::text::edit::TypedText;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// What typing does: the element's new text, read from the page, goes to the parent.
/// A line break typed after Enter gets the indentation Enter found (`indent`): its
/// insertion is an edit of its own, whose input event reads the text.
pub(super) fn typed(
    content: &Rc<RefCell<Option<Content>>>,
    on_input: &Callback<TypedText>,
    indent: &Rc<RefCell<Option<String>>>,
) -> Callback<InputEvent> {
    let content = content.clone();
    let on_input = on_input.clone();
    let indent = indent.clone();
    Callback::from(move |event: InputEvent| {
        // An `input` event a script dispatched is a plain Event, without `inputType`.
        let broke_line = || {
            event.is_instance_of::<InputEvent>()
                && matches!(
                    event.input_type().as_str(),
                    "insertParagraph" | "insertLineBreak"
                )
        };
        let pending = indent
            .borrow_mut()
            .take()
            .filter(|indent| !indent.is_empty() && broke_line());
        if let Some(indent) = pending {
            let document: web_sys::HtmlDocument = gloo::utils::document().unchecked_into();
            if document
                .exec_command_with_show_ui_and_value("insertText", false, &indent)
                .unwrap_or(false)
            {
                return;
            }
        }
        let read = content.borrow_mut().as_mut().map(Content::read);
        if let Some(text) = read {
            on_input.emit(text);
        }
    })
}

/// What pasting does: the pasted text goes into the text at the selection, and the
/// whole text to the parent.
pub(super) fn pasted(
    content: &Rc<RefCell<Option<Content>>>,
    on_input: &Callback<TypedText>,
) -> Callback<Event> {
    let content = content.clone();
    let on_input = on_input.clone();
    Callback::from(move |event: Event| {
        let Some(event) = event.dyn_ref::<web_sys::ClipboardEvent>() else {
            return;
        };
        let Some(pasted) = event
            .clipboard_data()
            .and_then(|data| data.get_data("text/plain").ok())
        else {
            return;
        };
        if pasted.is_empty() {
            // An image or a file: nothing the editor holds, and the selection stays.
            event.prevent_default();
            return;
        }
        let Some(mut content) = content.try_borrow_mut().ok() else {
            return;
        };
        if let Some(text) = content.as_mut().and_then(|content| content.paste(&pasted)) {
            event.prevent_default();
            drop(content);
            on_input.emit(text);
        }
    })
}
