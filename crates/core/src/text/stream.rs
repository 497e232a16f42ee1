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
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let (mut start, mut line) = (0, 0);
    while line < bytes.len() {
        let end = bytes[line..].iter().position(|&byte| byte == b'\n').map_or(bytes.len(), |at| line + at + 1);
        let this = &bytes[line..end];
        let body = this.strip_suffix(b"\r\n").or_else(|| this.strip_suffix(b"\n")).unwrap_or(this);
        if body.contains(&b'\r') {
            // A carriage return alone breaks a line too, where this split would not.
            return None;
        }
        match marker(this) {
            Line::Directive | Line::MarkerWithContent => return None,
            Line::Marker => {
                parts.push(start..line);
                start = end;
            }
            Line::Other => {}
        }
        line = end;
    }
    parts.push(start..text.len());
    Some(parts)
}

enum Line {
    Directive,
    /// `---` or `...` and then a space, a tab or the line's end, with nothing
    /// after it but space and a comment.
    Marker,
    MarkerWithContent,
    Other,
}

fn marker(line: &[u8]) -> Line {
    let is_space = |byte: &u8| matches!(byte, b' ' | b'\t');
    match line {
        [b'%', ..] => Line::Directive,
        [b'-', b'-', b'-', rest @ ..] | [b'.', b'.', b'.', rest @ ..]
            if matches!(rest.first(), None | Some(b' ' | b'\t' | b'\r' | b'\n')) =>
        {
            match rest.iter().position(|byte| !is_space(byte)).map(|at| &rest[at..]) {
                None | Some([b'#', ..] | [b'\r', b'\n'] | [b'\n']) => Line::Marker,
                Some(_) => Line::MarkerWithContent,
            }
        }
        _ => Line::Other,
    }
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
        assert_eq!(parts("a: 1\n--- \rb: 2\n"), None, "a carriage return alone breaks the line");
    }
}
