//! A value in a tape, read where it lies, and the iterators over an array's
//! items and an object's fields.

use super::node::{Node, ARRAY, ESCAPED, FALSE, NULL, NUMBER, OBJECT, STRING, TRUE};
use super::Tape;
use crate::text::json::Kind;
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

/// A value in a tape, read where it lies.
#[derive(Clone, Copy)]
pub struct Item<'t> {
    pub(super) tape: &'t Tape,
    pub(super) at: usize,
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
    pub(super) fn end(self) -> usize {
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
