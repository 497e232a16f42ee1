//! Reading a text again after a small edit. A keystroke changes a few bytes
//! inside one object of a text that read a moment ago; the rest of the text is
//! the same bytes, so only that object is read again and every other object of
//! the state stays the very same object. The object is a JSON value in a JSON
//! text, or one document of a YAML stream of several (`text::stream`).
//!
//! It is exact: the edited object's new text must read as one JSON value (or
//! one YAML document) on its own, with the same strict reader, so the whole
//! text still reads in the same shape; anything else (an edit across objects
//! or a document marker, a broken object, a key that another object has)
//! gives up and the text is read in full, which finds the error and says
//! where it is.

use crate::state::{key_of, Form, Key, Object, State};
use crate::text::bytes::common_suffix;
use crate::text::{document, json, stream, yaml};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::cell::OnceCell;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Arc, Weak};

/// A state's objects, by key.
type Objects = BTreeMap<Key, Arc<Object>>;

/// Where each object of a state sits in its text, in text order: the bytes of
/// its JSON value (in the lesson's form, with the name it is under), or of its
/// document in a YAML stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Spans {
    spans: Vec<Span>,
    written: Written,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Written {
    Json,
    /// A YAML stream of several documents, a span each.
    Stream,
}

#[derive(Debug, Clone, PartialEq)]
struct Span {
    bytes: Range<usize>,
    /// The object's name in the lesson's form; a Kubernetes object's key is
    /// read from the object itself.
    name: Option<String>,
}

/// Objects nested deeper than this are read in full, where the reader's
/// nesting cap counts the levels around them too.
const DEEPEST_REREAD: usize = 100;

/// The spans of the objects of `text`, which read as `state`; none when the
/// text is neither JSON of one of the forms a state is read from nor (with the
/// `patched-reports` feature, which is for typing) a YAML stream whose
/// documents can be read one by one.
pub fn spans_of(text: &str, state: &State) -> Option<Spans> {
    json_spans(text, state).or_else(|| match cfg!(feature = "patched-reports") {
        true => stream_spans(text, state),
        false => None,
    })
}

fn json_spans(text: &str, state: &State) -> Option<Spans> {
    #[derive(Deserialize)]
    struct KubernetesList<'a> {
        #[serde(borrow)]
        items: Vec<&'a RawValue>,
    }
    let offset = |raw: &RawValue| raw.get().as_ptr() as usize - text.as_ptr() as usize;
    let span = |raw: &RawValue, name: Option<String>| Span {
        bytes: offset(raw)..offset(raw) + raw.get().len(),
        name,
    };
    let mut spans: Vec<Span> = match state.form() {
        Form::Named => serde_json::from_str::<BTreeMap<String, &RawValue>>(text)
            .ok()?
            .into_iter()
            .map(|(name, raw)| span(raw, Some(name)))
            .collect(),
        Form::List => serde_json::from_str::<Vec<&RawValue>>(text)
            .ok()?
            .into_iter()
            .map(|raw| span(raw, None))
            .collect(),
        Form::KubernetesList { .. } => serde_json::from_str::<KubernetesList>(text)
            .ok()?
            .items
            .into_iter()
            .map(|raw| span(raw, None))
            .collect(),
    };
    if spans.len() != state.len() {
        return None;
    }
    crate::collect::sort_by_key(&mut spans, |span| span.bytes.start);
    Some(Spans { spans, written: Written::Json })
}

/// The documents of a YAML stream of several, each of which reads alone as the
/// object `state` holds under its key. A stream of more bytes than the YAML
/// reader's cap on nodes, or with an alias anywhere, is left whole: that cap
/// counts the nodes of the whole stream, which a document read alone would not.
fn stream_spans(text: &str, state: &State) -> Option<Spans> {
    if *state.form() != Form::List || state.len() < 2 || document::looks_like_json(text) || !within_node_cap(text) {
        return None;
    }
    let mut spans = Vec::with_capacity(state.len());
    for part in stream::parts(text)? {
        // A part with no document (space, comments) holds no object; one that
        // does not read alone as one leaves the stream to be read whole.
        let mut documents = yaml::parse_documents("", &text[part.clone()]).ok()?;
        match documents.len() {
            0 => continue,
            1 => state.object(&key_of(&documents.remove(0))?)?,
            _ => return None,
        };
        spans.push(Span { bytes: part, name: None });
    }
    (spans.len() == state.len()).then_some(Spans { spans, written: Written::Stream })
}

/// A stream the YAML reader's cap on nodes cannot stop: fewer bytes than the
/// cap (a node takes a byte at least) and no alias, which a few bytes expand.
fn within_node_cap(text: &str) -> bool {
    text.len() < yaml::MAX_NODES && !text.contains('*')
}

/// The one document of a part of a YAML stream, read alone.
fn read_document(text: &str) -> Option<Value> {
    let mut documents = yaml::parse_documents("", text).ok()?;
    (documents.len() == 1).then(|| documents.remove(0))
}

/// A state read again from another: every object the very one the other
/// holds, but at `keys`.
pub(crate) struct Reread {
    /// The objects of the state read from and of the state read: while held
    /// weakly, their addresses are theirs.
    from: Weak<Objects>,
    to: Weak<Objects>,
    /// The keys whose objects changed, in key order.
    keys: Vec<Key>,
}

impl Reread {
    /// The keys whose objects differ between `before` and `after`, in key order,
    /// when this reread made `after` from `before`.
    pub(crate) fn keys_changed(&self, before: &State, after: &State) -> Option<&[Key]> {
        let same = |weak: &Weak<Objects>, state: &State| {
            std::ptr::eq(weak.as_ptr(), Arc::as_ptr(&state.objects))
        };
        (same(&self.from, before) && same(&self.to, after)).then_some(&self.keys[..])
    }
}

/// `after` read as a state, knowing that `before` read as `state`, with the
/// spans of its objects (found the first time they are needed), and how many
/// bytes the two texts share at their start and then at their end
/// (`text::bytes::common_ends`): none when the edit between them is not
/// inside one object, or that object does not read alone. With it, which keys
/// the reread changed.
pub fn reread(
    source: &str,
    before: &str,
    state: &State,
    spans: &OnceCell<Option<Spans>>,
    after: &str,
    (same_start, same_end): (usize, usize),
) -> Option<(State, Spans, Reread)> {
    json::check_size(source, after).ok()?;
    let edited = before.len() - same_end;
    if edited - same_start > before.len() / 2 {
        return None;
    }
    // An edit of a JSON text that touches its first or last bracket, or the space
    // around it, is not inside an object: no need to find where the objects are.
    if document::looks_like_json(before) {
        let opening = before.len() - before.trim_start().len();
        let closing = before.trim_end().len().checked_sub(1)?;
        if same_start <= opening || edited > closing {
            return None;
        }
    }
    let spans = spans.get_or_init(|| spans_of(before, state)).as_ref()?;
    let at = spans
        .spans
        .partition_point(|span| span.bytes.start <= same_start)
        .checked_sub(1)?;
    let span = &spans.spans[at];
    if span.bytes.end < edited {
        return None;
    }
    let grown = after.len() as isize - before.len() as isize;
    let moved = |offset: usize| offset.checked_add_signed(grown);
    let new_bytes = span.bytes.start..moved(span.bytes.end)?;
    let new_text = after.get(new_bytes.clone())?;
    let read_alone = |text: &str| match spans.written {
        Written::Json => json::parse(source, text).ok(),
        Written::Stream => read_document(text),
    };
    let stream_part_holds = || cfg!(feature = "patched-reports") && still_one_part(after, new_text, new_bytes.end);
    if spans.written == Written::Stream && !stream_part_holds() {
        return None;
    }
    let object = read_alone(new_text)?;
    if nesting(&object) > DEEPEST_REREAD {
        return None;
    }
    let (old_key, new_key) = match &span.name {
        Some(name) => {
            if !object.is_object() {
                return None;
            }
            (name.clone(), name.clone())
        }
        None => {
            let old_key = key_of(&read_alone(before.get(span.bytes.clone())?)?)?;
            (old_key, key_of(&object)?)
        }
    };
    if new_key != old_key && state.object(&new_key).is_some() {
        return None;
    }
    let keys: Vec<Key> = match old_key.cmp(&new_key) {
        Ordering::Equal => vec![old_key.as_str().into()],
        Ordering::Less => vec![old_key.as_str().into(), new_key.as_str().into()],
        Ordering::Greater => vec![new_key.as_str().into(), old_key.as_str().into()],
    };
    let mut next = state.clone();
    next.replace(&old_key, new_key, object);
    let mut next_spans = spans.clone();
    for (index, span) in next_spans.spans.iter_mut().enumerate() {
        if index == at {
            span.bytes = new_bytes.clone();
        } else if index > at {
            span.bytes = moved(span.bytes.start)?..moved(span.bytes.end)?;
        }
    }
    let reread = Reread {
        from: Arc::downgrade(&state.objects),
        to: Arc::downgrade(&next.objects),
        keys,
    };
    Some((next, next_spans, reread))
}

/// Whether a document's new text, ending at `end` in the stream `after`, is still
/// one part of it: no marker or directive written into it, no line break taken
/// from before the marker after it, no alias, the stream within the node cap,
/// and not become JSON's to read.
fn still_one_part(after: &str, text: &str, end: usize) -> bool {
    let ends_a_line = end == after.len() || text.ends_with('\n');
    ends_a_line
        && stream::parts(text).is_some_and(|parts| parts.len() == 1)
        && after.len() < yaml::MAX_NODES
        && !text.contains('*')
        && !document::looks_like_json(after)
}

/// Whether `after` ends as `before` does from its last byte that is not ASCII
/// whitespace on (its closing bracket, or a byte after it), which an edit inside one
/// object leaves alone; a `before` of whitespace alone counts whole. When it does not,
/// `reread` finds no object to read again (the texts part after that bracket), and a
/// caller need not look for where two texts of megabytes part to learn so: texts that
/// differ only in their trailing whitespace are the same bytes until then.
pub fn ends_alike(before: &str, after: &str) -> bool {
    let tail = &before.as_bytes()[before.trim_ascii_end().len().saturating_sub(1)..];
    !tail.is_empty() && common_suffix(tail, after.as_bytes()) == tail.len()
}

/// How deeply a value nests: 0 for a scalar, 1 for `{}` or `[]`.
fn nesting(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        Value::Object(fields) => 1 + fields.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::bytes::common_ends;
    use proptest::prelude::*;

    const LIST: &str = "[\n  {\"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}, \"data\": {\"x\": \"1\"}},\n  \
                        {\"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"b\"}}\n]\n";
    const NAMED: &str = "{\"a\": {\"replicas\": 1}, \"b\": {\"image\": \"web:1\"}}  ";

    proptest! {
        /// Where `ends_alike` says no, `reread` reads nothing again either, so a caller
        /// that passes such a kept text by misses no reread.
        #[test]
        fn texts_that_part_after_the_closing_bracket_read_nothing_again(
            near_the_end in any::<bool>(),
            at in any::<prop::sample::Index>(),
            removed in 0..4usize,
            inserted in "[0-9a-z\"{}\\[\\],: \n]{0,3}",
        ) {
            for before in [LIST, NAMED] {
                let start = if near_the_end { before.len() - at.index(6) } else { at.index(before.len() + 1) };
                let mut after = before.to_string();
                after.replace_range(start..(start + removed).min(before.len()), &inserted);
                let state = State::read("desired", before).unwrap();
                let ends = common_ends(before.as_bytes(), after.as_bytes());
                let read_again = reread("desired", before, &state, &OnceCell::new(), &after, ends);
                prop_assert!(ends_alike(before, &after) || read_again.is_none(), "{after:?}");
            }
        }
    }

    #[test]
    fn an_edit_inside_an_object_leaves_the_ends_alike_and_one_after_the_bracket_does_not() {
        assert!(ends_alike(LIST, &LIST.replace("\"1\"", "\"2\"")));
        assert!(!ends_alike(LIST, &format!("{LIST} ")));
        assert!(!ends_alike(NAMED, NAMED.trim_end()));
    }
}
