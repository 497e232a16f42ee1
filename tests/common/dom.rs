//! Reading and driving the DOM in the browser tests.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, EventInit};

/// A fresh element in the test page's body to mount into.
pub fn container() -> Element {
    let document = gloo::utils::document();
    let root = document.create_element("div").expect("a div");
    document
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("appended");
    root
}

/// Lets the browser run what is due (timers, fetches that failed at once),
/// then waits until Yew has rendered everything dispatched, however many
/// times its scheduler yields to the browser on a slow machine.
pub async fn rendered() {
    gloo::timers::future::TimeoutFuture::new(0).await;
    yew::scheduler::flush().await;
}

/// Does `act`, then waits for the next `event` on the window: the page's own
/// listeners, added before this one, have handled it by then. Then waits
/// until Yew has rendered.
pub async fn after_window_event(event: &'static str, act: impl FnOnce()) {
    let window = gloo::utils::window();
    let mut listener = None;
    let heard = js_sys::Promise::new(&mut |heard, _| {
        listener = Some(gloo::events::EventListener::once(&window, event, move |_| {
            heard.call0(&wasm_bindgen::JsValue::NULL).expect("a promise resolves");
        }));
    });
    act();
    wasm_bindgen_futures::JsFuture::from(heard).await.expect("the event comes");
    drop(listener);
    rendered().await;
}

/// Waits until the tasks queued before now have run: a message posted to the
/// window comes after them. Then waits until Yew has rendered.
pub async fn after_queued_tasks() {
    after_window_event("message", || {
        gloo::utils::window()
            .post_message(&wasm_bindgen::JsValue::from_str("test: tasks queued before this one ran"), "*")
            .expect("a message can be posted");
    })
    .await;
}

pub fn all(root: &Element, selector: &str) -> Vec<Element> {
    let nodes = root.query_selector_all(selector).expect("a valid selector");
    (0..nodes.length())
        .filter_map(|index| nodes.item(index))
        .map(|node| node.unchecked_into())
        .collect()
}

pub fn texts(root: &Element, selector: &str) -> Vec<String> {
    all(root, selector)
        .iter()
        .map(|element| element.text_content().unwrap_or_default())
        .collect()
}

pub fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .expect("a valid selector")
        .unwrap_or_else(|| panic!("no {selector}"))
}

/// Fires a bubbling event of this name at `element`.
pub fn dispatch(element: &Element, event: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    element
        .dispatch_event(&Event::new_with_event_init_dict(event, &init).expect("an event"))
        .expect("dispatched");
}

/// Sends `target` a paste of `text`, as the browser sends one; whether the
/// browser may go on to paste it itself (no listener cancelled it).
pub fn paste_event(target: &Element, text: &str) -> bool {
    let data = web_sys::DataTransfer::new().unwrap();
    data.set_data("text/plain", text).unwrap();
    let init = web_sys::ClipboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_clipboard_data(Some(&data));
    let event = web_sys::ClipboardEvent::new_with_event_init_dict("paste", &init).unwrap();
    target.dispatch_event(&event).unwrap()
}
