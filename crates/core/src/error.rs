use serde::Serialize;
use std::fmt;

/// What is wrong with an input document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorKind {
    /// The text is not JSON (or is too deep, or has a duplicated field).
    Syntax,
    /// The text is JSON, but not of the shape a state or scenario needs.
    Shape,
    /// Two objects of one state have the same key.
    DuplicateKey,
    /// The document is larger than the playground reads.
    TooLarge,
}

/// A bad input, located as precisely as the input allows: a line and column
/// for syntax, a JSON pointer for shape, a key for duplicates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InputError {
    pub kind: ErrorKind,
    /// Which document: a pane (`desired`, `actual`) or a file name.
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// RFC 6901 pointer to the offending value, `""` for the whole document
    /// (its message shows a segment with a `/` as written: `pointer::as_written`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    pub message: String,
}

impl InputError {
    pub fn syntax(source: &str, line: usize, column: usize, message: impl Into<String>) -> Self {
        InputError {
            kind: ErrorKind::Syntax,
            source: source.to_string(),
            line: Some(line),
            column: Some(column),
            pointer: None,
            key: None,
            message: message.into(),
        }
    }

    pub fn shape(source: &str, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        InputError {
            kind: ErrorKind::Shape,
            source: source.to_string(),
            line: None,
            column: None,
            pointer: Some(pointer.into()),
            key: None,
            message: message.into(),
        }
    }

    pub fn duplicate_key(source: &str, key: &str, message: impl Into<String>) -> Self {
        InputError {
            kind: ErrorKind::DuplicateKey,
            source: source.to_string(),
            line: None,
            column: None,
            pointer: None,
            key: Some(key.to_string()),
            message: message.into(),
        }
    }

    pub fn too_large(source: &str, message: impl Into<String>) -> Self {
        InputError {
            kind: ErrorKind::TooLarge,
            source: source.to_string(),
            line: None,
            column: None,
            pointer: None,
            key: None,
            message: message.into(),
        }
    }

    /// The same error, reported against another document: used when a state
    /// sits inside a scenario file, so `desired` at `/2` becomes the file at
    /// `/desired/2`.
    pub fn nested_in(mut self, source: &str, prefix: &str) -> Self {
        self.source = source.to_string();
        if let Some(pointer) = &self.pointer {
            self.pointer = Some(format!("{prefix}{pointer}"));
        } else if self.kind == ErrorKind::DuplicateKey {
            self.pointer = Some(prefix.to_string());
        }
        self
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, ", line {line}, column {column}")?;
        }
        match self.pointer.as_deref() {
            Some("") | None => {}
            Some(pointer) => write!(f, " at {}", crate::pointer::as_written(pointer))?,
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for InputError {}
