//! The core's messages mark names between backticks (`` `api` runs the image ... ``),
//! as the command line prints them; the page shows those names as code.

use yew::prelude::*;

/// `text` with each span between two backticks as a `<code>` element. Every part
/// stays text, never markup (names come from what people typed); a backtick
/// without a pair stays as it is.
pub fn code_spans(text: &str) -> Html {
    let parts: Vec<&str> = text.split('`').collect();
    let count = parts.len();
    html! {
        { for parts.into_iter().enumerate().map(|(index, part)| match index % 2 {
            0 => html! { part },
            // A span is closed when a part follows it.
            _ if index + 1 < count => html! { <code>{ part }</code> },
            _ => html! { format!("`{part}") },
        }) }
    }
}
