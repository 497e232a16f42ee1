//! The page inside a lesson's iframe (`?embed=1`): one scenario, its panes
//! and the step control, and a postMessage API for the embedding page,
//! accepted only from the origins the iframe's address names
//! (`&origin=https://lessons.example`, repeatable). It tells the host its state
//! after every change, and what did not open and why.

use crate::ui::reducer::PageModel;
use gitops_core::InputError;
use gitops_js::json_of;
use gitops_page::{Action, Failure, Model, Source};
use gitops_world::share::Session;

use gloo::events::EventListener;
use serde::Serialize;
use std::cell::Cell;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// The page is embedded, and who may talk to it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Embedding {
    pub allowed_origins: Vec<String>,
    /// `view=picture`: the picture of the world and its controls alone.
    pub picture_only: bool,
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
        let picture_only = params.get("view").as_deref() == Some("picture");
        Some(Embedding {
            allowed_origins,
            picture_only,
        })
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
    sync: gitops_core::SyncStatus,
    health: gitops_core::health::Health,
    /// Operations left in the plan.
    remaining: usize,
    /// Whether what is on screen is work this browser kept from an earlier
    /// visit, which the page offers to start over.
    resumed: bool,
    /// The link fragment of what is on screen; null when the playground would
    /// not open it (it is too large), and `linkError` says why. Made by the browser
    /// just before the state is told.
    link: Option<String>,
    #[serde(rename = "linkError")]
    link_error: Option<String>,
    #[serde(skip)]
    session: Session,
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
            resumed: model.resumed.is_some(),
            remaining: report
                .plan
                .iter()
                .filter(|operation| operation.changes_cluster())
                .count(),
            link: None,
            link_error: None,
            session: model.session.clone(),
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
    dispatch: UseReducerDispatcher<PageModel>,
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
                    let message = event.data();
                    let Some(kind) = kind_of(&message) else {
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
        // Each state is told once its link is made, unless a newer state came meanwhile.
        let latest = use_mut_ref(|| 0u64);
        use_effect_with(state, move |state| {
            let told = latest.replace_with(|count| *count + 1) + 1;
            if let Some(state) = state.clone() {
                yew::platform::spawn_local(async move {
                    let link = crate::ui::compression::encode_link(&state.session).await;
                    if *latest.borrow() == told {
                        let (link, link_error) = (link.clone().ok(), link.err());
                        tell_host(&EmbedState { link, link_error, ..state }, &allowed);
                    }
                });
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

/// The type of a message for this playground (`gitops:…`). Other messages
/// (another script's) are none of its business. Only the fields a message's
/// type uses are read (a `gitops:load`'s `preset` and `scenario`), so that
/// nothing else in it can keep it from being obeyed.
fn kind_of(data: &JsValue) -> Option<String> {
    js_sys::Reflect::get(data, &JsValue::from_str("type"))
        .ok()?
        .as_string()
        .filter(|kind| kind.starts_with("gitops:"))
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
fn action_of(kind: &str, message: &JsValue) -> Result<Option<Action>, String> {
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
/// (an object, or JSON or YAML text). A scenario object that JSON cannot carry
/// does not open, and the host is told why and where, as for one that does
/// not read.
fn load_of(message: &JsValue) -> Action {
    let field = |name: &str| {
        js_sys::Reflect::get(message, &JsValue::from_str(name))
            .ok()
            .filter(|value| !value.is_null() && !value.is_undefined())
    };
    let opened = match (field("preset"), field("scenario")) {
        (Some(file), _) => file
            .as_string()
            .map(|file| Session::of_preset(&file))
            .ok_or_else(|| {
                "its preset is not a preset's file name (such as mutable-tag.yaml)".to_string()
            }),
        (None, Some(scenario)) => scenario_text(&scenario).map(|text| Session::of_scenario(&text)),
        (None, None) => Err("the message names neither a preset nor a scenario".to_string()),
    };
    match opened {
        Ok(session) => Action::Open(session, Source::Host),
        Err(problem) => Action::CannotOpen(Source::Host, problem),
    }
}

/// A `gitops:load`'s scenario as text: a text as it is, an object as JSON
/// (read as the API reads one, `gitops_js::json_of`). What JSON cannot carry
/// (a BigInt, a cycle, nesting deeper than the playground reads) is an error
/// that says what and where; anything else the scenario reader finds, as in
/// a text.
fn scenario_text(scenario: &JsValue) -> Result<String, String> {
    if let Some(text) = scenario.as_string() {
        return Ok(text);
    }
    let value = json_of("scenario", scenario.clone()).map_err(|error| shortened(&error))?;
    serde_json::to_string(&value).map_err(|error| error.to_string())
}

/// An error as a notice says it, a pointer many levels deep cut short.
fn shortened(error: &InputError) -> String {
    let mut error = error.clone();
    if let Some(pointer) = &error.pointer {
        let segments: Vec<&str> = pointer.split('/').skip(1).collect();
        if segments.len() > 6 {
            error.pointer = Some(format!("/{}/…", segments[..4].join("/")));
        }
    }
    error.to_string()
}
