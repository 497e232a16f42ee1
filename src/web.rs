//! The entry point in the browser.

/// Mounts the playground into the page's `<div id="app">`, or the body.
pub fn start() {
    let document = gloo::utils::document();
    match document.get_element_by_id("app") {
        Some(root) => yew::Renderer::<crate::ui::App>::with_root(root).render(),
        None => yew::Renderer::<crate::ui::App>::new().render(),
    };
}
