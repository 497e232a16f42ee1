//! The picture's text as markup: a `<text>` element, text escaped for markup
//! and its attributes, and text shortened to the room it has.

use std::fmt::Write;

pub(super) fn text(out: &mut String, x: i32, y: i32, class: &str, content: &str) {
    let _ = write!(
        out,
        r#"<text x="{x}" y="{y}" class="{class}">{}</text>"#,
        escape(content)
    );
}

/// Text safe inside markup and its quoted attributes.
pub(super) fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            other => escaped.push(other),
        }
    }
    escaped
}

/// At most `most` characters, the last ones, with an ellipsis when cut: a
/// tag's name and version are at its end.
pub(super) fn shorten_start(text: &str, most: usize) -> String {
    let count = text.chars().count();
    match text.char_indices().nth(count.saturating_sub(most)) {
        Some((start, _)) if start > 0 => format!("…{}", &text[start..]),
        _ => text.to_string(),
    }
}

/// At most `most` characters, with an ellipsis when cut.
pub(super) fn shorten(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
