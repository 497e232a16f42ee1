//! The tape's first reading: one pass over the bytes of a JSON text that writes
//! its nodes as it goes, for a text it is sure of. `serde_json` hands each value
//! to a visitor, and reads an escaped string into a copy the tape does not keep;
//! here a string is only checked and noted where it lies.
//!
//! Anything it is not sure of gives up (`None`): a byte out of place, a string
//! with a control character or an escape `serde_json` would refuse, a number
//! other than a plain integer that `serde_json` does not read on its own,
//! nesting deeper than `DEEPEST`, a field written twice. `serde_json` then reads
//! the text as before, and finds every error and says where. So a text reads as
//! the same tape either way (`tests.rs` compares the two readings).

use super::node::{ARRAY, FALSE, NULL, OBJECT, STRING, TRUE};
use super::writer::Writer;
use super::Escaped;
use crate::text::bytes::{bytes_below_space, bytes_equal_to, word_at};
use crate::text::names::Names;
use serde_json::Number;
use std::sync::OnceLock;

/// Nesting deeper than this is left to `serde_json`, whose cap (128 levels) is
/// the error a deeper text gets.
const DEEPEST: usize = 100;

/// An array or object open at this point of the text.
struct Open {
    /// Its node, which `Writer::close` fills in.
    node: usize,
    object: bool,
    size: usize,
    /// The names of an object's fields so far, to find one written twice.
    names: Names,
    shared: bool,
}

/// Writes the nodes of the text of `writer`'s tape, all of them, or gives up
/// having written some.
pub(super) fn scan(writer: &mut Writer) -> Option<()> {
    let text = writer.tape.text.clone();
    let mut bytes = Bytes { bytes: text.as_bytes(), at: 0 };
    let mut open: Vec<Open> = Vec::new();
    bytes.skip_space();
    'value: loop {
        match bytes.peek()? {
            opening @ (b'{' | b'[') => {
                if open.len() >= DEEPEST {
                    return None;
                }
                let object = opening == b'{';
                bytes.at += 1;
                let node = writer.open(if object { OBJECT } else { ARRAY });
                open.push(Open { node, object, size: 0, names: Names::default(), shared: false });
                bytes.skip_space();
                if bytes.peek()? == closing(object) {
                    bytes.at += 1;
                    close(writer, open.pop()?)?;
                } else {
                    if object {
                        name(&mut bytes, writer, open.last_mut()?)?;
                    }
                    continue 'value;
                }
            }
            b'"' => string(&mut bytes, writer)?,
            b't' => literal(&mut bytes, writer, b"true", TRUE)?,
            b'f' => literal(&mut bytes, writer, b"false", FALSE)?,
            b'n' => literal(&mut bytes, writer, b"null", NULL)?,
            b'-' | b'0'..=b'9' => number(&mut bytes, writer)?,
            _ => return None,
        }
        // A value ends here: the next one in its array or object, or the end of those.
        loop {
            let Some(within) = open.last_mut() else {
                bytes.skip_space();
                return (bytes.at == bytes.bytes.len()).then_some(());
            };
            within.size += 1;
            bytes.skip_space();
            match bytes.next()? {
                b',' => {
                    bytes.skip_space();
                    if within.object {
                        name(&mut bytes, writer, within)?;
                    }
                    continue 'value;
                }
                byte if byte == closing(within.object) => close(writer, open.pop()?)?,
                _ => return None,
            }
        }
    }
}

fn closing(object: bool) -> u8 {
    if object {
        b'}'
    } else {
        b']'
    }
}

/// Fills in the node of an array or object; gives up on one with a field written twice.
fn close(writer: &mut Writer, open: Open) -> Option<()> {
    writer.close(open.node, open.size);
    let twice = open.shared && writer.twice_in(open.node).is_some();
    (!twice).then_some(())
}

/// A field's name and the colon after it.
fn name(bytes: &mut Bytes, writer: &mut Writer, object: &mut Open) -> Option<()> {
    if bytes.peek()? != b'"' {
        return None;
    }
    string(bytes, writer)?;
    let name = writer.last_name();
    object.shared |= object.names.add(name);
    bytes.skip_space();
    (bytes.next()? == b':').then_some(())?;
    bytes.skip_space();
    Some(())
}

/// A string, from its opening quote: noted where it lies, escapes and all.
fn string(bytes: &mut Bytes, writer: &mut Writer) -> Option<()> {
    let start = bytes.at + 1;
    let mut at = start;
    let mut escaped = false;
    loop {
        at = plain_until(bytes.bytes, at);
        match *bytes.bytes.get(at)? {
            b'"' => break,
            b'\\' => {
                escaped = true;
                at = escape_end(bytes.bytes, at + 1)?;
            }
            _ => return None,
        }
    }
    bytes.at = at + 1;
    writer.reading.after = bytes.at;
    let length = at - start;
    if escaped {
        writer.push_escaped(Escaped { at: start as u32, len: length as u32, read: OnceLock::new() });
    } else {
        writer.push(STRING, start, length);
    }
    Some(())
}

/// Where the escape after a backslash at `at - 1` ends, if `serde_json` reads it:
/// a `\u` escape of half a surrogate pair only with its other half.
fn escape_end(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(at + 1),
        b'u' => match hex4(bytes, at + 1)? {
            0xD800..=0xDBFF => {
                let low = (bytes.get(at + 5..at + 7)? == b"\\u").then(|| hex4(bytes, at + 7))??;
                (0xDC00..=0xDFFF).contains(&low).then_some(at + 11)
            }
            0xDC00..=0xDFFF => None,
            _ => Some(at + 5),
        },
        _ => None,
    }
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at + 4)?.iter().try_fold(0, |code, byte| Some(code * 16 + char::from(*byte).to_digit(16)?))
}

/// The first byte from `at` on that is a quote, a backslash or a control
/// character, eight bytes at a time (as `serde_json` looks for the end of a string).
fn plain_until(bytes: &[u8], mut at: usize) -> usize {
    while let Some(word) = word_at(bytes, at) {
        let found = bytes_below_space(word) | bytes_equal_to(word, b'"') | bytes_equal_to(word, b'\\');
        if found != 0 {
            // A byte flagged wrongly lies only after one flagged rightly.
            return at + found.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    while bytes.get(at).is_some_and(|byte| !matches!(byte, b'"' | b'\\' | 0..=0x1f)) {
        at += 1;
    }
    at
}

fn literal(bytes: &mut Bytes, writer: &mut Writer, word: &[u8], kind: u32) -> Option<()> {
    (bytes.bytes.get(bytes.at..bytes.at + word.len())? == word).then_some(())?;
    bytes.at += word.len();
    writer.push(kind, 0, 0);
    Some(())
}

/// A number: a plain integer read here, any other as `serde_json` reads it on its own.
fn number(bytes: &mut Bytes, writer: &mut Writer) -> Option<()> {
    let start = bytes.at;
    let negative = bytes.bytes[start] == b'-';
    let digits_start = start + usize::from(negative);
    let mut at = digits_start;
    while bytes.bytes.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    let digits = &bytes.bytes[digits_start..at];
    let plain = !matches!(bytes.bytes.get(at), Some(b'.' | b'e' | b'E' | b'+' | b'-'))
        && (1..=18).contains(&digits.len())
        && (digits.len() == 1 || digits[0] != b'0');
    // At most 18 digits are summed: they fit.
    let magnitude = || digits.iter().fold(0u64, |value, digit| value * 10 + u64::from(digit - b'0'));
    let number = match (plain, negative) {
        (true, false) => Number::from(magnitude()),
        // `-0` is a float to `serde_json`; any other fits an i64 with 18 digits.
        (true, true) if digits != b"0" => Number::from(-(magnitude() as i64)),
        _ => {
            while bytes.bytes.get(at).is_some_and(|byte| matches!(byte, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')) {
                at += 1;
            }
            let token = std::str::from_utf8(&bytes.bytes[start..at]).ok()?;
            serde_json::from_str(token).ok()?
        }
    };
    bytes.at = at;
    writer.number(number);
    Some(())
}

/// The text's bytes and where the reading is.
struct Bytes<'t> {
    bytes: &'t [u8],
    at: usize,
}

impl Bytes<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|byte| matches!(byte, b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }
}
