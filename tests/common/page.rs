//! The whole page mounted for a test, and what the page's tests read and do on it:
//! its plan's cards, notices and dialogs, its buttons and editors.

use crate::common;
use common::dom::{find, paste_event, rendered, texts};
use gitops_playground::ui::App;
use std::ops::Deref;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlDocument, HtmlElement};
use yew::AppHandle;

/// A page mounted for one test and taken down when the test ends, so that its
/// shortcuts (which listen on the window) and its focus stay out of the next test.
pub struct Page {
    root: Element,
    app: Option<AppHandle<App>>,
}

thread_local! {
    /// The test page's own address, before any test changed it: each page is mounted
    /// there (or at a query of its own) and gives it back when taken down.
    static OWN_ADDRESS: String = {
        let location = gloo::utils::window().location();
        format!("{}{}", location.pathname().unwrap(), location.search().unwrap())
    };
}

impl Deref for Page {
    type Target = Element;

    fn deref(&self) -> &Element {
        &self.root
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        self.root.remove();
        OWN_ADDRESS.with(|own| set_address(own));
    }
}

/// Changes the page's address without loading it again (and without a `hashchange`).
pub fn set_address(address: &str) {
    gloo::utils::window()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(address))
        .unwrap();
}

/// A fresh page: no work saved nor link shared by an earlier test is restored.
pub fn mount() -> Page {
    mount_with(None)
}

/// A fresh page whose address has the query `search` (such as `?embed=1`) instead of
/// the test page's own, until it is taken down.
pub fn mount_with(search: Option<&str>) -> Page {
    let window = gloo::utils::window();
    if let Ok(Some(storage)) = window.local_storage() {
        storage.clear().unwrap();
    }
    let own = OWN_ADDRESS.with(String::clone);
    set_address(&match search {
        Some(search) => format!("{}{search}", window.location().pathname().unwrap()),
        None => own,
    });
    let root = common::dom::container();
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    Page {
        root,
        app: Some(app),
    }
}

/// An embedded page (`?embed=1`) that obeys the origins `origins` (as written in
/// its address).
pub fn mount_embedded(origins: &[&str]) -> Page {
    let search: String = origins
        .iter()
        .map(|origin| format!("&origin={}", js_sys::encode_uri_component(origin)))
        .collect();
    mount_with(Some(&format!("?embed=1{search}")))
}

/// Waits until `read` gives `expected`: a `hashchange` or a message comes in a task
/// of its own.
pub async fn until<T, U>(read: impl Fn() -> T, expected: U)
where
    T: PartialEq<U> + std::fmt::Debug,
    U: std::fmt::Debug,
{
    let mut last = read();
    for _ in 0..250 {
        rendered().await;
        last = read();
        if last == expected {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("expected {expected:?}, still {last:?}");
}

/// Posts `message` (JSON) to the page's own window, as a host page posts to its
/// iframe: it comes from the test page's origin.
pub fn post(message: &str) {
    gloo::utils::window()
        .post_message(&js_sys::JSON::parse(message).unwrap(), "*")
        .unwrap();
}

/// The texts of the notices on screen.
pub fn notices(root: &Element) -> Vec<String> {
    texts(root, ".notice p")
}

/// Waits until the start is over: the test page serves no presets, so it ends by
/// saying so. A link shared before would be opened then, closing the Share panel.
pub async fn started(root: &Element) {
    for _ in 0..250 {
        rendered().await;
        if !texts(root, ".notice").is_empty() {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("the start did not end");
}

pub fn focus(element: &Element) -> HtmlElement {
    let element: HtmlElement = element.clone().unchecked_into();
    element.focus().unwrap();
    element
}

/// The dialog named by the heading `title`, if it is open.
pub fn dialog(root: &Element, title: &str) -> Option<Element> {
    common::dom::all(root, "[role=dialog]")
        .into_iter()
        .find(|dialog| texts(dialog, "h2") == [title])
}

/// Each plan card as `verb key`, with ` (done)` once applied.
pub fn cards(root: &Element) -> Vec<String> {
    let nodes = root.query_selector_all(".card").unwrap();
    (0..nodes.length())
        .filter_map(|index| nodes.item(index))
        .filter_map(|node| node.dyn_into::<Element>().ok())
        .map(|card| {
            let part = |selector| {
                card.query_selector(selector)
                    .ok()
                    .flatten()
                    .and_then(|e| e.text_content())
                    .unwrap_or_default()
            };
            let done = if card
                .get_attribute("class")
                .unwrap_or_default()
                .split(' ')
                .any(|c| c == "done")
            {
                " (done)"
            } else {
                ""
            };
            format!("{} {}{done}", part(".verb"), part(".key"))
        })
        .collect()
}

/// Selects the whole text of the editor `id` and types `text` over it, as the browser
/// does it.
pub fn type_into(root: &Element, id: &str, text: &str) {
    let area: HtmlElement = root
        .query_selector(&format!("#{id}"))
        .unwrap()
        .unwrap()
        .unchecked_into();
    area.focus().unwrap();
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection.select_all_children(&area).unwrap();
    let document: HtmlDocument = gloo::utils::document().unchecked_into();
    assert!(document
        .exec_command_with_show_ui_and_value("insertText", false, text)
        .unwrap());
}

pub fn button(root: &Element, name: &str) -> HtmlElement {
    let nodes = root.query_selector_all("button").unwrap();
    (0..nodes.length())
        .filter_map(|index| nodes.item(index))
        .filter_map(|node| node.dyn_into::<HtmlElement>().ok())
        .find(|button| button.text_content().as_deref() == Some(name))
        .unwrap_or_else(|| panic!("a button named {name}"))
}

/// A scenario that is not a preset, planned as `create api`.
pub const ANOTHER_SCENARIO: &str = r#"{"version": 1, "title": "Another scenario",
    "desired": {"api": {"image": "registry.example/api:1.4.2", "replicas": 2}}, "actual": {}}"#;

/// What the page posts to the page that embeds it, recorded: the test page's `parent`
/// (`[Replaceable]`) stands for the host until this is dropped.
pub struct Host {
    pub posted: js_sys::Array,
}

impl Host {
    pub fn listen() -> Host {
        let window = gloo::utils::window();
        let posted = js_sys::Array::new();
        let post = js_sys::Function::new_with_args("message", "this.push(message)").bind0(&posted);
        let parent = js_sys::Object::new();
        js_sys::Reflect::set(&parent, &"postMessage".into(), &post).unwrap();
        assert!(js_sys::Reflect::set(&window, &"parent".into(), &parent).unwrap());
        Host { posted }
    }

    /// The messages of type `kind` posted so far, as JSON.
    pub fn messages(&self, kind: &str) -> Vec<serde_json::Value> {
        self.posted
            .iter()
            .filter_map(|message| js_sys::JSON::stringify(&message).ok()?.as_string())
            .filter_map(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .filter(|message| message["type"] == kind)
            .collect()
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let window = gloo::utils::window();
        js_sys::Reflect::set(&window, &"parent".into(), &window).unwrap();
    }
}

/// The value a JavaScript function body returns: what a host's script builds.
pub fn js(body: &str) -> wasm_bindgen::JsValue {
    js_sys::Function::new_no_args(body)
        .call0(&wasm_bindgen::JsValue::UNDEFINED)
        .unwrap()
}

/// Pastes `text` over the whole text of the editor `id`, as Ctrl+A and Ctrl+V do.
pub fn paste(root: &Element, id: &str, text: &str) {
    let area = focus(&find(root, &format!("#{id}")));
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection.select_all_children(&area).unwrap();
    paste_event(&area, text);
}

/// An Actual of one object over 4 MB: its link would expand past what the playground opens.
pub fn actual_too_large_for_a_link() -> String {
    format!(
        r#"{{"web": {{"image": "registry.example/web:2.0.1", "replicas": 3, "note": "{}"}}}}"#,
        "a".repeat(4_300_000)
    )
}

/// An embedded page that obeys the test page's own origin, its start over, and
/// the host that hears what it tells.
pub async fn embedded_with_host() -> (Host, Page) {
    let origin = gloo::utils::window().location().origin().unwrap();
    let host = Host::listen();
    let root = mount_embedded(&[&origin]);
    started(&root).await;
    (host, root)
}
