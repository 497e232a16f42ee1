//! Where the documents of a YAML stream lie: the stream split at its document
//! markers. A line that starts `---` or `...` followed by a space, a tab or its
//! end is a marker wherever it stands (YAML 1.2, `c-forbidden`: no scalar may
//! hold one), so each part between markers is read alone as it is read in the
//! stream, anchors included (they are a document's own). A stream with a
//! directive (`%YAML`, `%TAG`, which reach the documents after them) or with
//! something written on a marker line (`--- !tag`, `--- text`) is not split.

use std::ops::Range;

/// The byte ranges of the parts of `text` between its document markers, in
/// order (the first before any marker, the last after the last one); `None`
/// for a stream that cannot be split so.
pub fn parts(text: &str) -> Option<Vec<Range<usize>>> {
    let mut parts = Vec::new();
    let (mut start, mut at) = (0, 0);
    for line in text.split_inclusive('\n') {
        if line.starts_with('%') {
            return None;
        }
        if is_marker(line) {
            if !is_bare_marker(line) {
                return None;
            }
            parts.push(start..at);
            start = at + line.len();
        }
        at += line.len();
    }
    parts.push(start..text.len());
    Some(parts)
}

/// Whether a line is a document marker: `---` or `...` and then a space, a
/// tab, or the line's end.
fn is_marker(line: &str) -> bool {
    (line.starts_with("---") || line.starts_with("..."))
        && matches!(line.as_bytes().get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}

/// A marker with nothing after it but space and a comment.
fn is_bare_marker(line: &str) -> bool {
    let rest = line[3..].trim_start_matches([' ', '\t']);
    rest.is_empty() || rest.starts_with('#') || rest.trim_end_matches(['\r', '\n']).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Option<Vec<&str>> {
        parts(text).map(|parts| parts.into_iter().map(|part| &text[part]).collect())
    }

    #[test]
    fn a_stream_splits_at_its_marker_lines_and_nowhere_else() {
        let stream = "a: 1\n---\nb: ---\n--- # two\nc: |\n  ---\n...\n";
        assert_eq!(texts(stream), Some(vec!["a: 1\n", "b: ---\n", "c: |\n  ---\n", ""]));
        assert_eq!(texts("---\r\na: 1\r\n"), Some(vec!["", "a: 1\r\n"]));
        assert_eq!(texts("---a: 1\n"), Some(vec!["---a: 1\n"]), "---a is no marker");
    }

    #[test]
    fn directives_and_markers_with_content_are_not_split() {
        assert_eq!(parts("%YAML 1.2\n---\na: 1\n"), None);
        assert_eq!(parts("a: 1\n--- !!map\nb: 2\n"), None);
        assert_eq!(parts("--- text\n"), None);
    }
}
