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
use crate::text::json::{check_size, refused, twice_error, Kind};
use crate::text::names::Names;
use scan::scan;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

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

/// One value, or one field's name: a kind (`Node::kind`) and two numbers
/// whose meaning the kind gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// A string's offset in the text, an index into `unescaped` or
    /// `numbers`, or the index of the node after an array or object.
    at: u32,
    /// The kind in the top three bits; below, a string's length in bytes
    /// or how many items or fields an array or object holds.
    kind_and_size: u32,
}

const KIND_SHIFT: u32 = 29;
const SIZE_MASK: u32 = (1 << KIND_SHIFT) - 1;

const NULL: u32 = 0;
const FALSE: u32 = 1;
const TRUE: u32 = 2;
const NUMBER: u32 = 3;
const STRING: u32 = 4;
const ESCAPED: u32 = 5;
const ARRAY: u32 = 6;
const OBJECT: u32 = 7;

impl Node {
    fn new(kind: u32, at: u32, size: u32) -> Node {
        Node {
            at,
            kind_and_size: kind << KIND_SHIFT | size,
        }
    }

    fn kind(self) -> u32 {
        self.kind_and_size >> KIND_SHIFT
    }

    fn size(self) -> u32 {
        self.kind_and_size & SIZE_MASK
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

/// A value in a tape, read where it lies.
#[derive(Clone, Copy)]
pub struct Item<'t> {
    tape: &'t Tape,
    at: usize,
}

impl<'t> Item<'t> {
    /// Where the value's node is in its tape (`Tape::item_at`).
    pub fn index(self) -> usize {
        self.at
    }

    /// Whether the two are the one value at one place of one tape.
    pub fn is_at(self, other: Item) -> bool {
        std::ptr::eq(self.tape, other.tape) && self.at == other.at
    }

    /// Whether the two values are written alike, node for node: the same
    /// fields in the same order, the same items, strings written the same
    /// way and equal numbers. Values written alike are equal (the converse
    /// does not hold: `1` and `1.0`, or fields in another order). Two values
    /// holding a different number of nodes are told apart at once.
    pub fn written_alike(self, other: Item) -> bool {
        let (here, there) = (self.at..self.end(), other.at..other.end());
        here.len() == there.len()
            && here.zip(there).all(|(one, another)| self.tape.node_alike(one, other.tape, another))
    }

    /// Whether the value is an array or holds one.
    pub fn holds_array(self) -> bool {
        self.tape.nodes[self.at..self.end()].iter().any(|node| node.kind() == ARRAY)
    }

    fn node(self) -> Node {
        self.tape.nodes[self.at]
    }

    pub fn kind(self) -> Kind {
        match self.node().kind() {
            NULL => Kind::Null,
            FALSE | TRUE => Kind::Bool,
            NUMBER => Kind::Number,
            STRING | ESCAPED => Kind::String,
            ARRAY => Kind::Array,
            _ => Kind::Object,
        }
    }

    pub fn is_null(self) -> bool {
        self.kind() == Kind::Null
    }

    pub fn as_bool(self) -> Option<bool> {
        match self.node().kind() {
            FALSE => Some(false),
            TRUE => Some(true),
            _ => None,
        }
    }

    pub fn as_number(self) -> Option<&'t Number> {
        let node = self.node();
        (node.kind() == NUMBER).then(|| &self.tape.numbers[node.at as usize])
    }

    /// The string; one written with escapes is kept as it reads from then on.
    pub fn as_str(self) -> Option<&'t str> {
        let node = self.node();
        matches!(node.kind(), STRING | ESCAPED).then(|| self.tape.str_of(node))
    }

    /// The string, as `as_str` reads it, but one written with escapes is read
    /// afresh and not kept: for a string read once, such as a last-applied
    /// record.
    pub fn text(self) -> Option<Cow<'t, str>> {
        let node = self.node();
        matches!(node.kind(), STRING | ESCAPED).then(|| self.tape.text_of(node))
    }

    /// The string between its quotes as the text writes it, escapes and all.
    pub fn as_written(self) -> Option<&'t str> {
        let node = self.node();
        match node.kind() {
            STRING => Some(self.tape.str_of(node)),
            ESCAPED => self.tape.text.get(self.tape.escaped[node.at as usize].between_quotes()),
            _ => None,
        }
    }

    /// An object's text from its first field on, the opening quote of that
    /// field's name first, to the end of the text; none for an empty object
    /// or any other value.
    pub fn text_from_first_field(self) -> Option<&'t str> {
        let (first, count) = self.held(OBJECT);
        if count == 0 {
            return None;
        }
        let name = self.tape.nodes[first];
        let after_quote = match name.kind() {
            STRING => name.at,
            _ => self.tape.escaped[name.at as usize].at,
        };
        self.tape.text.get((after_quote as usize).checked_sub(1)?..)
    }

    /// How many items an array holds or fields an object holds; none for
    /// any other value.
    pub fn count(self) -> Option<usize> {
        let node = self.node();
        matches!(node.kind(), ARRAY | OBJECT).then_some(node.size() as usize)
    }

    /// The index of the node after this value and all it holds.
    fn end(self) -> usize {
        let node = self.node();
        match node.kind() {
            ARRAY | OBJECT => node.at as usize,
            _ => self.at + 1,
        }
    }

    /// Where what a container of `kind` holds starts, and how many it holds;
    /// nothing for any other value.
    fn held(self, kind: u32) -> (usize, u32) {
        match self.node() {
            node if node.kind() == kind => (self.at + 1, node.size()),
            _ => (self.at, 0),
        }
    }

    /// An array's items, in order; none for any other value.
    pub fn items(self) -> Items<'t> {
        let (next, left) = self.held(ARRAY);
        Items {
            tape: self.tape,
            next,
            left,
        }
    }

    /// An object's fields, in the text's order; none for any other value.
    pub fn fields(self) -> Fields<'t> {
        let (next, left) = self.held(OBJECT);
        Fields {
            tape: self.tape,
            next,
            left,
        }
    }

    /// An object's field of this name.
    pub fn get(self, name: &str) -> Option<Item<'t>> {
        let (first, count) = self.held(OBJECT);
        if count == 0 {
            return None;
        }
        self.tape.find_field(name, first, self.end()).map(|(value, _)| value)
    }

    /// An object's fields, to look up by name in about the order they are written.
    pub fn cursor(self) -> Cursor<'t> {
        Cursor {
            object: self,
            resume: Cell::new(self.held(OBJECT).0),
        }
    }

    /// An array's item at this index.
    pub fn item(self, index: usize) -> Option<Item<'t>> {
        self.items().nth(index)
    }

    /// The value a JSON pointer (RFC 6901) names, as `Value::pointer` finds it.
    pub fn pointer(self, pointer: &str) -> Option<Item<'t>> {
        if pointer.is_empty() {
            return Some(self);
        }
        pointer
            .strip_prefix('/')?
            .split('/')
            .map(|token| token.replace("~1", "/").replace("~0", "~"))
            .try_fold(self, |item, token| match item.kind() {
                Kind::Object => item.get(&token),
                Kind::Array => array_index(&token).and_then(|index| item.item(index)),
                _ => None,
            })
    }

    /// The value as an owned `serde_json` value.
    pub fn to_value(self) -> Value {
        match self.kind() {
            Kind::Null => Value::Null,
            Kind::Bool => Value::Bool(self.as_bool() == Some(true)),
            Kind::Number => self.as_number().cloned().map_or(Value::Null, Value::Number),
            Kind::String => Value::String(self.text().unwrap_or_default().into_owned()),
            Kind::Array => Value::Array(self.items().map(Item::to_value).collect()),
            Kind::Object => {
                let mut fields = Map::with_capacity(self.count().unwrap_or_default());
                for (name, value) in self.fields() {
                    fields.insert(name.to_string(), value.to_value());
                }
                Value::Object(fields)
            }
        }
    }
}

/// An array index as `Value::pointer` reads one: digits, no leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// Equal as JSON values are: an object's fields in any order.
impl PartialEq<Value> for Item<'_> {
    fn eq(&self, other: &Value) -> bool {
        match other {
            Value::Null => self.is_null(),
            Value::Bool(value) => self.as_bool() == Some(*value),
            Value::Number(value) => self.as_number() == Some(value),
            Value::String(value) => self.text().as_deref() == Some(value.as_str()),
            Value::Array(values) => {
                self.count() == Some(values.len())
                    && self.kind() == Kind::Array
                    && self.items().zip(values).all(|(item, value)| item == *value)
            }
            Value::Object(fields) => {
                self.kind() == Kind::Object
                    && self.count() == Some(fields.len())
                    && self
                        .fields()
                        .all(|(name, item)| fields.get(name).is_some_and(|value| item == *value))
            }
        }
    }
}

impl fmt::Debug for Item<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(&self.to_value(), f)
    }
}

/// An array's items (`Item::items`).
#[derive(Clone)]
pub struct Items<'t> {
    tape: &'t Tape,
    next: usize,
    left: u32,
}

impl<'t> Iterator for Items<'t> {
    type Item = Item<'t>;

    fn next(&mut self) -> Option<Item<'t>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let item = Item {
            tape: self.tape,
            at: self.next,
        };
        self.next = item.end();
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

/// An object's fields (`Item::fields`): each name, then its value.
#[derive(Clone)]
pub struct Fields<'t> {
    tape: &'t Tape,
    next: usize,
    left: u32,
}

impl<'t> Iterator for Fields<'t> {
    type Item = (&'t str, Item<'t>);

    fn next(&mut self) -> Option<(&'t str, Item<'t>)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let name = self.tape.str_of(self.tape.nodes[self.next]);
        let value = Item {
            tape: self.tape,
            at: self.next + 1,
        };
        self.next = value.end();
        Some((name, value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

/// An object's fields looked up by name one after another, in about the
/// order they are written, as two versions of one object write theirs: each
/// lookup starts after the field the last one found, so a lookup in that
/// order reads one field, and one out of order reads them all.
pub struct Cursor<'t> {
    object: Item<'t>,
    /// The name node of the field after the one last found.
    resume: Cell<usize>,
}

impl<'t> Cursor<'t> {
    pub fn get(&self, name: &str) -> Option<Item<'t>> {
        let (first, count) = self.object.held(OBJECT);
        if count == 0 {
            return None;
        }
        let (tape, resume) = (self.object.tape, self.resume.get());
        let (value, next) = tape
            .find_field(name, resume, self.object.end())
            .or_else(|| tape.find_field(name, first, resume))?;
        self.resume.set(next);
        Some(value)
    }
}

/// Appends the nodes of the value `serde_json` reads next to a tape.
struct Writer<'w> {
    tape: &'w mut Tape,
    reading: &'w mut Reading,
}

/// What a tape's writers share while they read its text.
#[derive(Default)]
struct Reading {
    /// The name nodes of the object just read, to find a field written twice.
    names: Vec<Node>,
    /// Where the last string read ends in the text, after its closing quote:
    /// the next one's opening quote is the first quote after it, as no other
    /// kind of value holds one.
    after: usize,
}

impl Writer<'_> {
    /// The text read by `serde_json`, from the start, where `scan` gave up.
    fn again_by_serde_json(&mut self) -> Result<(), serde_json::Error> {
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

    fn push(&mut self, kind: u32, at: usize, size: usize) {
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
    fn last_name(&self) -> &str {
        self.tape.nodes.last().map_or("", |node| self.tape.str_of(*node))
    }

    /// The node of a string written with escapes, and where it lies.
    fn push_escaped(&mut self, escaped: Escaped) {
        self.push(ESCAPED, self.tape.escaped.len(), 0);
        self.tape.escaped.push(escaped);
    }

    fn number(&mut self, value: Number) {
        self.push(NUMBER, self.tape.numbers.len(), 0);
        self.tape.numbers.push(value);
    }

    /// A container's node, written before what it holds: `close` fills it in.
    fn open(&mut self, kind: u32) -> usize {
        self.push(kind, 0, 0);
        self.tape.nodes.len() - 1
    }

    fn close(&mut self, at: usize, size: usize) {
        let kind = self.tape.nodes[at].kind();
        self.tape.nodes[at] = Node::new(kind, self.tape.nodes.len() as u32, size as u32);
    }

    /// A field written twice in the object whose node is at `at`, if one is:
    /// a small object's names are compared pairwise, a large one's sorted.
    fn twice_in(&mut self, at: usize) -> Option<&str> {
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
const FIRST_GUESS_BYTES_A_NODE: usize = 16;

/// How many more nodes a tape of `nodes` nodes is likely to need, with the
/// text read up to `read` of its `length` bytes: as many again as the nodes
/// so far for the text so far, and a little more; at most as many again
/// (a text whose strings do not say how far it is read grows as a `Vec`
/// does).
fn more_nodes(nodes: usize, read: usize, length: usize) -> usize {
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

mod scan;

#[cfg(test)]
mod tests;
