//! A JSON text read without building a tree of values: one flat vector of
//! eight-byte nodes in the order the text has them, a string as where it lies
//! in the text, an array or object as its size and where it ends. Reading
//! allocates nothing per value, and the nodes of a Kubernetes object take
//! about the bytes of its text; a tree of `serde_json` values takes several
//! times as many and most of a read's time to build (`benches/plan.rs` prints
//! both). `Item` reads a value where it lies; `Item::to_value` builds the
//! owned value where one is needed.
//!
//! What it reads, and the errors it gives, are `json::parse`'s: a field
//! written twice is an error, and so are documents too large or nested too
//! deeply. One pass over the bytes (`scan`) writes the nodes of a text it is
//! sure of; any other text is read by `serde_json`, which finds its errors.

use crate::error::InputError;
use crate::text::edit::SharedText;
use crate::text::json::{check_size, refused};
use node::{Node, ARRAY, ESCAPED, NUMBER, OBJECT, STRING};
use scan::scan;
use serde_json::Number;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;
use writer::{Reading, Writer, FIRST_GUESS_BYTES_A_NODE};

pub use item::{Cursor, Fields, Item, Items};

/// A JSON text and its nodes.
pub struct Tape {
    text: SharedText,
    nodes: Vec<Node>,
    /// Strings and names written with escapes (the others are read where they
    /// lie in the text, and need nothing here).
    escaped: Vec<Escaped>,
    numbers: Vec<Number>,
}

/// A string written with escapes: where it lies in the text, escapes and all,
/// and what it reads as once something has asked (`Item::as_str`). A
/// string read only once is not kept read (`Item::text`): the largest of
/// them, the last-applied records, would take about the bytes of Git's
/// objects again.
struct Escaped {
    /// The byte after its opening quote, and the length up to its closing one.
    at: u32,
    len: u32,
    read: OnceLock<Box<str>>,
}

impl Escaped {
    /// Where the string lies in the text, between its quotes.
    fn between_quotes(&self) -> Range<usize> {
        self.at as usize..(self.at + self.len) as usize
    }
}

impl Tape {
    /// Reads `text` as one JSON value, as `json::parse` reads it; `source`
    /// names the document in errors, which are `json::parse`'s.
    pub fn parse(source: &str, text: SharedText) -> Result<Tape, InputError> {
        check_size(source, &text)?;
        if text.trim().is_empty() {
            return Err(InputError::syntax(source, 1, 1, "the document is empty"));
        }
        Tape::read(text).map_err(|(text, error)| refused(source, &text, error))
    }

    fn read(text: SharedText) -> Result<Tape, (SharedText, serde_json::Error)> {
        let mut tape = Tape {
            text: text.clone(),
            nodes: Vec::with_capacity(text.len() / FIRST_GUESS_BYTES_A_NODE),
            escaped: Vec::new(),
            numbers: Vec::new(),
        };
        let read = {
            let mut reading = Reading::default();
            let mut writer = Writer {
                tape: &mut tape,
                reading: &mut reading,
            };
            match scan(&mut writer) {
                Some(()) => Ok(()),
                None => writer.again_by_serde_json(),
            }
        };
        match read {
            Ok(()) => {
                tape.nodes.shrink_to_fit();
                Ok(tape)
            }
            Err(error) => Err((text, error)),
        }
    }

    /// The document's value.
    pub fn root(&self) -> Item<'_> {
        Item { tape: self, at: 0 }
    }

    /// The value whose node is at `index` (`Item::index`).
    pub fn item_at(&self, index: usize) -> Option<Item<'_>> {
        (index < self.nodes.len()).then_some(Item { tape: self, at: index })
    }

    /// The text read.
    pub fn text(&self) -> &SharedText {
        &self.text
    }

    /// The bytes the tape holds besides its text.
    pub fn heap_bytes(&self) -> usize {
        let kept_reads = self.escaped.iter().filter_map(|escaped| escaped.read.get());
        self.nodes.capacity() * size_of::<Node>()
            + self.escaped.capacity() * size_of::<Escaped>()
            + kept_reads.map(|read| read.len()).sum::<usize>()
            + self.numbers.capacity() * size_of::<Number>()
    }

    /// Whether the string or name at `node` is `name`: a string read where it
    /// lies is compared by length first, then byte for byte.
    fn is(&self, node: Node, name: &str) -> bool {
        match node.kind() {
            STRING => {
                let start = node.at as usize;
                node.size() as usize == name.len()
                    && self.text.as_bytes().get(start..start + name.len()) == Some(name.as_bytes())
            }
            _ => self.str_of(node) == name,
        }
    }

    /// The first field named `name` among the fields whose name nodes lie from
    /// `from` up to `to`, and the index of the field after it.
    fn find_field(&self, name: &str, from: usize, to: usize) -> Option<(Item<'_>, usize)> {
        let mut at = from;
        while at < to {
            let value = Item { tape: self, at: at + 1 };
            let next = value.end();
            if self.is(self.nodes[at], name) {
                return Some((value, next));
            }
            at = next;
        }
        None
    }

    /// Whether the node at `at` is written as the one at `other_at` in
    /// `other` (`Item::written_alike`): an array or object of the same size
    /// and as many nodes, or the same scalar as written.
    fn node_alike(&self, at: usize, other: &Tape, other_at: usize) -> bool {
        let (one, another) = (self.nodes[at], other.nodes[other_at]);
        one.kind() == another.kind()
            && match one.kind() {
                NUMBER => self.numbers[one.at as usize] == other.numbers[another.at as usize],
                STRING => self.str_of(one).as_bytes() == other.str_of(another).as_bytes(),
                ESCAPED => {
                    let one_written = self.escaped[one.at as usize].between_quotes();
                    let another_written = other.escaped[another.at as usize].between_quotes();
                    // A string noted with no place in the text (`Writer::escaped`) is alike none.
                    !one_written.is_empty() && self.text.get(one_written) == other.text.get(another_written)
                }
                ARRAY | OBJECT => {
                    one.size() == another.size() && one.at as usize - at == another.at as usize - other_at
                }
                _ => true,
            }
    }

    fn str_of(&self, node: Node) -> &str {
        match node.kind() {
            ESCAPED => {
                let escaped = &self.escaped[node.at as usize];
                escaped.read.get_or_init(|| self.unescape(escaped).into())
            }
            _ => {
                let start = node.at as usize;
                self.text.get(start..start + node.size() as usize).unwrap_or_default()
            }
        }
    }

    /// The string or name at `node`, without keeping what an escaped one
    /// reads as.
    fn text_of(&self, node: Node) -> Cow<'_, str> {
        match node.kind() {
            ESCAPED => {
                let escaped = &self.escaped[node.at as usize];
                match escaped.read.get() {
                    Some(read) => Cow::Borrowed(read),
                    None => Cow::Owned(self.unescape(escaped)),
                }
            }
            _ => Cow::Borrowed(self.str_of(node)),
        }
    }

    /// What an escaped string reads as, read again by `serde_json` from its
    /// place in the text, quotes and all.
    fn unescape(&self, escaped: &Escaped) -> String {
        let Range { start, end } = escaped.between_quotes();
        // When the tape was written, `serde_json` read these bytes as this string, or the
        // scan found in them only escapes `serde_json` reads.
        self.text
            .get(start.saturating_sub(1)..end + 1)
            .and_then(|quoted| serde_json::from_str(quoted).ok())
            .unwrap_or_default()
    }
}

mod item;
mod node;
mod scan;
mod writer;

#[cfg(test)]
mod tests;
