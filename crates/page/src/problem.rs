//! Why something asked for did not open, and where in its text when the text
//! is at fault: what a notice says, and what the host of an embedded
//! playground is told beside it.

use gitops_core::InputError;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Problem {
    pub message: String,
    pub at: Location,
}

/// Where in a scenario's text or object: an `InputError`'s place without its
/// words, which the notice says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Location {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub pointer: Option<String>,
}

impl Problem {
    /// `error`, said after `what` ("the scenario does not read"), at its place.
    pub fn in_text(what: &str, error: &InputError) -> Problem {
        Problem {
            message: format!("{what}: {error}"),
            at: Location::of(error),
        }
    }
}

impl Location {
    pub fn of(error: &InputError) -> Location {
        Location {
            line: error.line,
            column: error.column,
            pointer: error.pointer.clone(),
        }
    }
}

impl From<String> for Problem {
    fn from(message: String) -> Problem {
        Problem {
            message,
            at: Location::default(),
        }
    }
}

impl From<&str> for Problem {
    fn from(message: &str) -> Problem {
        message.to_string().into()
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}
