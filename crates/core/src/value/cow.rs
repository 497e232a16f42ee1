//! A value as it is, or a changed copy of it.

use crate::value::ValueRef;
use serde_json::Value;
use std::borrow::Cow;

/// A value as it is, or a changed copy of it: what a step that may change a
/// value gives (`Cow` for `ValueRef`, which can borrow from a tape).
#[derive(Debug, Clone)]
pub enum ValueCow<'a> {
    Same(ValueRef<'a>),
    Changed(Value),
}

impl<'a> ValueCow<'a> {
    pub fn view(&self) -> ValueRef<'_> {
        match self {
            ValueCow::Same(value) => *value,
            ValueCow::Changed(value) => ValueRef::Built(value),
        }
    }

    pub fn is_same(&self) -> bool {
        matches!(self, ValueCow::Same(_))
    }

    pub fn into_owned(self) -> Value {
        match self {
            ValueCow::Same(value) => value.to_value(),
            ValueCow::Changed(value) => value,
        }
    }

    /// `step` applied to this value, which an earlier step may have changed.
    pub fn then(self, step: impl Fn(ValueRef<'_>) -> ValueCow<'_>) -> ValueCow<'a> {
        match self {
            ValueCow::Same(value) => step(value),
            ValueCow::Changed(value) => match step(ValueRef::Built(&value)) {
                ValueCow::Changed(stepped) => ValueCow::Changed(stepped),
                ValueCow::Same(_) => ValueCow::Changed(value),
            },
        }
    }
}

impl<'a, T: Into<ValueRef<'a>>> From<T> for ValueCow<'a> {
    fn from(value: T) -> ValueCow<'a> {
        ValueCow::Same(value.into())
    }
}

impl<'a> From<Cow<'a, Value>> for ValueCow<'a> {
    fn from(value: Cow<'a, Value>) -> ValueCow<'a> {
        match value {
            Cow::Borrowed(value) => ValueCow::Same(ValueRef::Built(value)),
            Cow::Owned(value) => ValueCow::Changed(value),
        }
    }
}

impl PartialEq for ValueCow<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.view() == other.view()
    }
}
