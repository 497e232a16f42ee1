//! The page inside a lesson's iframe (`?embed=1`): one scenario, its panes
//! and the step control, and a postMessage API for the embedding page,
//! accepted only from the origins the iframe's address names
//! (`&origin=https://lessons.example`, repeatable).

use crate::share::{encode, Session};
use crate::ui::model::{Action, Model};
use gloo::events::EventListener;
use serde::Serialize;
use serde_json::Value;
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

/// Listens to the host's messages and tells it each new state.
#[hook]
pub fn use_embed_messages(
    embedding: Option<Embedding>,
    state: Option<EmbedState>,
    dispatch: UseReducerDispatcher<Model>,
) {
    let allowed = embedding
        .map(|embedding| embedding.allowed_origins)
        .unwrap_or_default();
    {
        let allowed = allowed.clone();
        use_effect_with(allowed, move |allowed| {
            let allowed = allowed.clone();
            let listener = (!allowed.is_empty()).then(|| {
                EventListener::new(&gloo::utils::window(), "message", move |event| {
                    let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else {
                        return;
                    };
                    if !allowed.iter().any(|origin| *origin == event.origin()) {
                        return;
                    }
                    if let Some(action) = action_of(&event.data()) {
                        dispatch.dispatch(action);
                    }
                })
            });
            move || drop(listener)
        });
    }
    use_effect_with(state, move |state| {
        let Some(state) = state else { return };
        let window = gloo::utils::window();
        let Ok(Some(parent)) = window.parent() else {
            return;
        };
        if parent == window {
            return;
        }
        let Ok(text) = serde_json::to_string(state) else {
            return;
        };
        let Ok(message) = js_sys::JSON::parse(&text) else {
            return;
        };
        for origin in &allowed {
            let _ = parent.post_message(&message, origin);
        }
    });
}

/// The page action a host's message asks for.
fn action_of(data: &JsValue) -> Option<Action> {
    let text = js_sys::JSON::stringify(data).ok()?.as_string()?;
    let message: Value = serde_json::from_str(&text).ok()?;
    match message.get("type")?.as_str()? {
        "gitops:step" => Some(Action::Step),
        "gitops:advance" => Some(Action::Advance),
        "gitops:run" => Some(Action::RunToEnd),
        "gitops:reset" => Some(Action::Reset),
        "gitops:load" => {
            if let Some(preset) = message.get("preset").and_then(Value::as_str) {
                return Some(Action::Open(Session::of_preset(preset)));
            }
            let scenario = match message.get("scenario")? {
                Value::String(text) => text.clone(),
                object => object.to_string(),
            };
            Some(Action::Open(Session::of_scenario(&scenario)))
        }
        _ => None,
    }
}
