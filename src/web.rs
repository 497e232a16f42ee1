//! The entry point in the browser.

/// The element the page mounts into. A lesson page that imports the
/// module only to call the core has none, so nothing is mounted there.
pub const ROOT_ID: &str = "gitops-playground";

/// Mounts the playground into `<div id="gitops-playground">`, if the page has one,
/// once it has read what it opens with: until then the shell that index.html draws in
/// that element stays on screen, and mounting replaces it.
pub fn start() {
    if let Some(root) = gloo::utils::document().get_element_by_id(ROOT_ID) {
        yew::platform::spawn_local(async move {
            let start = crate::ui::start::Start::read().await;
            yew::Renderer::<crate::ui::App>::with_root_and_props(
                root,
                crate::ui::app::AppProps { start },
            )
            .render();
        });
    }
}
