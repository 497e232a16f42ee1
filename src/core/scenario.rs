//! A scenario file: the desired and actual states and the options.
//!
//! ```json
//! {"version": 1, "desired": {...}, "actual": {...}, "options": {"prune": true}}
//! ```
//! `version` (default 1), `actual` (default: an empty cluster) and `options`
//! (default: all off) may be left out.

use super::document;
use super::error::InputError;
use super::options::Options;
use super::state::{describe, State};
use serde_json::{Map, Value};

pub const SCENARIO_VERSION: u64 = 1;
const FIELDS: [&str; 4] = ["version", "desired", "actual", "options"];

#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub desired: State,
    pub actual: State,
    pub options: Options,
}

impl Scenario {
    /// Reads a scenario from JSON text; `source` (a file name) names it in errors.
    pub fn parse(source: &str, text: &str) -> Result<Self, InputError> {
        match document::parse_one(source, text)? {
            Value::Object(fields) => Scenario::from_fields(source, fields),
            other => Err(InputError::shape(
                source,
                "",
                format!(
                    "a scenario is an object with `desired`, `actual` and `options`; found {}",
                    describe(&other)
                ),
            )),
        }
    }

    fn from_fields(source: &str, mut fields: Map<String, Value>) -> Result<Self, InputError> {
        if let Some(unknown) = fields.keys().find(|name| !FIELDS.contains(&name.as_str())) {
            return Err(InputError::shape(
                source,
                format!("/{unknown}"),
                format!(
                    "unknown field `{unknown}`; a scenario has {}",
                    FIELDS.join(", ")
                ),
            ));
        }
        check_version(source, fields.remove("version"))?;
        let desired = match fields.remove("desired") {
            Some(value) => {
                State::from_value("desired", value).map_err(|e| e.nested_in(source, "/desired"))?
            }
            None => {
                return Err(InputError::shape(
                    source,
                    "",
                    "a scenario needs `desired`, the state Git declares",
                ))
            }
        };
        let actual = match fields.remove("actual") {
            Some(value) => {
                State::from_value("actual", value).map_err(|e| e.nested_in(source, "/actual"))?
            }
            None => State::empty(desired.form().clone()),
        };
        let options = match fields.remove("options") {
            Some(value) => serde_json::from_value(value)
                .map_err(|error| InputError::shape(source, "/options", error.to_string()))?,
            None => Options::default(),
        };
        Ok(Scenario {
            desired,
            actual,
            options,
        })
    }
}

fn check_version(source: &str, version: Option<Value>) -> Result<(), InputError> {
    match version {
        None => Ok(()),
        Some(Value::Number(number)) if number.as_u64() == Some(SCENARIO_VERSION) => Ok(()),
        Some(other) => Err(InputError::shape(
            source,
            "/version",
            format!("this playground reads scenario version {SCENARIO_VERSION}; found {other}"),
        )),
    }
}
