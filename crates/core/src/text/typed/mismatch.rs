//! Why a value does not fit its type, and where, worded as `serde_json`
//! words it.

use super::Place;
use serde::de::{self, Unexpected};
use serde_json::Number;
use std::fmt;

/// Why a value does not fit its type, and where: the pointer of the deepest
/// value that did not (a struct's for a field it lacks). Boxed, as
/// `serde_json`'s error is, so that every reader's result stays small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch(Box<Found>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    pointer: Option<String>,
    message: String,
}

impl Mismatch {
    pub fn pointer(&self) -> &str {
        self.0.pointer.as_deref().unwrap_or_default()
    }

    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The mismatch of a value read as the field `name` of an object, placed
    /// below that field.
    pub fn under(mut self, name: &str) -> Mismatch {
        self.0.pointer = Some(format!("/{}{}", crate::pointer::escape(name), self.pointer()));
        self
    }

    /// The mismatch, placed at `place` unless a deeper value already placed it.
    #[inline(never)]
    pub(super) fn at(mut self, place: &Place) -> Mismatch {
        if self.0.pointer.is_none() {
            self.0.pointer = Some(place.pointer());
        }
        self
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Mismatch {}

impl de::Error for Mismatch {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Mismatch(Box::new(Found {
            pointer: None,
            message: message.to_string(),
        }))
    }

    // Worded as `serde_json` words them: `null`, not `unit value`.
    fn invalid_type(unexpected: Unexpected, expected: &dyn de::Expected) -> Self {
        Self::custom(format_args!(
            "invalid type: {}, expected {expected}",
            Json(unexpected)
        ))
    }

    fn invalid_value(unexpected: Unexpected, expected: &dyn de::Expected) -> Self {
        Self::custom(format_args!(
            "invalid value: {}, expected {expected}",
            Json(unexpected)
        ))
    }
}

/// An unexpected value named as JSON names it.
struct Json<'a>(Unexpected<'a>);

impl fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Float(float) => match Number::from_f64(float) {
                Some(number) => write!(f, "floating point `{number}`"),
                None => f.write_str("floating point"),
            },
            other => other.fmt(f),
        }
    }
}
