//! What the embedded page tells its host: that it takes messages, its state
//! after every change, what did not happen and where, its height, and the
//! streams of events and of the plan a host subscribed to.

use gitops_core::Report;
use gitops_page::{Failure, Location, Model, Problem};
use gitops_world::attempt::Checked;
use gitops_world::World;
use gitops_world::event::Event;
use gitops_world::scenario::Mode;
use gitops_world::share::Session;
use serde::Serialize;
use serde_json::{Map, Value};
use crate::ui::ptr_eq::PtrEq;

/// Told once, when the page obeys messages: those that came earlier are
/// obeyed then, in their order.
#[derive(Serialize)]
pub struct Ready {
    #[serde(rename = "type")]
    kind: &'static str,
    version: &'static str,
    /// The message types the page takes.
    accepts: &'static [&'static str],
}

impl Ready {
    pub fn new() -> Self {
        Ready {
            kind: "gitops:ready",
            version: env!("CARGO_PKG_VERSION"),
            accepts: &super::requests::ACCEPTED,
        }
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
    playing: bool,
    options: EmbedOptions,
    /// Why a pane's text does not read, at its line and column; null while it reads.
    #[serde(rename = "desiredError")]
    desired_error: Option<PaneError>,
    #[serde(rename = "actualError")]
    actual_error: Option<PaneError>,
    /// Whether what is on screen is work this browser kept from an earlier
    /// visit, which the page offers to start over.
    resumed: bool,
    /// The link of what is on screen (`#v1.…`, as `gitops-sim link` prints
    /// it); null when the playground would not open it (it is too large),
    /// and `linkError` says why. Made by the browser just before the state is told.
    link: Option<String>,
    #[serde(rename = "linkError")]
    link_error: Option<String>,
    /// The exercise, and how far the work on it is; null without one.
    pub exercise: Option<Value>,
    #[serde(skip)]
    pub session: Session,
    /// The world and the report the state was read from, compared by
    /// allocation: comparing two worlds field by field on every render costs
    /// more than telling the host a state again.
    #[serde(skip)]
    pub world: PtrEq<World>,
    #[serde(skip)]
    pub report: PtrEq<Report>,
}

/// The options a host can set with `gitops:setOptions`, as they are.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
struct EmbedOptions {
    prune: bool,
    self_heal: bool,
    auto_sync: bool,
    respect_ignore_differences: bool,
    server_side_apply: bool,
    mode: Mode,
    agent: gitops_core::options::Agent,
    /// The ignore rules' text, as the Options panel holds it (`gitops:setOptions`
    /// takes it, or a list of rules).
    ignore: String,
}

/// How far the student's work on the exercise is, as Check finds it now: its
/// task, each goal and question held or not (`goals`, each `{what, holds}`),
/// `held` of `total`, `score` the share held (0 to 1), `solved`. Told as
/// `gitops:progress` when it changes, and in every state as `exercise`. Built
/// as a JSON value: a derived writer of its own costs the page more.
fn exercise_progress(task: &str, checked: &Checked) -> Value {
    let outcomes: Vec<&gitops_world::attempt::Outcome> = checked.goals.iter().chain(&checked.questions).collect();
    let held = outcomes.iter().filter(|outcome| outcome.passed).count();
    let total = outcomes.len();
    let goals = outcomes
        .iter()
        .map(|outcome| Value::Object(Map::from_iter([("what".to_string(), Value::from(outcome.what.as_str())), ("holds".to_string(), Value::from(outcome.passed))])))
        .collect();
    let fields = [
        ("task", Value::from(task)),
        ("goals", Value::Array(goals)),
        ("held", Value::from(held)),
        ("total", Value::from(total)),
        ("score", Value::from(if total == 0 { 1.0 } else { held as f64 / total as f64 })),
        ("solved", Value::from(checked.solved)),
    ];
    Value::Object(fields.into_iter().map(|(name, value)| (name.to_string(), value)).collect())
}

/// The `gitops:progress` message of an exercise's progress.
pub fn progress_message(progress: &Value) -> Value {
    let mut message = progress.clone();
    if let Value::Object(fields) = &mut message {
        fields.insert("type".to_string(), Value::from("gitops:progress"));
    }
    message
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct PaneError {
    message: String,
    line: Option<usize>,
    column: Option<usize>,
    pointer: Option<String>,
}

impl EmbedState {
    pub fn of(model: &Model, judged: Option<&Checked>) -> Option<EmbedState> {
        let report = model.panes.report.as_ref()?;
        let options = &model.world.options;
        let pane_error = |error: &Option<gitops_core::InputError>| {
            error.as_ref().map(|error| PaneError {
                message: error.to_string(),
                line: error.line,
                column: error.column,
                pointer: error.pointer.clone(),
            })
        };
        Some(EmbedState {
            kind: "gitops:state",
            scenario: model.preset.title.clone(),
            preset: model.work.session.preset.clone(),
            started: model.world.started,
            step: model.world.step,
            sync: report.status.sync,
            health: report.status.health,
            remaining: report
                .plan
                .iter()
                .filter(|operation| operation.changes_cluster())
                .count(),
            playing: model.playback.playing,
            options: EmbedOptions {
                prune: options.prune,
                self_heal: options.self_heal,
                auto_sync: options.auto_sync,
                respect_ignore_differences: options.respect_ignore_differences,
                server_side_apply: options.server_side_apply,
                mode: options.mode,
                agent: options.agent,
                ignore: model.panes.ignore_text.clone(),
            },
            desired_error: pane_error(&model.panes.desired.error),
            actual_error: pane_error(&model.panes.actual.error),
            resumed: model.work.resumed.is_some(),
            link: None,
            link_error: None,
            exercise: model.exercise().zip(judged).map(|(exercise, checked)| exercise_progress(&exercise.task, checked)),
            session: model.work.session.clone(),
            world: PtrEq(model.world.clone()),
            report: PtrEq(report.clone()),
        })
    }
}

impl EmbedState {
    /// The state with its link's fragment (`v1.…`), or why there is none.
    pub fn with_link(self, fragment: Result<String, String>) -> Self {
        let (link, link_error) = match fragment {
            Ok(fragment) => (Some(format!("#{fragment}")), None),
            Err(why) => (None, Some(why)),
        };
        EmbedState {
            link,
            link_error,
            ..self
        }
    }
}

/// What the embedded page tells its host when a link or a `gitops:load` does not
/// open, or a message is not one it knows or asks what cannot be.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmbedError<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    /// The message that failed (`gitops:load`, or a type this page does not know),
    /// or `link` for the link in the iframe's address.
    request: &'a str,
    /// What is wrong, and what is on screen instead.
    message: &'a str,
    /// Where in what was sent: the line and column of a scenario's text, or a
    /// JSON pointer into the message's scenario or fields (null where none applies).
    line: Option<usize>,
    column: Option<usize>,
    pointer: Option<&'a str>,
}

impl<'a> EmbedError<'a> {
    pub fn new(request: &'a str, problem: &'a Problem) -> Self {
        EmbedError::at(request, &problem.message, &problem.at)
    }

    pub fn of(failure: &'a Failure) -> Self {
        EmbedError::at(&failure.request, &failure.message, &failure.at)
    }

    fn at(request: &'a str, message: &'a str, at: &'a Location) -> Self {
        EmbedError {
            kind: "gitops:error",
            request,
            message,
            line: at.line,
            column: at.column,
            pointer: at.pointer.as_deref(),
        }
    }
}

/// The height of the page's content, so that the host can size the iframe to it.
#[derive(Serialize)]
pub struct Height {
    #[serde(rename = "type")]
    kind: &'static str,
    height: u32,
}

impl Height {
    pub fn new(height: u32) -> Self {
        Height {
            kind: "gitops:height",
            height,
        }
    }
}

/// The events the world added since the host was last told: `first` is the
/// index of the first of them in the run. When it is less than the count the
/// host holds, the world went back (Reset, a move undone, another scenario)
/// and the host's events from `first` on are gone.
#[derive(Serialize)]
pub struct Events<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    first: usize,
    events: &'a [Event],
}

impl<'a> Events<'a> {
    /// The events of `now` that `told` (the events told before) lacks.
    pub fn since(told: &[Event], now: &'a [Event]) -> Option<Self> {
        let first = told
            .iter()
            .zip(now)
            .position(|(before, after)| before != after)
            .unwrap_or(told.len().min(now.len()));
        (first < told.len() || first < now.len()).then(|| Events {
            kind: "gitops:events",
            first,
            events: &now[first..],
        })
    }
}

/// The plan, after each change of it.
#[derive(Serialize)]
pub struct PlanMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    plan: &'a gitops_core::Plan,
}

impl<'a> PlanMessage<'a> {
    pub fn of(report: &'a Report) -> Self {
        PlanMessage {
            kind: "gitops:plan",
            plan: &report.plan,
        }
    }
}

/// Posts `message` to the page that embeds this one, at each allowed origin.
pub fn tell_host(message: &impl Serialize, allowed: &[String]) {
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
