//! Writing a tape's nodes: the writes `scan` makes as it goes, and the
//! reading by `serde_json` of a text `scan` leaves to it.

use super::item::Item;
use super::node::{Node, ARRAY, ESCAPED, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE};
use super::{Escaped, Tape};
use crate::text::json::twice_error;
use crate::text::names::Names;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Number;
use std::fmt;
use std::sync::OnceLock;

/// Appends the nodes of the value `serde_json` reads next to a tape.
pub(super) struct Writer<'w> {
    pub(super) tape: &'w mut Tape,
    pub(super) reading: &'w mut Reading,
}

/// What a tape's writers share while they read its text.
#[derive(Default)]
pub(super) struct Reading {
    /// The name nodes of the object just read, to find a field written twice.
    names: Vec<Node>,
    /// Where the last string read ends in the text, after its closing quote:
    /// the next one's opening quote is the first quote after it, as no other
    /// kind of value holds one.
    pub(super) after: usize,
}

impl Writer<'_> {
    /// The text read by `serde_json`, from the start, where `scan` gave up.
    pub(super) fn again_by_serde_json(&mut self) -> Result<(), serde_json::Error> {
        self.tape.nodes.clear();
        self.tape.escaped.clear();
        self.tape.numbers.clear();
        *self.reading = Reading::default();
        let text = self.tape.text.clone();
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        self.inner()
            .deserialize(&mut deserializer)
            .and_then(|()| deserializer.end())
    }

    fn inner(&mut self) -> Writer<'_> {
        Writer {
            tape: self.tape,
            reading: self.reading,
        }
    }

    pub(super) fn push(&mut self, kind: u32, at: usize, size: usize) {
        let nodes = &mut self.tape.nodes;
        if nodes.len() == nodes.capacity() {
            nodes.reserve_exact(more_nodes(nodes.len(), self.reading.after, self.tape.text.len()));
        }
        // The text is at most `MAX_DOCUMENT_BYTES` (48 MB) long, so each fits.
        nodes.push(Node::new(kind, at as u32, size as u32));
    }

    /// A string that lies in the text as it reads (no escapes).
    fn lying(&mut self, value: &str) {
        let text = &self.tape.text;
        let start = (value.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
        match start.checked_add(value.len()).filter(|end| *end <= text.len()) {
            Some(end) => {
                self.push(STRING, start, value.len());
                self.reading.after = end + 1;
            }
            None => self.escaped(value),
        }
    }

    /// A string that `serde_json` read from escapes (`value`): the tape notes
    /// where it lies, from its quotes.
    fn escaped(&mut self, value: &str) {
        let bytes = self.tape.text.as_bytes();
        let from = self.reading.after;
        let opening = bytes.get(from..).and_then(|rest| rest.iter().position(|byte| *byte == b'"'));
        let lies = opening.map(|opening| from + opening + 1).and_then(|start| {
            let length = closing_quote(bytes.get(start..)?)?;
            Some((start, length))
        });
        let escaped = match lies {
            Some((start, length)) => {
                self.reading.after = start + length + 1;
                Escaped {
                    at: start as u32,
                    len: length as u32,
                    read: OnceLock::new(),
                }
            }
            // Not expected: the text holds every string `serde_json` reads from it.
            None => Escaped {
                at: 0,
                len: 0,
                read: OnceLock::from(Box::from(value)),
            },
        };
        self.push_escaped(escaped);
    }

    /// The field name just written.
    pub(super) fn last_name(&self) -> &str {
        self.tape.nodes.last().map_or("", |node| self.tape.str_of(*node))
    }

    /// The node of a string written with escapes, and where it lies.
    pub(super) fn push_escaped(&mut self, escaped: Escaped) {
        self.push(ESCAPED, self.tape.escaped.len(), 0);
        self.tape.escaped.push(escaped);
    }

    pub(super) fn number(&mut self, value: Number) {
        self.push(NUMBER, self.tape.numbers.len(), 0);
        self.tape.numbers.push(value);
    }

    /// A container's node, written before what it holds: `close` fills it in.
    pub(super) fn open(&mut self, kind: u32) -> usize {
        self.push(kind, 0, 0);
        self.tape.nodes.len() - 1
    }

    pub(super) fn close(&mut self, at: usize, size: usize) {
        let kind = self.tape.nodes[at].kind();
        self.tape.nodes[at] = Node::new(kind, self.tape.nodes.len() as u32, size as u32);
    }

    /// A field written twice in the object whose node is at `at`, if one is:
    /// a small object's names are compared pairwise, a large one's sorted.
    pub(super) fn twice_in(&mut self, at: usize) -> Option<&str> {
        let object = Item {
            tape: self.tape,
            at,
        };
        let names = &mut self.reading.names;
        names.clear();
        names.extend(object.fields().map(|(_, value)| self.tape.nodes[value.at - 1]));
        let tape = &*self.tape;
        if names.len() <= PAIRWISE_UP_TO {
            let same = |one: Node, other: Node| {
                let lengths_differ =
                    one.kind() == STRING && other.kind() == STRING && one.size() != other.size();
                !lengths_differ && tape.str_of(one) == tape.str_of(other)
            };
            return names
                .iter()
                .enumerate()
                .find(|(index, name)| names[index + 1..].iter().any(|other| same(**name, *other)))
                .map(|(_, name)| tape.str_of(*name));
        }
        crate::collect::sort_by(names, |one, other| tape.str_of(*one).cmp(tape.str_of(*other)));
        names
            .windows(2)
            .find(|pair| tape.str_of(pair[0]) == tape.str_of(pair[1]))
            .map(|pair| tape.str_of(pair[0]))
    }
}

/// The length of a string's text up to its closing quote, from the byte after
/// its opening one.
fn closing_quote(string: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(byte) = string.get(at) {
        match byte {
            b'"' => return Some(at),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
    None
}

/// The bytes of text a node is first guessed to take, to reserve the nodes
/// of a text at once: more than most JSON takes, so that the first reserve
/// is rarely too large, and a tape grows once or twice more, by as many
/// nodes as the text read so far says it needs (`Writer::push`). Wasm memory
/// never shrinks, so a reserve left unused is memory a plan holds.
pub(super) const FIRST_GUESS_BYTES_A_NODE: usize = 16;

/// How many more nodes a tape of `nodes` nodes is likely to need, with the
/// text read up to `read` of its `length` bytes: as many again as the nodes
/// so far for the text so far, and a little more; at most as many again
/// (a text whose strings do not say how far it is read grows as a `Vec`
/// does).
pub(super) fn more_nodes(nodes: usize, read: usize, length: usize) -> usize {
    let (nodes, read, length) = (nodes as u64, read.max(1) as u64, length as u64);
    let likely = nodes * length.saturating_sub(read) / read + nodes / 16;
    // At most `nodes`, so it fits.
    likely.min(nodes).max(64) as usize
}

/// The most fields an object can have for its names to be compared pairwise.
const PAIRWISE_UP_TO: usize = 16;

impl<'de> DeserializeSeed<'de> for Writer<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Writer<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(mut self, value: bool) -> Result<(), E> {
        self.push(if value { TRUE } else { FALSE }, 0, 0);
        Ok(())
    }

    fn visit_i64<E>(mut self, value: i64) -> Result<(), E> {
        self.number(value.into());
        Ok(())
    }

    fn visit_u64<E>(mut self, value: u64) -> Result<(), E> {
        self.number(value.into());
        Ok(())
    }

    fn visit_f64<E: de::Error>(mut self, value: f64) -> Result<(), E> {
        let number = Number::from_f64(value).ok_or_else(|| E::custom("number out of range"))?;
        self.number(number);
        Ok(())
    }

    fn visit_borrowed_str<E>(mut self, value: &'de str) -> Result<(), E> {
        self.lying(value);
        Ok(())
    }

    fn visit_str<E>(mut self, value: &str) -> Result<(), E> {
        self.escaped(value);
        Ok(())
    }

    fn visit_unit<E>(mut self) -> Result<(), E> {
        self.push(NULL, 0, 0);
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let at = self.open(ARRAY);
        let mut size = 0;
        while let Some(()) = seq.next_element_seed(self.inner())? {
            size += 1;
        }
        self.close(at, size);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let at = self.open(OBJECT);
        let mut size = 0;
        // Only an object where two names share a bit (`Names`) is looked at for a
        // field written twice.
        let (mut names, mut shared) = (Names::default(), false);
        while let Some(()) = map.next_key_seed(self.inner())? {
            let name = self.last_name();
            shared |= names.add(name);
            map.next_value_seed(self.inner())?;
            size += 1;
        }
        self.close(at, size);
        match shared.then(|| self.twice_in(at)).flatten() {
            Some(name) => Err(twice_error(name)),
            None => Ok(()),
        }
    }
}
