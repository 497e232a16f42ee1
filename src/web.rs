//! The entry point in the browser.

use wasm_bindgen::prelude::*;

/// Mounts the playground into the page's `<main id="app">`, or the body.
#[wasm_bindgen(start)]
pub fn start() {
    let document = gloo::utils::document();
    match document.get_element_by_id("app") {
        Some(root) => yew::Renderer::<crate::ui::App>::with_root(root).render(),
        None => yew::Renderer::<crate::ui::App>::new().render(),
    };
}
