//! The JavaScript API that lesson pages call directly: the reconcile core
//! and the world, exported with `wasm-bindgen`. Inputs and results are plain
//! JavaScript objects (converted with `serde-wasm-bindgen`, results as plain
//! objects and arrays, never `Map`s); states may also be given as JSON or
//! YAML text. Bad input throws an `Error` named `GitopsInputError` that
//! carries the fields of [`InputError`] (`kind`, `source`, `line`, `column`,
//! `pointer`, `key`; absent ones are left out) and its `message` is the
//! error's text, the same one `gitops-sim` prints.

use crate::core::error::InputError;
use crate::core::json::{MAX_DEPTH, MAX_DOCUMENT_BYTES};
use crate::core::options::Options;
use crate::core::plan::Operation;
use crate::core::pointer;
use crate::core::state::{describe, forms_agree, State};
use crate::free_later::free_retired_reads_when_idle;
use crate::world::event::Event;
use crate::world::scenario::Scenario;
use crate::world::summary::Summary;
use crate::world::World;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess};
use serde::Serialize;
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;
use wasm_bindgen::prelude::*;

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
#[wasm_bindgen]
pub fn diff(
    desired: JsValue,
    actual: JsValue,
    options: Option<JsValue>,
) -> Result<JsValue, js_sys::Error> {
    let (desired, actual, options) = inputs(desired, actual, options)?;
    output(&crate::core::diff(&desired, &actual, &options))
}

/// The actual state after carrying out `plan` (an array of operations, as
/// `diff` returns), in the form `actual` was given in.
///
/// Throws a `GitopsInputError` when `actual` does not read or `plan` is not
/// an array of operations.
#[wasm_bindgen]
pub fn apply(plan: JsValue, actual: JsValue) -> Result<JsValue, js_sys::Error> {
    let plan = read_plan(plan)?;
    let actual = read_state("actual", actual)?;
    output(&crate::core::apply(&plan, &actual).to_value())
}

/// The drift of `actual` from `desired`, whether or not a plan would fix it:
/// `{missing, changed, extra, changes}`, keys in order, and for each changed
/// key its field-level changes.
///
/// Takes the same inputs as `diff`; throws a `GitopsInputError` when one
/// does not read.
#[wasm_bindgen]
pub fn drift(
    desired: JsValue,
    actual: JsValue,
    options: Option<JsValue>,
) -> Result<JsValue, js_sys::Error> {
    let (desired, actual, options) = inputs(desired, actual, options)?;
    output(&crate::core::drift(&desired, &actual, &options))
}

/// What the reconciler reports, as `gitops-sim plan` prints it:
/// `{plan, drift, status: {sync, health}, objects, warnings}`.
///
/// Takes the same inputs as `diff`; throws a `GitopsInputError` when one
/// does not read.
#[wasm_bindgen]
pub fn report(
    desired: JsValue,
    actual: JsValue,
    options: Option<JsValue>,
) -> Result<JsValue, js_sys::Error> {
    let (desired, actual, options) = inputs(desired, actual, options)?;
    output(&crate::core::report(&desired, &actual, &options))
}

/// Runs a scenario's world to its end, as `gitops-sim run` does:
/// `{events, final}`, the events step by step and where the world ends.
///
/// `scenario` is a scenario object or its JSON or YAML text; errors name
/// the document `scenario`. Throws a `GitopsInputError` when it does not read.
#[wasm_bindgen]
pub fn run(scenario: JsValue) -> Result<JsValue, js_sys::Error> {
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
            let value = read_value("scenario", scenario).map_err(|error| thrown(&error))?;
            serde_json::to_string(&value).map_err(|error| internal(&error))?
        }
    };
    let scenario = Scenario::parse("scenario", &text).map_err(|error| thrown(&error))?;
    let world = World::run(&scenario);
    free_retired_reads_when_idle();
    output(&RunOutput {
        events: &world.events,
        end: world.summary(),
    })
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

/// A state from a JavaScript value, or from JSON or YAML text.
fn read_state(source: &str, value: JsValue) -> Result<State, js_sys::Error> {
    let state = match value.as_string() {
        Some(text) => State::parse(source, &text),
        None if value.is_undefined() => Err(InputError::shape(
            source,
            "",
            "a state is an object, an array, or JSON or YAML text; found undefined",
        )),
        None => read_value(source, value).and_then(|value| State::from_value(source, value)),
    };
    free_retired_reads_when_idle();
    state.map_err(|error| thrown(&error))
}

fn read_options(options: Option<JsValue>) -> Result<Options, js_sys::Error> {
    let Some(options) = options.filter(|options| !options.is_null() && !options.is_undefined())
    else {
        return Ok(Options::default());
    };
    let value = read_value("options", options).map_err(|error| thrown(&error))?;
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
    let value = read_value("plan", plan).map_err(|error| thrown(&error))?;
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
    serde_path_to_error::deserialize(value).map_err(|error| {
        let pointer = pointer::of_serde_path(error.path());
        thrown(&InputError::shape(
            source,
            pointer,
            error.into_inner().to_string(),
        ))
    })
}

/// Reads a JavaScript value as JSON: null (or undefined), booleans, finite
/// numbers, strings, arrays and plain objects. Nesting is capped at
/// `MAX_DEPTH` and the size at `MAX_DOCUMENT_BYTES` of JSON text, so a cyclic
/// or huge object is an error, not a stack overflow.
fn read_value(source: &str, value: JsValue) -> Result<Value, InputError> {
    let reading = Reading {
        budget: Cell::new(MAX_DOCUMENT_BYTES),
        too_large: Cell::new(false),
    };
    let mut track = serde_path_to_error::Track::new();
    let deserializer = serde_path_to_error::Deserializer::new(
        serde_wasm_bindgen::Deserializer::from(value),
        &mut track,
    );
    let result = JsonSeed {
        depth: 0,
        reading: &reading,
    }
    .deserialize(deserializer);
    result.map_err(|error| {
        let message = plain_message(&error.to_string());
        let message = message.as_str();
        if reading.too_large.get() {
            InputError::too_large(source, message)
        } else {
            InputError::shape(source, pointer::of_serde_path(&track.path()), message)
        }
    })
}

/// A `serde-wasm-bindgen` error's message without its JavaScript dressing:
/// `Error: invalid type: JsValue(Function(run)), ...` reads
/// `invalid type: a function, ...`.
fn plain_message(message: &str) -> String {
    let message = message.strip_prefix("Error: ").unwrap_or(message);
    let Some(rest) = message.strip_prefix("invalid type: JsValue(") else {
        return message.to_string();
    };
    let what = [("Function", "a function"), ("Symbol", "a symbol")]
        .into_iter()
        .find(|(name, _)| rest.starts_with(name))
        .map_or("a value JSON cannot hold", |(_, what)| what);
    match message.split_once(", expected ") {
        Some((_, expected)) => format!("invalid type: {what}, expected {expected}"),
        None => format!("invalid type: {what}"),
    }
}

struct Reading {
    /// About how many bytes of JSON text are left before the value is too large.
    budget: Cell<usize>,
    too_large: Cell<bool>,
}

impl Reading {
    fn charge<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
        match self.budget.get().checked_sub(bytes) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => {
                self.too_large.set(true);
                Err(E::custom(format!(
                    "the value is larger than the playground reads: more than {} MB as JSON",
                    MAX_DOCUMENT_BYTES / (1024 * 1024)
                )))
            }
        }
    }
}

#[derive(Clone, Copy)]
struct JsonSeed<'r> {
    /// How many arrays and objects enclose the value.
    depth: usize,
    reading: &'r Reading,
}

impl JsonSeed<'_> {
    fn enter<E: de::Error>(self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format!(
                "the value is nested too deeply (more than {MAX_DEPTH} levels); \
                 does an object contain itself?"
            )));
        }
        self.reading.charge(2)?;
        Ok(JsonSeed {
            depth: self.depth + 1,
            reading: self.reading,
        })
    }
}

impl<'de> DeserializeSeed<'de> for JsonSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> de::Visitor<'de> for JsonSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value (null, a boolean, a number, a string, an array or an object)")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.reading.charge(4)?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Value, E> {
        self.reading.charge(5)?;
        Ok(Value::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Value, E> {
        self.reading.charge(8)?;
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Value, E> {
        self.reading.charge(8)?;
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        self.reading.charge(8)?;
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom(format!("{value} is not a JSON number")))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Value, E> {
        self.visit_string(value.to_string())
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Value, E> {
        self.reading.charge(value.len() + 2)?;
        Ok(Value::String(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.enter()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            self.reading.charge(1)?;
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.enter()?;
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            self.reading.charge(key.len() + 4)?;
            let value = map.next_value_seed(inner)?;
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }
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
