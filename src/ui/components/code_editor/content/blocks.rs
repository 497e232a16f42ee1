//! The text as blocks hold it: the spans the blocks hold, the form a block's
//! text is written in, and the spans moved by an edit before them.

use gitops_page::folds::Folds;
use std::ops::Range;

pub(super) fn shift(span: &Range<usize>, by: isize) -> Range<usize> {
    let moved = |at: usize| (at as isize + by) as usize;
    moved(span.start)..moved(span.end)
}

/// `\r\n` and a lone `\r` as `\n`, as a `<textarea>` reads them.
pub(super) fn normalize_line_breaks(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        text.into()
    }
}

/// The spans of `text` (line breaks normalized) that blocks hold, each with whether it
/// is folded away: blocks of at most `lines` lines, cut where a fold starts and ends.
/// The line breaks between blocks belong to none. One empty block for empty text.
pub(super) fn block_spans(text: &str, lines: usize, hidden: &Folds) -> Vec<(Range<usize>, bool)> {
    let mut cuts = hidden
        .hidden()
        .iter()
        .flat_map(|fold| [fold.start, fold.end])
        .peekable();
    let mut spans = Vec::new();
    let (mut start, mut first_line, mut line, mut seen) = (0, 0, 0, 0);
    let folded = |first_line: usize| {
        hidden
            .hidden()
            .iter()
            .any(|fold| fold.contains(&first_line))
    };
    for (at, byte) in text.bytes().enumerate() {
        if byte == b'\n' {
            line += 1;
            seen += 1;
            while cuts.next_if(|cut| *cut < line).is_some() {}
            if seen == lines || cuts.peek() == Some(&line) {
                spans.push((start..at, folded(first_line)));
                (start, first_line, seen) = (at + 1, line, 0);
            }
        }
    }
    spans.push((start..text.len(), folded(first_line)));
    spans
}

/// A block's text as written into the page: one line break more when its last line
/// is empty, since a final line break shows no line.
pub(super) fn written_form(block: &str) -> std::borrow::Cow<'_, str> {
    if needs_closing_break(block) {
        format!("{block}\n").into()
    } else {
        block.into()
    }
}

/// Whether a block's text needs a line break after it to show its last line (an
/// empty last line shows only when a break follows it).
pub(super) fn needs_closing_break(block: &str) -> bool {
    block.is_empty() || block.ends_with('\n')
}
