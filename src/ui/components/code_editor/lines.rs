//! Lines and columns of a text, as the editor shows them.

use super::TAB_SIZE;

/// Lines as the editor shows them: at least one, and a final line break starts an
/// empty last line. `\r\n` and a lone `\r` are line breaks too.
/// (`str::matches` finds a character a word at a time, several times faster than a
/// loop over bytes, which matters for a text of megabytes on each keystroke.)
pub fn line_count(text: &str) -> usize {
    let lone_returns = if text.contains('\r') {
        text.match_indices('\r')
            .filter(|&(at, _)| text.as_bytes().get(at + 1) != Some(&b'\n'))
            .count()
    } else {
        0
    };
    1 + text.matches('\n').count() + lone_returns
}

/// The 0-based `index`th line, without its line break; empty past the end.
pub fn nth_line(text: &str, index: usize) -> &str {
    let mut rest = text;
    for _ in 0..index {
        match rest.find(['\n', '\r']) {
            Some(at) => {
                let skip = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[at + skip..];
            }
            None => return "",
        }
    }
    let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
    &rest[..end]
}

/// Where the 1-based character `column` of `line` starts on screen, in character cells
/// from the line's start, with tabs expanded. A column past the end is the line's end.
pub fn visual_column(line: &str, column: usize) -> usize {
    line.chars()
        .take(column.saturating_sub(1))
        .fold(0, |cells, character| {
            if character == '\t' {
                (cells / TAB_SIZE + 1) * TAB_SIZE
            } else {
                cells + 1
            }
        })
}
