//! What a host's message asks of the embedded page, read field by field:
//! only the fields a message's type uses are read, so that nothing else in
//! it can keep it from being obeyed.

use gitops_core::InputError;
use gitops_js::json_of;
use gitops_page::{Action, Location, Pane, PlaybackAction, Problem, Source};
use gitops_core::options::Agent;
use gitops_world::scenario::Mode;
use gitops_world::share::Session;
use wasm_bindgen::{JsCast, JsValue};

/// The messages a host may send, as the error for an unknown one lists them.
pub const ACCEPTED: [&str; 12] = [
    "gitops:step",
    "gitops:advance",
    "gitops:run",
    "gitops:reset",
    "gitops:load",
    "gitops:play",
    "gitops:pause",
    "gitops:setText",
    "gitops:setOptions",
    "gitops:getState",
    "gitops:subscribe",
    "gitops:check",
];

/// What a host's message asks for.
pub enum Request {
    /// Actions for the page's reducer, in order.
    Act(Vec<Action>),
    /// The state now, even if it has not changed since it was told.
    TellState,
    /// The streams of events and of the plan the host wants from now on.
    Subscribe(Streams),
    /// One of this playground's own messages sent back: nothing to do.
    Nothing,
}

/// Which streams a host has asked for with `gitops:subscribe`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Streams {
    pub events: bool,
    pub plan: bool,
}

/// The type of a message for this playground (`gitops:…`). Other messages
/// (another script's) are none of its business.
pub fn kind_of(data: &JsValue) -> Option<String> {
    js_sys::Reflect::get(data, &JsValue::from_str("type"))
        .ok()?
        .as_string()
        .filter(|kind| kind.starts_with("gitops:"))
}

/// What the message of type `kind` asks for, or what is wrong with it (at
/// its field's pointer).
pub fn request_of(kind: &str, message: &JsValue) -> Result<Request, Problem> {
    let act = |action: Action| Ok(Request::Act(vec![action]));
    match kind {
        "gitops:step" => act(Action::Step),
        "gitops:advance" => act(Action::Advance),
        "gitops:run" => act(Action::RunToEnd),
        "gitops:reset" => act(Action::Reset),
        "gitops:play" => act(PlaybackAction::Play.into()),
        "gitops:pause" => act(PlaybackAction::Pause.into()),
        "gitops:load" => act(load_of(message)),
        "gitops:setText" => set_text(message).map(Request::Act),
        "gitops:setOptions" => set_options(message).map(Request::Act),
        "gitops:getState" => Ok(Request::TellState),
        "gitops:check" => act(Action::Check),
        "gitops:subscribe" => subscription(message).map(Request::Subscribe),
        "gitops:state" | "gitops:error" | "gitops:ready" | "gitops:height" | "gitops:events"
        | "gitops:plan" | "gitops:progress" => Ok(Request::Nothing),
        unknown => Err(format!(
            "This playground does not know the message {unknown}: it takes {}.",
            ACCEPTED.join(", ")
        )
        .into()),
    }
}

fn field(message: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(message, &JsValue::from_str(name))
        .ok()
        .filter(|value| !value.is_undefined())
}

fn wrong(pointer: &str, message: String) -> Problem {
    Problem {
        message,
        at: Location {
            pointer: Some(pointer.to_string()),
            ..Location::default()
        },
    }
}

/// A `gitops:setText`: `pane` (`desired` or `actual`) takes `text`, as if
/// typed, and the world takes it at once rather than after a pause: a text
/// for Desired is committed, with the page's message, as a host's script
/// sets what Git holds.
fn set_text(message: &JsValue) -> Result<Vec<Action>, Problem> {
    let pane = match field(message, "pane")
        .and_then(|pane| pane.as_string())
        .as_deref()
    {
        Some("desired") => Pane::Desired,
        Some("actual") => Pane::Actual,
        _ => {
            return Err(wrong(
                "/pane",
                "its pane is not \"desired\" or \"actual\"".into(),
            ));
        }
    };
    let Some(text) = field(message, "text").and_then(|text| text.as_string()) else {
        return Err(wrong(
            "/text",
            "its text is not a string (JSON or YAML text)".into(),
        ));
    };
    let mut actions = vec![Action::Edit(pane, text.into()), Action::Settle];
    if pane == Pane::Desired {
        actions.push(Action::Commit);
    }
    Ok(actions)
}

/// A `gitops:setOptions`: any of `prune`, `selfHeal`, `autoSync`,
/// `respectIgnoreDifferences`, `serverSideApply` (booleans), `mode` (`push` or `pull`),
/// `agent` (`argocd` or `flux`) and `ignore` (a list of rules, or its text), as the
/// Options panel sets them; nothing changes when one is wrong.
fn set_options(message: &JsValue) -> Result<Vec<Action>, Problem> {
    let Some(options) = field(message, "options").filter(JsValue::is_object) else {
        return Err(wrong(
            "/options",
            "its options are not an object such as {prune: true, mode: \"pull\"}".into(),
        ));
    };
    type Switch = fn(bool) -> Action;
    let switches: [(&str, Switch); 5] = [
        ("prune", Action::SetPrune),
        ("selfHeal", Action::SetSelfHeal),
        ("autoSync", Action::SetAutoSync),
        (
            "respectIgnoreDifferences",
            Action::SetRespectIgnoreDifferences,
        ),
        ("serverSideApply", Action::SetServerSideApply),
    ];
    let known = "prune, selfHeal, autoSync, respectIgnoreDifferences, serverSideApply, mode, agent and ignore";
    let mut actions = Vec::new();
    for key in js_sys::Object::keys(options.unchecked_ref::<js_sys::Object>()).iter() {
        let name = key.as_string().unwrap_or_default();
        let pointer = format!("/options/{}", gitops_core::pointer::escape(&name));
        let value = field(&options, &name).unwrap_or(JsValue::UNDEFINED);
        if name == "mode" {
            actions.push(Action::SetMode(match value.as_string().as_deref() {
                Some("push") => Mode::Push,
                Some("pull") => Mode::Pull,
                _ => return Err(wrong(&pointer, "mode is \"push\" or \"pull\"".into())),
            }));
            continue;
        }
        if name == "agent" {
            actions.push(Action::SetAgent(match value.as_string().as_deref() {
                Some("argocd") => Agent::ArgoCd,
                Some("flux") => Agent::Flux,
                _ => return Err(wrong(&pointer, "agent is \"argocd\" or \"flux\"".into())),
            }));
            continue;
        }
        if name == "ignore" {
            let text = match value.as_string() {
                Some(text) => text,
                None => json_of("ignore", value).ok().and_then(|rules| serde_json::to_string(&rules).ok()).unwrap_or_default(),
            };
            if let Err(why) = gitops_world::person::ignore_rules(&text) {
                return Err(wrong(&pointer, format!("ignore is a list of ignore rules (or their YAML or JSON text): {why}")));
            }
            actions.push(Action::EditIgnore(text));
            continue;
        }
        let Some((_, set)) = switches.iter().find(|(known, _)| *known == name) else {
            return Err(wrong(
                &pointer,
                format!("there is no option {name:?}: the options are {known}"),
            ));
        };
        let Some(on) = value.as_bool() else {
            return Err(wrong(&pointer, format!("{name} is true or false")));
        };
        actions.push(set(on));
    }
    Ok(actions)
}

/// A `gitops:subscribe`: `events` and `plan`, true to be told each new event
/// and each new plan, false to stop.
fn subscription(message: &JsValue) -> Result<Streams, Problem> {
    let flag = |name: &str| match field(message, name) {
        None => Ok(false),
        Some(value) => value
            .as_bool()
            .ok_or_else(|| wrong(&format!("/{name}"), format!("{name} is true or false"))),
    };
    Ok(Streams {
        events: flag("events")?,
        plan: flag("plan")?,
    })
}

/// What a `gitops:load` asks to open: a preset by its file name, or a scenario
/// (an object, or JSON or YAML text). A scenario object that JSON cannot carry
/// does not open, and the host is told why and where, as for one that does
/// not read.
fn load_of(message: &JsValue) -> Action {
    let given = |name: &str| field(message, name).filter(|value| !value.is_null());
    let opened = match (given("preset"), given("scenario")) {
        (Some(file), _) => file
            .as_string()
            .map(|file| Session::of_preset(&file))
            .ok_or_else(|| {
                wrong(
                    "/preset",
                    "its preset is not a preset's file name (such as mutable-tag.yaml)".into(),
                )
            }),
        (None, Some(scenario)) => scenario_text(&scenario).map(|text| Session::of_scenario(&text)),
        (None, None) => Err("the message names neither a preset nor a scenario".into()),
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
fn scenario_text(scenario: &JsValue) -> Result<String, Problem> {
    if let Some(text) = scenario.as_string() {
        return Ok(text);
    }
    let value = json_of("scenario", scenario.clone()).map_err(|error| shortened(&error))?;
    serde_json::to_string(&value).map_err(|error| error.to_string().into())
}

/// An error as a notice says it, a pointer many levels deep cut short; the
/// host is told the whole pointer.
fn shortened(error: &InputError) -> Problem {
    let at = Location::of(error);
    let mut said = error.clone();
    if let Some(pointer) = &error.pointer {
        let segments: Vec<&str> = pointer.split('/').skip(1).collect();
        if segments.len() > 6 {
            said.pointer = Some(format!("/{}/…", segments[..4].join("/")));
        }
    }
    Problem {
        message: said.to_string(),
        at,
    }
}
