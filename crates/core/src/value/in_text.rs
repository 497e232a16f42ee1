//! A JSON value kept where it lies in the text it was read from, built only
//! when something asks for it as a `serde_json` value. With the `tapes`
//! feature a JSON text is read into a tape (`text/tape.rs`) and its values
//! stay there; without it, every text is read into values, and these types
//! have no value at all. Either way the state, diff, sync and health code
//! read them through `ValueRef` alone.

use crate::error::InputError;
use crate::text::edit::SharedText;
use crate::value::ValueRef;
use serde_json::Value;
#[cfg(feature = "tapes")]
use {
    crate::text::{document, tape::Tape},
    std::sync::{Arc, OnceLock},
};

/// A JSON document read where it lies.
pub struct InTextDocument {
    #[cfg(feature = "tapes")]
    tape: Arc<Tape>,
    #[cfg(not(feature = "tapes"))]
    never: Never,
}

/// One value of an `InTextDocument`, sharing its text with the others.
pub struct InText {
    #[cfg(feature = "tapes")]
    tape: Arc<Tape>,
    #[cfg(feature = "tapes")]
    index: usize,
    #[cfg(feature = "tapes")]
    built: OnceLock<Value>,
    #[cfg(not(feature = "tapes"))]
    never: Never,
}

#[cfg(not(feature = "tapes"))]
enum Never {}

#[cfg(feature = "tapes")]
impl InTextDocument {
    /// Whether `read` reads this text where it lies.
    pub fn reads(text: &str) -> bool {
        document::looks_like_json(text)
    }

    /// A text that looks like JSON (`document::looks_like_json`) read where
    /// it lies, with `json::parse`'s errors; none for any other text, which
    /// is read into values.
    pub fn read(source: &str, text: &SharedText) -> Option<Result<InTextDocument, InputError>> {
        InTextDocument::reads(text).then(|| {
            let tape = Tape::parse(source, text.clone())?;
            Ok(InTextDocument { tape: Arc::new(tape) })
        })
    }

    pub fn root(&self) -> ValueRef<'_> {
        ValueRef::Taped(self.tape.root())
    }

    /// `value`, a value of this document, kept where it lies; none for a
    /// value of no text.
    pub fn hold(&self, value: ValueRef) -> Option<InText> {
        match value {
            ValueRef::Taped(item) => Some(InText::at(Arc::clone(&self.tape), item.index())),
            ValueRef::Built(_) => None,
        }
    }
}

#[cfg(not(feature = "tapes"))]
impl InTextDocument {
    /// No text: this build reads every text into values.
    pub fn reads(_text: &str) -> bool {
        false
    }

    /// None: this build reads every text into values.
    pub fn read(_source: &str, _text: &SharedText) -> Option<Result<InTextDocument, InputError>> {
        None
    }

    pub fn root(&self) -> ValueRef<'_> {
        match self.never {}
    }

    pub fn hold(&self, _value: ValueRef) -> Option<InText> {
        match self.never {}
    }
}

#[cfg(feature = "tapes")]
impl InText {
    fn at(tape: Arc<Tape>, index: usize) -> InText {
        InText {
            tape,
            index,
            built: OnceLock::new(),
        }
    }

    /// The value read where it lies.
    pub fn view(&self) -> ValueRef<'_> {
        let item = self.tape.item_at(self.index);
        ValueRef::Taped(item.expect("a value's index is a node of its document's tape"))
    }

    /// The value as a `serde_json` value: built the first time, and kept.
    pub fn value(&self) -> &Value {
        self.built.get_or_init(|| self.view().to_value())
    }

    /// The value as a value of its own.
    pub fn to_value(&self) -> Value {
        match self.built.get() {
            Some(value) => value.clone(),
            None => self.view().to_value(),
        }
    }

    pub fn into_value(mut self) -> Value {
        match self.built.take() {
            Some(value) => value,
            None => self.view().to_value(),
        }
    }
}

#[cfg(not(feature = "tapes"))]
impl InText {
    pub fn view(&self) -> ValueRef<'_> {
        match self.never {}
    }

    pub fn value(&self) -> &Value {
        match self.never {}
    }

    pub fn to_value(&self) -> Value {
        match self.never {}
    }

    pub fn into_value(self) -> Value {
        match self.never {}
    }
}

impl Clone for InText {
    /// A copy shares the text, not what was built of it.
    fn clone(&self) -> InText {
        #[cfg(feature = "tapes")]
        return InText::at(Arc::clone(&self.tape), self.index);
        #[cfg(not(feature = "tapes"))]
        match self.never {}
    }
}
