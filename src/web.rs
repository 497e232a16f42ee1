//! The entry point in the browser.

/// The element the page mounts into. A lesson page that imports the
/// module only to call the core has none, so nothing is mounted there.
pub const ROOT_ID: &str = "gitops-playground";

/// Mounts the playground into `<div id="gitops-playground">`, if the page has one.
pub fn start() {
    if let Some(root) = gloo::utils::document().get_element_by_id(ROOT_ID) {
        yew::Renderer::<crate::ui::App>::with_root(root).render();
    }
}
