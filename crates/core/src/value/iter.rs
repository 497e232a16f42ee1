//! The iterators over an array's items and an object's fields, however the
//! value is kept.

#[cfg(feature = "tapes")]
use crate::text::tape;
use crate::value::ValueRef;
use serde_json::Value;

/// An array's items (`ValueRef::items`).
#[derive(Clone)]
pub enum Items<'a> {
    Built(std::slice::Iter<'a, Value>),
    #[cfg(feature = "tapes")]
    Taped(tape::Items<'a>),
}

impl Items<'_> {
    /// No items.
    pub fn none() -> Self {
        Items::Built([].iter())
    }
}

impl<'a> Iterator for Items<'a> {
    type Item = ValueRef<'a>;

    fn next(&mut self) -> Option<ValueRef<'a>> {
        match self {
            Items::Built(items) => items.next().map(ValueRef::Built),
            #[cfg(feature = "tapes")]
            Items::Taped(items) => items.next().map(ValueRef::Taped),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Items::Built(items) => items.size_hint(),
            #[cfg(feature = "tapes")]
            Items::Taped(items) => items.size_hint(),
        }
    }
}

impl ExactSizeIterator for Items<'_> {}

/// An object's fields (`ValueRef::fields`): each name, then its value.
#[derive(Clone)]
pub enum Fields<'a> {
    Built(serde_json::map::Iter<'a>),
    #[cfg(feature = "tapes")]
    Taped(tape::Fields<'a>),
    None,
}

impl Fields<'_> {
    /// No fields.
    pub fn none() -> Self {
        Fields::None
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = (&'a str, ValueRef<'a>);

    fn next(&mut self) -> Option<(&'a str, ValueRef<'a>)> {
        match self {
            Fields::Built(fields) => fields.next().map(|(name, value)| (name.as_str(), ValueRef::Built(value))),
            #[cfg(feature = "tapes")]
            Fields::Taped(fields) => fields.next().map(|(name, value)| (name, ValueRef::Taped(value))),
            Fields::None => None,
        }
    }
}
