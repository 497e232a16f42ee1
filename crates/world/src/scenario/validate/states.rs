//! The states a scenario file writes: read from values or text, each in the
//! form of the state Git declares for it; and a file's error, placed at that
//! file of the scenario.

use crate::scenario::{forms_agree, ErrorKind, Form};
use gitops_core::error::InputError;
use gitops_core::state::State;
use serde_json::Value;

/// The state at `pointer` of the scenario file `source`: written as values,
/// or as JSON or YAML text (a `---` stream of manifests, as the panes and
/// `api.js` read one), whose errors say their line and column in that text.
pub(super) fn state_of(source: &str, pointer: &str, value: &Value) -> Result<State, InputError> {
    let Value::String(text) = value else {
        return State::from_value(source, value.clone()).map_err(|e| e.nested_in(source, pointer));
    };
    State::read(source, text).map_err(|error| match (error.line, error.column) {
        (Some(line), Some(column)) => InputError {
            line: None,
            column: None,
            pointer: Some(pointer.to_string()),
            message: format!(
                "line {line}, column {column} of its text: {}",
                error.message
            ),
            ..error
        },
        _ => error.nested_in(source, pointer),
    })
}

/// A file's error, reported against the scenario at that file.
pub(super) fn locate_file_error(source: &str, error: InputError) -> InputError {
    let file = gitops_core::pointer::escape(&error.source);
    let prefix = format!("/repository/files/{file}");
    match error.kind {
        ErrorKind::Syntax => {
            let position = match (error.line, error.column) {
                (Some(line), Some(column)) => {
                    format!(" (line {line}, column {column} of the file)")
                }
                _ => String::new(),
            };
            InputError::shape(source, prefix, format!("{}{position}", error.message))
        }
        _ => error.nested_in(source, &prefix),
    }
}

/// Where a state and its desired state are written, for errors.
pub(super) struct Places {
    /// The pointer of the actual state in the scenario file.
    pub(super) pointer: String,
    pub(super) desired: String,
    pub(super) actual: String,
}

/// An actual state in the form its desired state is written in, since a
/// sync writes desired objects into it: an empty one takes that form, and
/// one that holds objects of the other form is an error.
pub(super) fn in_form_of(
    source: &str,
    places: &Places,
    desired: &State,
    actual: State,
) -> Result<State, InputError> {
    forms_agree(desired, &places.desired, &actual, &places.actual)
        .map_err(|message| InputError::shape(source, places.pointer.clone(), message))?;
    let named = |state: &State| matches!(state.form(), Form::Named);
    if actual.is_empty() && !desired.is_empty() && named(desired) != named(&actual) {
        return Ok(State::empty(desired.form().clone()));
    }
    Ok(actual)
}
