//! Where values sit in a text: the lines of the value at a JSON pointer, found in
//! one walk over the YAML parser's events (JSON reads as YAML here, as in
//! `yaml::item_lines`), with no value built. A page marks a changed field with it.

use saphyr_parser::{Event, Parser, Span};
use std::collections::BTreeMap;
use std::ops::Range;

/// The pointers wanted in each document of a text, each with its slot in the answer:
/// by the document's number among the documents that hold a mapping or a list (from
/// 0), as `text::document::parse_documents` numbers them.
pub type Wanted = Vec<BTreeMap<String, usize>>;

/// The 0-based lines [start, end) of each wanted value found in `text`, in its slot
/// (`slots` of them), from the line of its key (or its own first line in a list) to
/// its last line. A value the text lacks has none, and neither does anything after the
/// text stops reading.
pub fn value_lines(text: &str, wanted: &Wanted, slots: usize) -> Vec<Option<Range<usize>>> {
    let mut walk = Walk {
        wanted,
        found: vec![None; slots],
        open: Vec::new(),
        pointer: String::new(),
        document: None,
        documents: 0,
        last_line: 0,
    };
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else {
            break;
        };
        walk.take(event, span);
    }
    walk.found
}

struct Walk<'w> {
    wanted: &'w Wanted,
    found: Vec<Option<Range<usize>>>,
    open: Vec<Open>,
    /// The pointer of the innermost open value.
    pointer: String,
    /// The wanted pointers of the document being walked.
    document: Option<&'w BTreeMap<String, usize>>,
    documents: usize,
    /// The last line (0-based) that holds a token of the open values.
    last_line: usize,
}

struct Open {
    /// How long `pointer` was outside this value.
    outer: usize,
    /// The line its key (or the value itself) starts on.
    start: usize,
    /// A mapping's key waiting for its value, with the key's line; `None` in a list.
    key: Option<Option<(String, usize)>>,
    /// The next item's index, in a list.
    next_index: usize,
}

impl Walk<'_> {
    fn take(&mut self, event: Event, span: Span) {
        let first = span.start.line().saturating_sub(1);
        let is_block_end = span.end.index() == span.start.index();
        match event {
            Event::MappingEnd | Event::SequenceEnd => {
                if !is_block_end {
                    self.last_line = self.last_line.max(first);
                }
                if let Some(open) = self.open.pop() {
                    self.record(open.start..self.last_line + 1);
                    self.pointer.truncate(open.outer);
                }
            }
            Event::Scalar(..) | Event::Alias(_) => {
                self.last_line = self.last_line.max(last_line_of(&span));
                if let Some(Open { key: Some(key @ None), .. }) = self.open.last_mut() {
                    if let Event::Scalar(name, ..) = event {
                        *key = Some((escaped(&name), first));
                    }
                    return;
                }
                if let Some((outer, start)) = self.enter(first) {
                    self.record(start..self.last_line + 1);
                    self.pointer.truncate(outer);
                }
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if self.open.is_empty() {
                    self.document = self.wanted.get(self.documents);
                    self.documents += 1;
                }
                self.last_line = self.last_line.max(first);
                if let Some((outer, start)) = self.enter(first) {
                    let is_mapping = matches!(event, Event::MappingStart(..));
                    self.open.push(Open {
                        outer,
                        start,
                        key: is_mapping.then_some(None),
                        next_index: 0,
                    });
                }
            }
            _ => {}
        }
    }

    /// Starts a value at `line` inside the innermost open one: its pointer is made
    /// current. Gives how long the pointer was before, and the line the value's
    /// entry starts on.
    fn enter(&mut self, line: usize) -> Option<(usize, usize)> {
        let outer = self.pointer.len();
        let Some(open) = self.open.last_mut() else {
            return Some((outer, line));
        };
        let start = match &mut open.key {
            Some(key) => {
                let (name, key_line) = key.take()?;
                self.pointer.push('/');
                self.pointer.push_str(&name);
                key_line
            }
            None => {
                self.pointer.push('/');
                self.pointer.push_str(&open.next_index.to_string());
                open.next_index += 1;
                line
            }
        };
        Some((outer, start))
    }

    fn record(&mut self, lines: Range<usize>) {
        let slot = self.document.and_then(|wanted| wanted.get(self.pointer.as_str()));
        if let Some(found) = slot.and_then(|slot| self.found.get_mut(*slot)) {
            *found = Some(lines);
        }
    }
}

/// The last line a scalar's text is on: a block scalar's span ends at the start of the
/// line after it.
fn last_line_of(span: &Span) -> usize {
    let line = span.end.line().saturating_sub(1);
    let starts_a_line = span.end.col() == 0 && span.end.line() > span.start.line();
    line - usize::from(starts_a_line)
}

fn escaped(name: &str) -> String {
    if name.contains(['~', '/']) {
        crate::pointer::escape(name)
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(text: &str, document: usize, pointers: &[&str]) -> Vec<Option<Range<usize>>> {
        let mut wanted = vec![BTreeMap::new(); document + 1];
        for (slot, pointer) in pointers.iter().enumerate() {
            wanted[document].insert(pointer.to_string(), slot);
        }
        value_lines(text, &wanted, pointers.len())
    }

    #[test]
    fn finds_fields_of_a_pretty_json_list() {
        let text = "[\n  {\n    \"kind\": \"Deployment\",\n    \"spec\": {\n      \"replicas\": 3,\n      \"ports\": [\n        80,\n        443\n      ]\n    }\n  }\n]\n";
        assert_eq!(
            lines_of(text, 0, &["/0", "/0/spec", "/0/spec/replicas", "/0/spec/ports/1", "/0/nope"]),
            [Some(1..11), Some(3..10), Some(4..5), Some(7..8), None]
        );
    }

    #[test]
    fn finds_fields_of_block_yaml_from_the_key_line_to_the_last_line() {
        let text = "kind: Deployment\nspec:\n  replicas: 3\n  template:\n    image: web:1\nnote: |\n  one\n  two\nlast: 1\n";
        assert_eq!(
            lines_of(text, 0, &["", "/spec", "/spec/replicas", "/spec/template", "/note", "/last"]),
            [Some(0..9), Some(1..5), Some(2..3), Some(3..5), Some(5..8), Some(8..9)]
        );
    }

    #[test]
    fn numbers_documents_that_hold_values_and_escapes_keys() {
        let text = "---\n# only a comment\n---\nkind: A\n---\nkind: B\nmetadata:\n  a/b~c: 1\n";
        assert_eq!(lines_of(text, 1, &["/kind", "/metadata/a~1b~0c"]), [Some(5..6), Some(7..8)]);
        assert_eq!(lines_of(text, 0, &["/kind"]), [Some(3..4)]);
    }

    #[test]
    fn stops_where_the_text_stops_reading() {
        assert_eq!(lines_of("a: 1\nb: [\n", 0, &["/a", "/b"]), [Some(0..1), None]);
    }
}
