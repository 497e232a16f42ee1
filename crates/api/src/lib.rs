//! The JavaScript API that lesson pages call directly: the reconcile core
//! and the world, exported with `wasm-bindgen`. Inputs and results are plain
//! JavaScript objects (read by `gitops_js::json_of`, results as plain
//! objects and arrays, never `Map`s); states may also be given as JSON or
//! YAML text. Bad input throws an `Error` named `GitopsInputError` that
//! carries the fields of [`InputError`] (`kind`, `source`, `line`, `column`,
//! `pointer`, `key`; absent ones are left out) and its `message` is the
//! error's text, the same one `gitops-sim` prints.

// An `InputError` is large, but errors are rare and never on a hot path.
#![allow(clippy::result_large_err)]

use gitops_core::error::InputError;
use gitops_core::options::Options;
use gitops_core::state::{describe, forms_agree, State};
use gitops_core::Operation;
use gitops_js::json_of;
use gitops_world::event::Event;
use gitops_world::scenario::Scenario;
use gitops_world::summary::Summary;
use gitops_world::World;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use wasm_bindgen::prelude::*;

mod types;

/// Talc in place of Rust's default dlmalloc: smaller and faster in wasm.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The `name` of every error thrown for bad input.
pub const ERROR_NAME: &str = "GitopsInputError";

/// The plan that makes `actual` equal `desired`: an array of operations
/// (`{op: "create" | "update" | "delete" | "skip", key, wave, ...}`) in the
/// order a sync runs them.
///
/// `desired` and `actual` are states: an object of named objects, a list of
/// Kubernetes objects (or one), a Kubernetes `List`, or that as JSON or YAML
/// text. `options` is `{prune?: boolean, ignore?: [...]}`, as a scenario's
/// `options`; left out, nothing is pruned or ignored.
///
/// Throws a `GitopsInputError` when an input does not read.
// Declared in `types.rs`, where `options` can be optional.
#[wasm_bindgen(skip_typescript)]
pub fn diff(
    desired: JsValue,
    actual: JsValue,
    options: Option<JsValue>,
) -> Result<JsValue, js_sys::Error> {
    let (desired, actual, options) = inputs(desired, actual, options)?;
    output(&gitops_core::plan(&desired, &actual, &options))
}

/// The actual state after carrying out `plan` (an array of operations, as
/// `diff` returns), in the form `actual` was given in.
///
/// Throws a `GitopsInputError` when `actual` does not read or `plan` is not
/// an array of operations.
#[wasm_bindgen(unchecked_return_type = "State")]
pub fn apply(
    #[wasm_bindgen(unchecked_param_type = "Operation[]")] plan: JsValue,
    #[wasm_bindgen(unchecked_param_type = "StateInput")] actual: JsValue,
) -> Result<JsValue, js_sys::Error> {
    let plan = read_plan(plan)?;
    let actual = read_state("actual", actual)?;
    output(&gitops_core::apply(&plan, &actual).to_value())
}

/// The drift of `actual` from `desired`, whether or not a plan would fix it:
/// `{missing, changed, extra, changes}`, keys in order, and for each changed
/// key its field-level changes.
///
/// Takes the same inputs as `diff`; throws a `GitopsInputError` when one
/// does not read.
// Declared in `types.rs`, where `options` can be optional.
#[wasm_bindgen(skip_typescript)]
pub fn drift(
    desired: JsValue,
    actual: JsValue,
    options: Option<JsValue>,
) -> Result<JsValue, js_sys::Error> {
    let (desired, actual, options) = inputs(desired, actual, options)?;
    output(&gitops_core::drift(&desired, &actual, &options))
}

/// What the reconciler reports, as `gitops-sim plan` prints it:
/// `{plan, drift, status: {sync, health}, objects, warnings}`.
///
/// Takes the same inputs as `diff`; throws a `GitopsInputError` when one
/// does not read.
// Declared in `types.rs`, where `options` can be optional.
#[wasm_bindgen(skip_typescript)]
pub fn report(
    desired: JsValue,
    actual: JsValue,
    options: Option<JsValue>,
) -> Result<JsValue, js_sys::Error> {
    let (desired, actual, options) = inputs(desired, actual, options)?;
    output(&gitops_core::report(&desired, &actual, &options))
}

/// The report of a scenario's environment at a minute: `at` left out, its
/// start (what `gitops-sim plan` prints); `at: n`, once minute `n` has run,
/// Git's head for the environment against its cluster then, compared with its
/// options then. `environment` left out, the first. The same shape as
/// `report`'s.
///
/// Throws a `GitopsInputError` when the scenario does not read, or `where`
/// names an environment it lacks or a minute past its end.
#[wasm_bindgen(skip_typescript)]
pub fn plan(scenario: JsValue, at: Option<JsValue>) -> Result<JsValue, js_sys::Error> {
    let scenario = scenario_of(scenario)?;
    let refuse = |pointer: &str, message: String| thrown(&InputError::shape("at", pointer, message));
    let mut environment = None;
    let mut minute = None;
    if let Some(at) = at.filter(|at| !at.is_null() && !at.is_undefined()) {
        let value = json_of("at", at).map_err(|error| thrown(&error))?;
        let Value::Object(fields) = value else {
            return Err(refuse("", "it is {environment?, at?}".into()));
        };
        for (name, field) in fields {
            match (name.as_str(), field) {
                ("environment", Value::String(name)) => environment = Some(name),
                ("at", Value::Number(number)) if number.as_u64().is_some() => minute = number.as_u64(),
                ("environment", _) => return Err(refuse("/environment", "environment is an environment's name".into())),
                ("at", _) => return Err(refuse("/at", "at is a minute: a whole number from 0".into())),
                (other, _) => return Err(refuse(&format!("/{}", gitops_core::pointer::escape(other)), format!("there is no {other:?}: it is {{environment?, at?}}"))),
            }
        }
    }
    let environment = match environment {
        Some(name) => scenario.initial_in(&name).map(|_| name).map_err(|why| refuse("/environment", why))?,
        None => scenario.environments().into_iter().next().unwrap_or_default(),
    };
    let Some(minute) = minute else {
        let (desired, actual) = scenario.initial_in(&environment).map_err(|why| refuse("/environment", why))?;
        return output(&gitops_core::report(&desired, &actual, &scenario.options.of(&environment).reconcile()));
    };
    if minute > u64::from(scenario.steps) {
        return Err(refuse("/at", format!("the scenario ends at minute {}", scenario.steps)));
    }
    let mut world = World::new(&scenario);
    for _ in 0..=minute {
        world.next_step();
    }
    let desired = world.desired_state(&environment).map_err(|error| thrown(&error))?;
    let Some(cluster) = world.clusters.get(&environment) else {
        return Err(refuse("/environment", format!("the scenario has no cluster `{environment}`")));
    };
    output(&gitops_core::report(&desired, cluster.actual(), &world.reconcile_options(&environment)))
}

/// Runs a scenario's world to its end, as `gitops-sim run` does:
/// `{events, final}`, the events step by step and where the world ends.
///
/// `scenario` is a scenario object or its JSON or YAML text; errors name
/// the document `scenario`. Throws a `GitopsInputError` when it does not read.
#[wasm_bindgen(unchecked_return_type = "RunResult")]
pub fn run(
    #[wasm_bindgen(unchecked_param_type = "object | string")] scenario: JsValue,
) -> Result<JsValue, js_sys::Error> {
    let world = World::run(&scenario_of(scenario)?);
    output(&RunOutput {
        events: &world.events,
        end: world.summary(),
    })
}

/// Checks an exercise against a student's work, as `gitops-sim check` does:
/// `{goals, questions, solved}`, each goal and question `{what, passed, why}`.
///
/// `exercise` is a scenario with an `exercise` block (an object or its text).
/// `work` is the share link of the student's work (`#v1.…`, or the whole
/// address), or `{interactions?, answers?}` as a solution file holds it; left
/// out, the exercise's start. A link that carries a scenario whole must carry
/// this one; one to the playground's own exercise names only its file, which
/// is taken to be this one. `presets` holds the texts of the presets its
/// questions run, by file name; a question whose preset is not there fails,
/// saying so.
///
/// Throws a `GitopsInputError` when the exercise does not read or has no
/// `exercise` block (source `scenario`), or the work does not read or does not
/// fit the exercise (source `work`).
#[wasm_bindgen(skip_typescript)]
pub fn check(exercise: JsValue, work: Option<JsValue>, presets: Option<JsValue>) -> Result<JsValue, js_sys::Error> {
    let scenario = scenario_of(exercise)?;
    let Some(exercise) = scenario.exercise.clone() else {
        return Err(thrown(&InputError::shape("scenario", "", "it has no `exercise` block")));
    };
    let attempt = match work.filter(|work| !work.is_null() && !work.is_undefined()) {
        None => gitops_world::attempt::Attempt::default(),
        Some(work) => match work.as_string() {
            Some(link) => gitops_world::attempt::Attempt::of_link(&link, &scenario, None)
                .map_err(|why| thrown(&InputError::shape("work", "", why)))?,
            None => {
                let value = json_of("work", work).map_err(|error| thrown(&error))?;
                let attempt = gitops_world::attempt::Attempt::from_value("work", value).map_err(|error| thrown(&error))?;
                attempt.validate("work", &scenario, &exercise).map_err(|error| thrown(&error))?;
                attempt
            }
        },
    };
    let presets = match presets.filter(|presets| !presets.is_null() && !presets.is_undefined()) {
        None => serde_json::Map::new(),
        Some(presets) => match json_of("presets", presets).map_err(|error| thrown(&error))? {
            Value::Object(presets) => presets,
            _ => return Err(thrown(&InputError::shape("presets", "", "presets is an object of the presets' texts by file name"))),
        },
    };
    let preset = |name: &str| presets.get(name).and_then(Value::as_str).map(str::to_string);
    output(&gitops_world::attempt::check(&scenario, &exercise, &attempt, &preset))
}

/// Save as scenario: what a person did in a scenario, written as a scenario
/// file (`{text, notKept}`): its start with what they did before the first
/// minute, the options they chose then, and what they did from then on as
/// the script's actions at their minutes. `text` is YAML, or JSON when the
/// scenario was JSON; `notKept` says what a scenario file cannot say (an
/// option changed after the start, what was typed and not committed).
///
/// `scenario` is the scenario (an object or its text); `work`, the share
/// link of what was done in it (`#v1.…`, or the whole address) or
/// `{interactions}`. Throws a `GitopsInputError` when either does not read.
#[wasm_bindgen(skip_typescript, js_name = saveScenario)]
pub fn save_scenario(scenario: JsValue, work: JsValue) -> Result<JsValue, js_sys::Error> {
    let (text, json) = match scenario.as_string() {
        Some(text) => {
            let json = text.trim_start().starts_with('{');
            (text, json)
        }
        None => (serde_json::to_string(&json_of("scenario", scenario.clone()).map_err(|error| thrown(&error))?).map_err(|error| internal(&error))?, true),
    };
    let parsed = Scenario::parse("scenario", &text).map_err(|error| thrown(&error))?;
    let written = gitops_core::text::document::parse_one("scenario", &text).map_err(|error| thrown(&error))?;
    let attempt = match work.as_string() {
        Some(link) => gitops_world::attempt::Attempt::of_link(&link, &parsed, None).map_err(|why| thrown(&InputError::shape("work", "", why)))?,
        None => {
            let value = json_of("work", work).map_err(|error| thrown(&error))?;
            gitops_world::attempt::Attempt::from_value("work", value).map_err(|error| thrown(&error))?
        }
    };
    let saved = gitops_world::save::saved_scenario(&parsed, written, &attempt.interactions);
    let format = match json {
        true => gitops_core::state::render::Format::Json,
        false => gitops_core::state::render::Format::Yaml,
    };
    output(&serde_json::json!({
        "text": gitops_core::state::render::render_value(&saved.scenario, format),
        "notKept": saved.not_kept,
    }))
}

/// A scenario object or its JSON or YAML text, read; errors name the document `scenario`.
fn scenario_of(scenario: JsValue) -> Result<Scenario, js_sys::Error> {
    let text = match scenario.as_string() {
        Some(text) => text,
        None if scenario.is_null() || scenario.is_undefined() => {
            let error = InputError::shape(
                "scenario",
                "",
                format!(
                    "a scenario is an object or its JSON or YAML text; found {}",
                    nullish(&scenario)
                ),
            );
            return Err(thrown(&error));
        }
        None => {
            let value = json_of("scenario", scenario).map_err(|error| thrown(&error))?;
            serde_json::to_string(&value).map_err(|error| internal(&error))?
        }
    };
    Scenario::parse("scenario", &text).map_err(|error| thrown(&error))
}

/// The playground's version, as in `Cargo.toml`.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

#[derive(Serialize)]
struct RunOutput<'w> {
    events: &'w [Event],
    #[serde(rename = "final")]
    end: Summary,
}

fn inputs(
    desired: JsValue,
    actual: JsValue,
    options: Option<JsValue>,
) -> Result<(State, State, Options), js_sys::Error> {
    let desired = read_state("desired", desired)?;
    let actual = read_state("actual", actual)?;
    forms_agree(&desired, "`desired`", &actual, "`actual`")
        .map_err(|message| thrown(&InputError::shape("actual", "", message)))?;
    Ok((desired, actual, read_options(options)?))
}

/// A state from a JavaScript value, from JSON or YAML text, or from that text's
/// UTF-8 bytes (a `Uint8Array` or an `ArrayBuffer`, as `fetch` gives them).
fn read_state(source: &str, value: JsValue) -> Result<State, js_sys::Error> {
    let state = match value.as_string() {
        Some(text) => State::read_shared(source, &text.into()),
        None if value.is_undefined() => Err(InputError::shape(
            source,
            "",
            "a state is an object, an array, JSON or YAML text, or its UTF-8 bytes; found undefined",
        )),
        None => match bytes_of(&value) {
            Some(bytes) => utf8(source, bytes).and_then(|text| State::read_shared(source, &text.into())),
            None => json_of(source, value).and_then(|value| State::from_value(source, value)),
        },
    };
    state.map_err(|error| thrown(&error))
}

/// The bytes of a `Uint8Array` (as they are) or of an `ArrayBuffer` (through a
/// view of it), copied into wasm memory; none for any other value.
fn bytes_of(value: &JsValue) -> Option<Vec<u8>> {
    if let Some(array) = value.dyn_ref::<js_sys::Uint8Array>() {
        return Some(array.to_vec());
    }
    value
        .is_instance_of::<js_sys::ArrayBuffer>()
        .then(|| js_sys::Uint8Array::new(value).to_vec())
}

/// The text `bytes` hold, taken as it is (no copy); bytes that are not UTF-8 are
/// a syntax error at the line and column of the first one that is not.
fn utf8(source: &str, bytes: Vec<u8>) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|error| {
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        // Up to `valid_up_to` the bytes are UTF-8, so this cannot fail.
        let before = std::str::from_utf8(valid).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |last| last.chars().count()) + 1;
        InputError::syntax(source, line, column, "the bytes are not UTF-8 text")
    })
}

fn read_options(options: Option<JsValue>) -> Result<Options, js_sys::Error> {
    let Some(options) = options.filter(|options| !options.is_null() && !options.is_undefined())
    else {
        return Ok(Options::default());
    };
    let value = json_of("options", options).map_err(|error| thrown(&error))?;
    if !value.is_object() {
        let error = InputError::shape(
            "options",
            "",
            format!(
                "options are an object with `prune` and `ignore`; found {}",
                describe(&value)
            ),
        );
        return Err(thrown(&error));
    }
    typed("options", value)
}

fn read_plan(plan: JsValue) -> Result<Vec<Operation>, js_sys::Error> {
    let undefined = plan.is_undefined();
    let value = json_of("plan", plan).map_err(|error| thrown(&error))?;
    if !value.is_array() {
        let found = if undefined {
            "undefined"
        } else {
            describe(&value)
        };
        let error = InputError::shape(
            "plan",
            "",
            format!("a plan is an array of operations, as `diff` returns; found {found}"),
        );
        return Err(thrown(&error));
    }
    typed("plan", value)
}

fn nullish(value: &JsValue) -> &'static str {
    if value.is_undefined() {
        "undefined"
    } else {
        "null"
    }
}

/// A core type from a JSON value; a mismatch is a shape error at its pointer.
fn typed<T: DeserializeOwned>(source: &str, value: Value) -> Result<T, js_sys::Error> {
    gitops_core::text::typed::typed(source, value).map_err(|error| thrown(&error))
}

/// A result as a plain JavaScript value: objects, not `Map`s.
fn output<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, js_sys::Error> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| internal(&error))
}

/// A failure that is not the input's fault (results are always JSON, so
/// this is not expected): a plain `Error`.
fn internal(error: &dyn fmt::Display) -> js_sys::Error {
    js_sys::Error::new(&format!("gitops-playground: {error}"))
}

/// The `GitopsInputError` thrown for `error`.
pub fn thrown(error: &InputError) -> js_sys::Error {
    let thrown = js_sys::Error::new(&error.to_string());
    thrown.set_name(ERROR_NAME);
    let kind = serde_json::to_value(error.kind)
        .ok()
        .and_then(|kind| kind.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{:?}", error.kind));
    let set = |name: &str, value: JsValue| {
        // Setting a property of a fresh Error cannot fail.
        let _ = js_sys::Reflect::set(&thrown, &JsValue::from_str(name), &value);
    };
    set("kind", JsValue::from_str(&kind));
    set("source", JsValue::from_str(&error.source));
    if let Some(line) = error.line {
        set("line", JsValue::from_f64(line as f64));
    }
    if let Some(column) = error.column {
        set("column", JsValue::from_f64(column as f64));
    }
    if let Some(pointer) = &error.pointer {
        set("pointer", JsValue::from_str(pointer));
    }
    if let Some(key) = &error.key {
        set("key", JsValue::from_str(key));
    }
    thrown
}
