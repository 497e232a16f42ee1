//! The page mounted in headless Chromium: its reducer and components together.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::App;
use gitops_world::share::{encode, Interaction, Session};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::dom::{after_queued_tasks, after_window_event, all, dispatch, find, paste_event, rendered, texts};
use std::ops::Deref;
use web_sys::{
    Element, HtmlDocument, HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit,
};
use yew::AppHandle;

/// A page mounted for one test and taken down when the test ends, so that its
/// shortcuts (which listen on the window) and its focus stay out of the next test.
struct Page {
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
fn set_address(address: &str) {
    gloo::utils::window()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(address))
        .unwrap();
}

/// A fresh page: no work saved nor link shared by an earlier test is restored.
fn mount() -> Page {
    mount_with(None)
}

/// A fresh page whose address has the query `search` (such as `?embed=1`) instead of
/// the test page's own, until it is taken down.
fn mount_with(search: Option<&str>) -> Page {
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
fn mount_embedded(origins: &[&str]) -> Page {
    let search: String = origins
        .iter()
        .map(|origin| format!("&origin={}", js_sys::encode_uri_component(origin)))
        .collect();
    mount_with(Some(&format!("?embed=1{search}")))
}

/// Waits until `read` gives `expected`: a `hashchange` or a message comes in a task
/// of its own.
async fn until<T, U>(read: impl Fn() -> T, expected: U)
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
fn post(message: &str) {
    gloo::utils::window()
        .post_message(&js_sys::JSON::parse(message).unwrap(), "*")
        .unwrap();
}

/// The texts of the notices on screen.
fn notices(root: &Element) -> Vec<String> {
    texts(root, ".notice p")
}

/// Changes only the fragment of the page's address, as pasting a link into the
/// address bar of an open tab does: the browser fires `hashchange`.
fn follow(fragment: &str) {
    gloo::utils::window().location().set_hash(fragment).unwrap();
}

/// Waits until the start is over: the test page serves no presets, so it ends by
/// saying so. A link shared before would be opened then, closing the Share panel.
async fn started(root: &Element) {
    for _ in 0..250 {
        rendered().await;
        if !texts(root, ".notice").is_empty() {
            return;
        }
        gloo::timers::future::TimeoutFuture::new(20).await;
    }
    panic!("the start did not end");
}

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

fn focus(element: &Element) -> HtmlElement {
    let element: HtmlElement = element.clone().unchecked_into();
    element.focus().unwrap();
    element
}

/// The dialog named by the heading `title`, if it is open.
fn dialog(root: &Element, title: &str) -> Option<Element> {
    common::dom::all(root, "[role=dialog]")
        .into_iter()
        .find(|dialog| texts(dialog, "h2") == [title])
}

/// Each plan card as `verb key`, with ` (done)` once applied.
fn cards(root: &Element) -> Vec<String> {
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
fn type_into(root: &Element, id: &str, text: &str) {
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

fn button(root: &Element, name: &str) -> HtmlElement {
    let nodes = root.query_selector_all("button").unwrap();
    (0..nodes.length())
        .filter_map(|index| nodes.item(index))
        .filter_map(|node| node.dyn_into::<HtmlElement>().ok())
        .find(|button| button.text_content().as_deref() == Some(name))
        .unwrap_or_else(|| panic!("a button named {name}"))
}

#[wasm_bindgen_test]
async fn a_broken_pane_is_marked_invalid_with_its_error_as_an_alert() {
    let root = mount();
    rendered().await;
    type_into(&root, "desired-state", "{\"web\": ");
    rendered().await;
    assert_eq!(
        texts(&root, ".pane [role=alert]"),
        ["desired, line 1, column 8: EOF while parsing a value"]
    );
    assert_eq!(cards(&root), ["delete debug", "update web"]);
    let area = root.query_selector("#desired-state").unwrap().unwrap();
    assert_eq!(area.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(button(&root, "Step").has_attribute("disabled"));
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
    until(|| panel.query_selector("#share-link").ok().flatten().is_some(), true).await;
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

#[wasm_bindgen_test]
async fn the_checklist_shows_names_as_code_and_markup_in_them_as_text() {
    let root = mount();
    rendered().await;
    let messages = all(&root, "section.warnings li.warning p");
    let api = messages
        .iter()
        .find(|message| texts(message, "code").first().map(String::as_str) == Some("api"))
        .expect("a warning about api");
    assert_eq!(
        texts(api, "code")[..2],
        ["api", "registry.example/api:1.4.2"]
    );
    let text = api.text_content().unwrap();
    assert!(
        text.starts_with("api runs the image registry.example/api:1.4.2") && !text.contains('`'),
        "{text}"
    );
    type_into(
        &root,
        "desired-state",
        r#"{"<b>x</b>": {"image": "busybox"}}"#,
    );
    rendered().await;
    let checklist = find(&root, "section.warnings");
    let codes = texts(&checklist, "li.warning p code");
    assert!(codes.contains(&"<b>x</b>".to_string()), "{codes:?}");
    assert!(
        all(&checklist, "b").is_empty(),
        "markup in a name stays text"
    );
}

#[wasm_bindgen_test]
async fn a_wrong_ignore_rule_names_its_field_as_code() {
    let root = mount();
    rendered().await;
    let rules: web_sys::HtmlTextAreaElement = find(&root, "#ignore-rules").unchecked_into();
    rules.set_value("- spec/replicas\n");
    dispatch(&rules, "input");
    rendered().await;
    let error = find(&root, "#ignore-error");
    assert_eq!(texts(&error, "code"), ["spec/replicas", "/"]);
    assert!(
        !error.text_content().unwrap().contains('`'),
        "{:?}",
        error.text_content()
    );
}

/// A scenario that is not a preset, planned as `create api`.
const ANOTHER_SCENARIO: &str = r#"{"version": 1, "title": "Another scenario",
    "desired": {"api": {"image": "registry.example/api:1.4.2", "replicas": 2}}, "actual": {}}"#;

#[wasm_bindgen_test]
async fn a_link_pasted_into_the_open_page_opens_and_share_does_not_open_it_again() {
    let root = mount();
    started(&root).await;
    follow(&encode(&Session::of_scenario(ANOTHER_SCENARIO)));
    until(|| cards(&root), ["create api"]).await;
    let menu: web_sys::HtmlSelectElement = find(&root, "#preset-select").unchecked_into();
    let options = all(&root, "#preset-select option");
    let shown = options.get(menu.selected_index() as usize).and_then(|option| option.text_content());
    let title = find(&root, ".preset-title").text_content().unwrap();
    assert_eq!(shown, Some(format!("{title} (shared scenario)")), "the menu names the scenario open, not a preset");
    button(&root, "Step").click();
    rendered().await;
    assert_eq!(cards(&root), ["create api (done)"]);
    // Share writes its link into the address bar without a `hashchange`: opening it
    // again would close the panel.
    button(&root, "Share").click();
    until(|| root.query_selector("#share-link").ok().flatten().is_some(), true).await;
    let shared = find(&root, "#share-link")
        .unchecked_into::<HtmlInputElement>()
        .value();
    let fragment = gloo::utils::window().location().hash().unwrap();
    assert!(shared.ends_with(&fragment), "{shared} carries {fragment}");
    after_queued_tasks().await;
    assert!(dialog(&root, "Share").is_some(), "the panel stays open");
    assert_eq!(cards(&root), ["create api (done)"]);
}

#[wasm_bindgen_test]
async fn a_broken_link_pasted_into_the_open_page_says_so_and_keeps_the_scenario() {
    let root = mount();
    started(&root).await;
    button(&root, "Step").click();
    rendered().await;
    follow("v1.AAAA%%%");
    until(
        || {
            notices(&root)
                .iter()
                .any(|notice| notice.contains("damaged or cut short"))
        },
        true,
    )
    .await;
    let notice = notices(&root).concat();
    assert!(notice.starts_with("The link does not open: "), "{notice}");
    assert!(
        notice.ends_with("The scenario on screen stays."),
        "{notice}"
    );
    assert_eq!(cards(&root), ["delete debug (done)", "update web"]);
    // A fragment that names an element of the page is a place in it, not a link.
    let place = gloo::utils::document().create_element("div").unwrap();
    place.set_id("further-down");
    root.append_child(&place).unwrap();
    button(&root, "Dismiss").click();
    rendered().await;
    after_window_event("hashchange", || follow("further-down")).await;
    assert_eq!(notices(&root), Vec::<String>::new());
    assert_eq!(cards(&root), ["delete debug (done)", "update web"]);
}

#[wasm_bindgen_test]
async fn a_link_pasted_into_the_open_page_keeps_ones_own_work_on_its_preset() {
    let root = mount();
    started(&root).await;
    type_into(&root, "actual-state", "{}");
    gloo::timers::future::TimeoutFuture::new(400).await;
    rendered().await;
    assert_eq!(cards(&root), ["create api", "create web"]);
    let mut shared = Session::of_preset("worked-example.json");
    shared.record(Interaction::Step, true);
    follow(&encode(&shared));
    until(|| cards(&root), ["delete debug (done)", "update web"]).await;
    let kept = texts(&root, ".notice[role=status] p");
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(kept[0].contains("Your own work on"), "{kept:?}");
    button(&root, "Back to my work").click();
    until(|| cards(&root), ["create api", "create web"]).await;
}

#[wasm_bindgen_test]
async fn an_embedded_load_that_does_not_open_says_why_and_keeps_the_scenario() {
    let origin = gloo::utils::window().location().origin().unwrap();
    let root = mount_embedded(&[&origin]);
    started(&root).await;
    let stays = |words: &'static str| {
        let root = root.clone();
        move || {
            let notice = notices(&root).concat();
            notice.starts_with("The scenario the lesson page sent does not open: ")
                && notice.contains(words)
                && notice.ends_with("The scenario on screen stays.")
        }
    };
    for (message, words) in [
        // A preset's name waits for the presets' texts, which the test page does
        // not serve (the end-to-end tests, which do, see "no preset named").
        (
            r#"{"type": "gitops:load", "preset": "nosuch.yaml"}"#,
            "the presets could not be loaded (scenarios.json: HTTP 404)",
        ),
        (
            r#"{"type": "gitops:load", "scenario": {"version": 1, "desierd": {}}}"#,
            "unknown field `desierd`",
        ),
        (
            r#"{"type": "gitops:load", "scenario": "{bad"}"#,
            "line 1, column 2",
        ),
        (
            r#"{"type": "gitops:load"}"#,
            "the message names neither a preset nor a scenario",
        ),
        (
            r#"{"type": "gitops:load", "preset": 7}"#,
            "its preset is not a preset's file name",
        ),
    ] {
        button(&root, "Dismiss").click();
        until(|| notices(&root), Vec::<String>::new()).await;
        post(message);
        until(stays(words), true).await;
        assert_eq!(cards(&root), ["delete debug", "update web"], "{message}");
        assert_eq!(texts(&root, "h1"), ["The lesson's worked example"]);
    }
    post(&format!(
        r#"{{"type": "gitops:load", "scenario": {}}}"#,
        ANOTHER_SCENARIO
    ));
    until(|| cards(&root), ["create api"]).await;
    assert_eq!(notices(&root), Vec::<String>::new(), "the notice goes");
}

#[wasm_bindgen_test]
async fn an_embedded_view_without_an_allowed_origin_warns_once_of_what_it_ignores() {
    let origin = gloo::utils::window().location().origin().unwrap();
    let root = mount_embedded(&["*"]);
    started(&root).await;
    let console = js_sys::Reflect::get(&gloo::utils::window(), &"console".into()).unwrap();
    let warn = js_sys::Reflect::get(&console, &"warn".into()).unwrap();
    let warnings = js_sys::Array::new();
    let record =
        js_sys::Function::new_with_args("message", "this.push(String(message))").bind0(&warnings);
    js_sys::Reflect::set(&console, &"warn".into(), &record).unwrap();
    post(r#"{"type": "another-library"}"#);
    post(r#"{"type": "gitops:step"}"#);
    post(r#"{"type": "gitops:step"}"#);
    gloo::timers::future::TimeoutFuture::new(100).await;
    rendered().await;
    js_sys::Reflect::set(&console, &"warn".into(), &warn).unwrap();
    let warnings: Vec<String> = warnings.iter().filter_map(|w| w.as_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let allow = format!(
        "&origin={}",
        String::from(js_sys::encode_uri_component(&origin))
    );
    assert!(
        warnings[0].contains(&format!("gitops:step message from {origin}")),
        "{warnings:?}"
    );
    assert!(warnings[0].contains(&allow), "{warnings:?}");
    assert_eq!(
        cards(&root),
        ["delete debug", "update web"],
        "nothing obeyed"
    );
}

/// What the page posts to the page that embeds it, recorded: the test page's `parent`
/// (`[Replaceable]`) stands for the host until this is dropped.
struct Host {
    posted: js_sys::Array,
}

impl Host {
    fn listen() -> Host {
        let window = gloo::utils::window();
        let posted = js_sys::Array::new();
        let post = js_sys::Function::new_with_args("message", "this.push(message)").bind0(&posted);
        let parent = js_sys::Object::new();
        js_sys::Reflect::set(&parent, &"postMessage".into(), &post).unwrap();
        assert!(js_sys::Reflect::set(&window, &"parent".into(), &parent).unwrap());
        Host { posted }
    }

    /// The messages of type `kind` posted so far, as JSON.
    fn messages(&self, kind: &str) -> Vec<serde_json::Value> {
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
fn js(body: &str) -> wasm_bindgen::JsValue {
    js_sys::Function::new_no_args(body)
        .call0(&wasm_bindgen::JsValue::UNDEFINED)
        .unwrap()
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

/// Pastes `text` over the whole text of the editor `id`, as Ctrl+A and Ctrl+V do.
fn paste(root: &Element, id: &str, text: &str) {
    let area = focus(&find(root, &format!("#{id}")));
    let selection = gloo::utils::window().get_selection().unwrap().unwrap();
    selection.select_all_children(&area).unwrap();
    paste_event(&area, text);
}

/// An Actual of one object over 4 MB: its link would expand past what the playground opens.
fn actual_too_large_for_a_link() -> String {
    format!(
        r#"{{"web": {{"image": "registry.example/web:2.0.1", "replicas": 3, "note": "{}"}}}}"#,
        "a".repeat(4_300_000)
    )
}

/// An embedded page that obeys the test page's own origin, its start over, and
/// the host that hears what it tells.
async fn embedded_with_host() -> (Host, Page) {
    let origin = gloo::utils::window().location().origin().unwrap();
    let host = Host::listen();
    let root = mount_embedded(&[&origin]);
    started(&root).await;
    (host, root)
}

/// The first state the embedded page told its host.
async fn first_state(host: &Host) -> serde_json::Value {
    until(|| host.messages("gitops:state").is_empty(), false).await;
    host.messages("gitops:state").remove(0)
}

#[wasm_bindgen_test]
async fn an_embedded_load_json_cannot_carry_says_what_and_where_and_tells_the_host() {
    let (host, root) = embedded_with_host().await;
    let before = cards(&root);
    for (message, words) in [
        (
            "let o = 1; for (let i = 0; i < 127; i++) o = {a: o}; \
             return {type: 'gitops:load', scenario: {desired: {web: o}}};",
            "scenario at /desired/web/a/a/…: the value is nested too deeply (more than 128 levels)",
        ),
        (
            "return {type: 'gitops:load', scenario: \
             {desired: {web: {image: 'busybox:1.36', replicas: 2n ** 70n}}}};",
            "scenario at /desired/web/replicas: a BigInt (1180591620717411303424n), which JSON cannot write: pass it as a number or a string",
        ),
        (
            "const web = {image: 'busybox:1.36'}; web.self = web; \
             return {type: 'gitops:load', scenario: {desired: {web}}};",
            "scenario at /desired/web/self: this refers back to /desired/web: a cycle, which JSON cannot write",
        ),
    ] {
        button(&root, "Dismiss").click();
        until(|| notices(&root), Vec::<String>::new()).await;
        let told = host.messages("gitops:error").len();
        gloo::utils::window()
            .post_message(&js(message), "*")
            .unwrap();
        let notice = format!(
            "The scenario the lesson page sent does not open: {words}. The scenario on screen stays."
        );
        until(|| notices(&root), [notice.clone()]).await;
        assert_eq!(cards(&root), before, "{message}");
        assert_eq!(texts(&root, "h1"), ["The lesson's worked example"]);
        until(|| host.messages("gitops:error").len(), told + 1).await;
        let error = host.messages("gitops:error").pop().unwrap();
        assert_eq!(
            (&error["type"], &error["request"], &error["message"]),
            (&"gitops:error".into(), &"gitops:load".into(), &notice.into()),
        );
        let pointer = error["pointer"].as_str().unwrap_or_default();
        let said = words.split_once(": ").unwrap().0.trim_start_matches("scenario at ").trim_end_matches('…');
        assert!(pointer.starts_with(said), "the host is told the whole pointer: {pointer} for {said}");
    }
    // What else a message holds is not the playground's business: it is obeyed.
    gloo::utils::window()
        .post_message(&js("return {type: 'gitops:step', sentAt: 12n};"), "*")
        .unwrap();
    until(
        || cards(&root).iter().any(|card| card.ends_with("(done)")),
        true,
    )
    .await;
    post(&format!(
        r#"{{"type": "gitops:load", "scenario": {}}}"#,
        ANOTHER_SCENARIO
    ));
    until(|| cards(&root), ["create api"]).await;
}

/// An exercise a link opens whose goal holds at its start: Check solves it.
fn exercise_scenario(title: &str, task: &str) -> String {
    format!(
        r#"{{"version": 1, "title": "{title}",
            "desired": {{"web": {{"image": "busybox:1.36", "replicas": 1}}}},
            "actual": {{"web": {{"image": "busybox:1.36", "replicas": 1}}}},
            "exercise": {{"task": "{task}", "settle": 1, "goals": [{{"synced": {{}}}}]}}}}"#
    )
}

#[wasm_bindgen_test]
async fn each_exercise_a_link_opens_keeps_its_own_progress() {
    let root = mount();
    started(&root).await;
    let first = encode(&Session::of_scenario(&exercise_scenario(
        "First exercise",
        "Keep it in sync.",
    )));
    let second = encode(&Session::of_scenario(&exercise_scenario(
        "Second exercise",
        "Keep this one in sync too.",
    )));
    let task = || texts(&root, "section.exercise .task");
    let solved = || texts(&root, ".solved-badge");
    follow(&first);
    until(task, ["Keep it in sync."]).await;
    assert_eq!(solved(), Vec::<String>::new());
    button(&root, "Check").click();
    until(|| texts(&root, ".verdict.solved").len(), 1).await;
    assert_eq!(solved(), Vec::<String>::new(), "not \"before\" right after the first solve");
    follow(&second);
    until(task, ["Keep this one in sync too."]).await;
    assert_eq!(
        solved(),
        Vec::<String>::new(),
        "another link's exercise is not solved"
    );
    follow(&first);
    until(task, ["Keep it in sync."]).await;
    assert_eq!(solved(), ["You have solved this exercise before."]);
}

#[wasm_bindgen_test]
async fn share_says_a_scenario_too_large_for_a_link_cannot_be_shared_as_one() {
    let root = mount();
    started(&root).await;
    paste(&root, "actual-state", &actual_too_large_for_a_link());
    gloo::timers::future::TimeoutFuture::new(400).await;
    rendered().await;
    assert!(
        !cards(&root).iter().any(|card| card.contains("debug")),
        "the pasted text is the cluster"
    );
    button(&root, "Share").click();
    rendered().await;
    let share = dialog(&root, "Share").expect("the Share panel");
    until(|| texts(&share, ".refused[role=alert]").len(), 1).await;
    let said = texts(&share, ".refused[role=alert]");
    assert!(
        said[0].starts_with(
            "This scenario, with what was done in it, is too large to share as a link: it \
             comes to more than 4 MB, and the playground does not open links that expand past \
             that. To share it, save the scenario as a file"
        ),
        "{said:?}"
    );
    assert!(
        all(&share, "#share-link").is_empty(),
        "no link that would not open"
    );
    assert!(all(&share, "#embed-code").is_empty());
    assert_eq!(
        gloo::utils::window().location().hash().unwrap(),
        "",
        "nor is one written into the address"
    );
    button(&share, "Close").click();
    type_into(&root, "actual-state", "{}");
    gloo::timers::future::TimeoutFuture::new(400).await;
    button(&root, "Share").click();
    until(|| root.query_selector("#share-link").ok().flatten().is_some(), true).await;
    let link = find(&root, "#share-link")
        .unchecked_into::<HtmlInputElement>()
        .value();
    let fragment = link.split_once('#').unwrap().1;
    assert!(gitops_world::share::decode(fragment).is_ok(), "{link}");
}

#[wasm_bindgen_test]
async fn an_embedded_state_hands_out_no_link_that_would_not_open_and_says_why() {
    let (host, root) = embedded_with_host().await;
    let first = first_state(&host).await;
    assert!(
        first["link"]
            .as_str()
            .and_then(|link| link.strip_prefix('#'))
            .is_some_and(|fragment| gitops_world::share::decode(fragment).is_ok()),
        "{first}"
    );
    assert_eq!(first["linkError"], serde_json::Value::Null);
    paste(&root, "actual-state", &actual_too_large_for_a_link());
    until(
        || host.messages("gitops:state").pop().unwrap()["link"].is_null(),
        true,
    )
    .await;
    let last = host.messages("gitops:state").pop().unwrap();
    assert!(
        last["linkError"]
            .as_str()
            .is_some_and(|why| why.starts_with(
                "This scenario, with what was done in it, is too large to share as a link: it \
             comes to more than 4 MB"
            )),
        "{}",
        last["linkError"]
    );
}

/// A `message` event from the test page's own origin, as a host posts one,
/// made by the script `body`.
fn message_event(body: &str) -> wasm_bindgen::JsValue {
    let origin = gloo::utils::window().location().origin().unwrap();
    let init = web_sys::MessageEventInit::new();
    init.set_data(&js(body));
    init.set_origin(&origin);
    web_sys::MessageEvent::new_with_event_init_dict("message", &init)
        .unwrap()
        .into()
}

#[wasm_bindgen_test]
async fn an_embedded_page_says_it_is_ready_then_obeys_what_came_before_in_order() {
    let origin = gloo::utils::window().location().origin().unwrap();
    let host = Host::listen();
    // What index.html keeps while the wasm loads.
    let early = js_sys::Array::of2(
        &message_event(&format!("return {{type: 'gitops:load', scenario: {ANOTHER_SCENARIO}}};")),
        &message_event("return {type: 'gitops:step'};"),
    );
    js_sys::Reflect::set(&gloo::utils::window(), &"gitopsEarlyMessages".into(), &early).unwrap();
    let root = mount_embedded(&[&origin]);
    until(|| cards(&root), ["create api (done)"]).await;
    let types: Vec<String> = host
        .posted
        .iter()
        .filter_map(|message| js_sys::Reflect::get(&message, &"type".into()).ok()?.as_string())
        .filter(|kind| kind != "gitops:height")
        .collect();
    assert_eq!(types.first().map(String::as_str), Some("gitops:ready"), "{types:?}");
    assert_eq!(types.iter().filter(|kind| *kind == "gitops:ready").count(), 1);
    let ready = host.messages("gitops:ready").pop().unwrap();
    assert!(ready["accepts"].as_array().unwrap().contains(&"gitops:setText".into()), "{ready}");
    assert!(
        js_sys::Reflect::get(&gloo::utils::window(), &"gitopsEarlyMessages".into())
            .unwrap()
            .is_undefined(),
        "the page keeps no more early messages once it listens"
    );
}

#[wasm_bindgen_test]
async fn a_host_sets_a_panes_text_and_the_options_and_asks_for_the_state() {
    let (host, root) = embedded_with_host().await;
    let first = first_state(&host).await;
    assert_eq!(first["options"], serde_json::json!({"prune": true, "selfHeal": true, "autoSync": true, "respectIgnoreDifferences": false, "mode": "pull"}), "{first}");

    post(r#"{"type": "gitops:setText", "pane": "desired", "text": "{\"web\": {\"image\": \"registry.example/web:2.0.1\", \"replicas\": 4}}"}"#);
    until(|| cards(&root), ["delete api", "delete debug", "update web"]).await;
    until(|| texts(&root, "#desired-state").concat().contains("\"replicas\": 4"), true).await;

    post(r#"{"type": "gitops:setOptions", "options": {"prune": false, "mode": "push"}}"#);
    until(|| cards(&root), ["update web"]).await;
    until(
        || host.messages("gitops:state").pop().unwrap()["options"]["mode"].clone(),
        serde_json::json!("push"),
    )
    .await;

    post(r#"{"type": "gitops:setText", "pane": "actual", "text": "{\"web\": "}"#);
    until(|| host.messages("gitops:state").pop().unwrap()["actualError"].is_object(), true).await;
    let broken = host.messages("gitops:state").pop().unwrap();
    assert_eq!((&broken["actualError"]["line"], &broken["actualError"]["column"]), (&1.into(), &8.into()), "{broken}");
    assert_eq!(
        texts(&root, ".stale-note"),
        ["Showing the last plan that could be computed: fix the error above to update it."],
        "the embedded plan says it is the last good one too"
    );

    let told = host.messages("gitops:state").len();
    post(r#"{"type": "gitops:getState"}"#);
    until(|| host.messages("gitops:state").len(), told + 1).await;
    assert_eq!(host.messages("gitops:state").pop().unwrap()["actualError"], broken["actualError"]);

    for (message, pointer, words) in [
        (r#"{"type": "gitops:setOptions", "options": {"prnue": true}}"#, "/options/prnue", "there is no option \"prnue\""),
        (r#"{"type": "gitops:setOptions", "options": {"mode": "both"}}"#, "/options/mode", "mode is \"push\" or \"pull\""),
        (r#"{"type": "gitops:setText", "pane": "git", "text": ""}"#, "/pane", "its pane is not"),
        (r#"{"type": "gitops:subscribe", "events": "yes"}"#, "/events", "events is true or false"),
    ] {
        let errors = host.messages("gitops:error").len();
        post(message);
        until(|| host.messages("gitops:error").len(), errors + 1).await;
        let error = host.messages("gitops:error").pop().unwrap();
        assert_eq!(error["pointer"], pointer, "{error}");
        assert!(error["message"].as_str().unwrap().contains(words), "{error}");
    }
    assert_eq!(cards(&root), ["update web"], "a wrong message changes nothing");
}

#[wasm_bindgen_test]
async fn a_host_subscribed_to_events_and_the_plan_is_told_each_as_it_changes() {
    let (host, root) = embedded_with_host().await;
    post(r#"{"type": "gitops:subscribe", "events": true, "plan": true}"#);
    until(|| host.messages("gitops:plan").is_empty(), false).await;
    rendered().await;
    let plans = host.messages("gitops:plan");
    assert_eq!(plans.len(), 1, "{plans:#?}");
    let plan = plans[0].clone();
    let ops: Vec<&serde_json::Value> = plan["plan"].as_array().unwrap().iter().map(|op| &op["op"]).collect();
    assert_eq!(ops, [&serde_json::json!("delete"), &serde_json::json!("update")], "{plan}");
    let told = host.messages("gitops:events").len();
    post(r#"{"type": "gitops:advance"}"#);
    until(|| host.messages("gitops:events").len() > told, true).await;
    let events = host.messages("gitops:events").pop().unwrap();
    assert!(!events["events"].as_array().unwrap().is_empty(), "{events}");
    assert!(events["events"][0]["actor"].is_string(), "{events}");

    post(r#"{"type": "gitops:reset"}"#);
    until(
        || host.messages("gitops:events").pop().unwrap()["first"].clone(),
        serde_json::json!(0),
    )
    .await;

    post(r#"{"type": "gitops:subscribe"}"#);
    let plans = host.messages("gitops:plan").len();
    post(r#"{"type": "gitops:step"}"#);
    until(|| cards(&root).iter().any(|card| card.ends_with("(done)")), true).await;
    post(r#"{"type": "gitops:getState"}"#);
    rendered().await;
    assert_eq!(host.messages("gitops:plan").len(), plans, "unsubscribed: no more plans");
}

#[wasm_bindgen_test]
async fn an_embedded_address_chooses_the_panes_and_the_lessons_colours() {
    let origin = gloo::utils::window().location().origin().unwrap();
    let host = Host::listen();
    let root = mount_with(Some(&format!(
        "?embed=1&origin={}&panes=desired&theme=dark",
        js_sys::encode_uri_component(&origin)
    )));
    started(&root).await;
    assert_eq!(all(&root, "#desired-state").len(), 1);
    assert!(all(&root, "#actual-state").is_empty(), "only the pane named");
    assert!(all(&root, ".results").is_empty(), "and no plan");
    let theme = || gloo::utils::document_element().get_attribute("data-theme");
    until(theme, Some("dark".to_string())).await;
    let stored = gloo::utils::window()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item("gitops-playground.theme")
        .unwrap();
    assert_ne!(stored.as_deref(), Some("dark"), "the reader's own choice is not changed");
    until(|| host.messages("gitops:height").is_empty(), false).await;
    let height = host.messages("gitops:height").pop().unwrap()["height"].as_u64().unwrap();
    assert_eq!(height, gloo::utils::body().scroll_height() as u64);
    drop(root);
    gloo::utils::document_element().remove_attribute("data-theme").unwrap();
}

#[wasm_bindgen_test]
async fn the_checklist_puts_the_lessons_own_rules_first_and_folds_the_mutable_tags() {
    let root = mount();
    rendered().await;
    let rules = |root: &Element| texts(root, "section.warnings > ul > li > .rule, section.warnings > ul > li > details > summary > .rule");
    let open = |root: &Element| {
        all(root, "section.warnings details")
            .iter()
            .map(|details| details.has_attribute("open"))
            .collect::<Vec<_>>()
    };
    assert_eq!(rules(&root), ["mutable-image-tag"], "the worked example warns of tags alone");
    assert_eq!(open(&root), [true], "so they are open");
    type_into(
        &root,
        "desired-state",
        r#"{"db": {"kind": "Secret", "data": {"password": "aHVudGVyMg=="}}, "web": {"image": "web:2"}, "api": {"image": "api:1"}}"#,
    );
    rendered().await;
    until(|| rules(&root), ["plaintext-secret", "mutable-image-tag"]).await;
    assert_eq!(open(&root), [false], "beside the lesson's own rule, the tags fold");
    assert_eq!(
        texts(&root, "section.warnings summary"),
        ["mutable-image-tag2 images are named by a tag that can move"]
    );
    assert_eq!(all(&root, "section.warnings details li.warning").len(), 2);
}
