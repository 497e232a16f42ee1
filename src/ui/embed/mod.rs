//! The page inside a lesson's iframe (`?embed=1`): one scenario, its panes
//! and the step control, and a postMessage API for the embedding page,
//! accepted only from the origins the iframe's address names
//! (`&origin=https://lessons.example`, repeatable). It says when it takes
//! messages (`gitops:ready`; what came earlier, even before the wasm ran, is
//! obeyed then, in order), tells the host its state after every change, what
//! did not happen and where, its content's height, and the events and plans
//! a host subscribed to.

mod address;
mod reports;
mod requests;

pub use address::{Embedding, Panes};
pub use reports::EmbedState;

use crate::ui::reducer::PageModel;
use gitops_page::{Action, Failure};
use gitops_world::event::Event;
use gloo::events::EventListener;
use reports::{tell_host, EmbedError, Events, Height, PlanMessage, Ready};
use requests::{kind_of, request_of, Request, Streams};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// Where `index.html` keeps the messages that came before the wasm listened.
const EARLY_MESSAGES: &str = "gitopsEarlyMessages";

/// The host's side of the page: who may talk to it, what waits for the page
/// to be ready, and what the host was told last.
struct Host {
    allowed: Vec<String>,
    dispatch: UseReducerDispatcher<PageModel>,
    /// The messages obeyed once the page is ready; `None` once it is.
    held: RefCell<Option<Vec<(String, JsValue)>>>,
    /// A message from an origin the address does not name is reported once.
    warned: Cell<bool>,
    latest: RefCell<Option<EmbedState>>,
    streams: Cell<Streams>,
    told_events: RefCell<Vec<Event>>,
    told_plan: RefCell<Option<gitops_core::Plan>>,
    told_progress: RefCell<Option<serde_json::Value>>,
    /// Counts the states, so that a state is told only if no newer one came
    /// while its link was made.
    states: Cell<u64>,
}

impl Host {
    fn hear(self: &Rc<Self>, event: &web_sys::MessageEvent) {
        let message = event.data();
        let Some(kind) = kind_of(&message) else {
            return;
        };
        let origin = event.origin();
        if !self.allowed.contains(&origin) {
            if !self.warned.replace(true) {
                gloo::console::warn!(ignored(&kind, &origin, &self.allowed));
            }
            return;
        }
        if let Some(held) = self.held.borrow_mut().as_mut() {
            held.push((kind, message));
            return;
        }
        self.obey(&kind, &message);
    }

    fn obey(self: &Rc<Self>, kind: &str, message: &JsValue) {
        match request_of(kind, message) {
            Ok(Request::Act(actions)) => {
                for action in actions {
                    self.dispatch.dispatch(Action::Hosted(Box::new(action)));
                }
            }
            Ok(Request::TellState) => {
                if let Some(state) = self.latest.borrow().clone() {
                    self.tell_state(state, None);
                }
            }
            Ok(Request::Subscribe(streams)) => {
                self.streams.set(streams);
                self.told_events.borrow_mut().clear();
                *self.told_plan.borrow_mut() = None;
                if let Some(state) = self.latest.borrow().as_ref() {
                    self.tell_streams(state);
                }
            }
            Ok(Request::Nothing) => {}
            Err(problem) => tell_host(&EmbedError::new(kind, &problem), &self.allowed),
        }
    }

    /// The page takes messages: says so, then obeys those that waited.
    fn ready(self: &Rc<Self>) {
        let Some(held) = self.held.borrow_mut().take() else {
            return;
        };
        tell_host(&Ready::new(), &self.allowed);
        for (kind, message) in held {
            self.obey(&kind, &message);
        }
    }

    /// Tells `state` once its link is made, unless `number` (the state's
    /// count) is no longer the latest.
    fn tell_state(self: &Rc<Self>, state: EmbedState, number: Option<u64>) {
        let host = self.clone();
        yew::platform::spawn_local(async move {
            let link = crate::ui::compression::encode_link(&state.session).await;
            if number.is_some_and(|number| number != host.states.get()) {
                return;
            }
            tell_host(&state.with_link(link), &host.allowed);
        });
    }

    /// Tells `gitops:progress` when the exercise's goals held change.
    fn tell_progress(&self, state: &EmbedState) {
        let mut told = self.told_progress.borrow_mut();
        if let (Some(progress), false) = (&state.exercise, *told == state.exercise) {
            tell_host(&reports::progress_message(progress), &self.allowed);
        }
        told.clone_from(&state.exercise);
    }

    fn tell_streams(&self, state: &EmbedState) {
        let streams = self.streams.get();
        if streams.events {
            let mut told = self.told_events.borrow_mut();
            if let Some(events) = Events::since(&told, &state.world.events) {
                tell_host(&events, &self.allowed);
                *told = state.world.events.clone();
            }
        }
        if streams.plan {
            let mut told = self.told_plan.borrow_mut();
            if told.as_ref() != Some(&state.report.plan) {
                tell_host(&PlanMessage::of(&state.report), &self.allowed);
                *told = Some(state.report.plan.clone());
            }
        }
    }
}

/// Listens to the host's messages, obeys them once the page is `ready` (the
/// start is over), and tells it each new state and each failure.
#[hook]
pub fn use_embed_messages(
    embedding: Option<Embedding>,
    ready: bool,
    state: Option<EmbedState>,
    failure: Option<Failure>,
    dispatch: UseReducerDispatcher<PageModel>,
) {
    let embedded = embedding.is_some();
    let host = use_memo((), |()| {
        Rc::new(Host {
            allowed: embedding.map(|embedding| embedding.allowed_origins).unwrap_or_default(),
            dispatch,
            held: RefCell::new(Some(Vec::new())),
            warned: Cell::new(false),
            latest: RefCell::new(None),
            streams: Cell::new(Streams::default()),
            told_events: RefCell::new(Vec::new()),
            told_plan: RefCell::new(None),
            told_progress: RefCell::new(None),
            states: Cell::new(0),
        })
    });
    {
        let host = (*host).clone();
        use_effect_with(embedded, move |embedded| {
            let listener = embedded.then(|| {
                hear_early_messages(&host);
                EventListener::new(&gloo::utils::window(), "message", move |event| {
                    if let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() {
                        host.hear(event);
                    }
                })
            });
            move || drop(listener)
        });
    }
    {
        let host = (*host).clone();
        use_effect_with(embedded && ready, move |ready| {
            if *ready {
                host.ready();
            }
        });
    }
    {
        let host = (*host).clone();
        use_effect_with(state, move |state| {
            let number = host.states.get();
            *host.latest.borrow_mut() = state.clone();
            if let Some(state) = state.clone() {
                host.tell_progress(&state);
                host.tell_streams(&state);
                host.tell_state(state, Some(number));
            }
            // A newer state, or the page taken down: a link still being made is not told.
            move || host.states.set(number + 1)
        });
    }
    {
        let host = (*host).clone();
        use_effect_with(failure, move |failure| {
            if let Some(failure) = failure {
                tell_host(&EmbedError::of(failure), &host.allowed);
            }
        });
    }
    use_content_height(embedded, (*host).clone());
}

/// Hears the messages `index.html` kept while the wasm loaded, in their order,
/// and stops it keeping more.
fn hear_early_messages(host: &Rc<Host>) {
    let window = gloo::utils::window();
    let key = JsValue::from_str(EARLY_MESSAGES);
    let Ok(early) = js_sys::Reflect::get(&window, &key) else {
        return;
    };
    let _ = js_sys::Reflect::delete_property(&window, &key);
    if !js_sys::Array::is_array(&early) {
        return;
    }
    for event in js_sys::Array::from(&early).iter() {
        if let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() {
            host.hear(event);
        }
    }
}

/// Tells the host the height of the page's content whenever it changes, so
/// that it can size the iframe to it.
#[hook]
fn use_content_height(embedded: bool, host: Rc<Host>) {
    use_effect_with(embedded, move |embedded| {
        let observer = embedded.then(|| {
            let told = Cell::new(0u32);
            let tell = Closure::<dyn FnMut()>::new(move || {
                let height = gloo::utils::body().scroll_height().max(0) as u32;
                if told.replace(height) != height {
                    tell_host(&Height::new(height), &host.allowed);
                }
            });
            let observer = web_sys::ResizeObserver::new(tell.as_ref().unchecked_ref()).ok();
            if let Some(observer) = &observer {
                observer.observe(&gloo::utils::body());
            }
            (observer, tell)
        });
        move || {
            if let Some((Some(observer), _)) = &observer {
                observer.disconnect();
            }
            drop(observer);
        }
    });
}

/// The console warning for a host's message that came from an origin the
/// iframe's address does not name: which origin, and how to allow it.
fn ignored(kind: &str, origin: &str, allowed: &[String]) -> String {
    let named = if allowed.is_empty() {
        "none: origin=* and origins that are not http:// or https:// are never accepted".to_string()
    } else {
        allowed.join(", ")
    };
    let allow = if origin.starts_with("http://") || origin.starts_with("https://") {
        format!(
            "To allow it, add &origin={} to the iframe's address.",
            js_sys::encode_uri_component(origin)
        )
    } else {
        "A page at this origin cannot be allowed: serve the lesson page over http:// or https://."
            .to_string()
    };
    format!(
        "The embedded GitOps playground ignored a {kind} message from {origin}: it obeys only \
         the origins its address names ({named}). {allow} Other messages it ignores are not \
         reported."
    )
}
