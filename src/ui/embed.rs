//! The page inside a lesson's iframe (`?embed=1`): one scenario, its panes
//! and the step control, and a postMessage API for the embedding page,
//! accepted only from the origins the iframe's address names
//! (`&origin=https://lessons.example`, repeatable). It tells the host its state
//! after every change, and what did not open and why.

use crate::share::{encode, Session};
use crate::ui::model::{Action, Failure, Model, Source};
use gloo::events::EventListener;
use serde::Serialize;
use serde_json::Value;
use std::cell::Cell;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// The page is embedded, and who may talk to it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Embedding {
    pub allowed_origins: Vec<String>,
}

impl Embedding {
    /// `Some` when the page's address asks for the embedded view.
    pub fn from_location() -> Option<Embedding> {
        let search = gloo::utils::window().location().search().ok()?;
        let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
        if params.get("embed").as_deref() != Some("1") {
            return None;
        }
        let origins = params.get_all("origin");
        let allowed_origins = origins
            .iter()
            .filter_map(|origin| origin.as_string())
            .flat_map(|origins| {
                origins
                    .split(',')
                    .map(|origin| origin.trim().trim_end_matches('/').to_string())
                    .collect::<Vec<_>>()
            })
            .filter(|origin| origin.starts_with("http://") || origin.starts_with("https://"))
            .collect();
        Some(Embedding { allowed_origins })
    }
}

/// What the embedded page tells its host after every change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmbedState {
    #[serde(rename = "type")]
    kind: &'static str,
    scenario: String,
    preset: Option<String>,
    started: bool,
    step: u32,
    sync: crate::core::SyncStatus,
    health: crate::core::health::Health,
    /// Operations left in the plan.
    remaining: usize,
    /// The link fragment of what is on screen.
    link: String,
}

impl EmbedState {
    pub fn of(model: &Model) -> Option<EmbedState> {
        let report = model.report.as_ref()?;
        Some(EmbedState {
            kind: "gitops:state",
            scenario: model.preset.title.clone(),
            preset: model.session.preset.clone(),
            started: model.world.started,
            step: model.world.step,
            sync: report.status.sync,
            health: report.status.health,
            remaining: report
                .plan
                .iter()
                .filter(|operation| operation.changes_cluster())
                .count(),
            link: encode(&model.session),
        })
    }
}

/// What the embedded page tells its host when a link or a `gitops:load` does not
/// open, or a message is not one it knows.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct EmbedError<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    /// The message that failed (`gitops:load`, or a type this page does not know),
    /// or `link` for the link in the iframe's address.
    request: &'a str,
    /// What is wrong, and what is on screen instead.
    message: &'a str,
}

impl<'a> EmbedError<'a> {
    fn new(request: &'a str, message: &'a str) -> Self {
        EmbedError {
            kind: "gitops:error",
            request,
            message,
        }
    }
}

/// Listens to the host's messages and tells it each new state (once the start
/// is over) and each failure.
#[hook]
pub fn use_embed_messages(
    embedding: Option<Embedding>,
    state: Option<EmbedState>,
    failure: Option<Failure>,
    dispatch: UseReducerDispatcher<Model>,
) {
    let embedded = embedding.is_some();
    let allowed = embedding
        .map(|embedding| embedding.allowed_origins)
        .unwrap_or_default();
    {
        let allowed = allowed.clone();
        use_effect_with((embedded, allowed), move |(embedded, allowed)| {
            let allowed = allowed.clone();
            // A message from an origin the address does not name is reported once.
            let warned = Cell::new(false);
            let listener = embedded.then(|| {
                EventListener::new(&gloo::utils::window(), "message", move |event| {
                    let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else {
                        return;
                    };
                    let Some((kind, message)) = message_of(&event.data()) else {
                        return;
                    };
                    let origin = event.origin();
                    if !allowed.contains(&origin) {
                        if !warned.replace(true) {
                            gloo::console::warn!(ignored(&kind, &origin, &allowed));
                        }
                        return;
                    }
                    match action_of(&kind, &message) {
                        Ok(Some(action)) => dispatch.dispatch(action),
                        Ok(None) => {}
                        Err(error) => tell_host(&EmbedError::new(&kind, &error), &allowed),
                    }
                })
            });
            move || drop(listener)
        });
    }
    {
        let allowed = allowed.clone();
        use_effect_with(state, move |state| {
            if let Some(state) = state {
                tell_host(state, &allowed);
            }
        });
    }
    use_effect_with(failure, move |failure| {
        if let Some(failure) = failure {
            tell_host(
                &EmbedError::new(&failure.request, &failure.message),
                &allowed,
            );
        }
    });
}

/// Posts `message` to the page that embeds this one, at each allowed origin.
fn tell_host(message: &impl Serialize, allowed: &[String]) {
    let window = gloo::utils::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    let Ok(text) = serde_json::to_string(message) else {
        return;
    };
    let Ok(message) = js_sys::JSON::parse(&text) else {
        return;
    };
    for origin in allowed {
        let _ = parent.post_message(&message, origin);
    }
}

/// A message for this playground: its type (`gitops:…`) and the whole of it.
/// Other messages (another script's) are none of its business.
fn message_of(data: &JsValue) -> Option<(String, Value)> {
    let kind = js_sys::Reflect::get(data, &JsValue::from_str("type"))
        .ok()?
        .as_string()
        .filter(|kind| kind.starts_with("gitops:"))?;
    let text = js_sys::JSON::stringify(data).ok()?.as_string()?;
    Some((kind, serde_json::from_str(&text).ok()?))
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

/// The page action a host's message asks for; none for this playground's own
/// messages (a host that sends them back); an error for a type it does not know.
fn action_of(kind: &str, message: &Value) -> Result<Option<Action>, String> {
    Ok(Some(match kind {
        "gitops:step" => Action::Step,
        "gitops:advance" => Action::Advance,
        "gitops:run" => Action::RunToEnd,
        "gitops:reset" => Action::Reset,
        "gitops:load" => load_of(message),
        "gitops:state" | "gitops:error" => return Ok(None),
        unknown => {
            return Err(format!(
                "This playground does not know the message {unknown}: it takes gitops:step, \
                 gitops:advance, gitops:run, gitops:reset and gitops:load."
            ))
        }
    }))
}

/// What a `gitops:load` asks to open: a preset by its file name, or a scenario
/// (an object, or JSON or YAML text).
fn load_of(message: &Value) -> Action {
    let field = |name| message.get(name).filter(|value| !value.is_null());
    match (field("preset"), field("scenario")) {
        (Some(Value::String(file)), _) => Action::Open(Session::of_preset(file), Source::Host),
        (Some(_), _) => Action::CannotOpen(
            Source::Host,
            "its preset is not a preset's file name (such as mutable-tag.yaml)".to_string(),
        ),
        (None, Some(Value::String(text))) => Action::Open(Session::of_scenario(text), Source::Host),
        (None, Some(scenario)) => {
            Action::Open(Session::of_scenario(&scenario.to_string()), Source::Host)
        }
        (None, None) => Action::CannotOpen(
            Source::Host,
            "the message names neither a preset nor a scenario".to_string(),
        ),
    }
}
