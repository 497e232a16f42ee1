//! The list of the events of the minute on screen, beside the picture.

use super::markup::escape;
use std::fmt::Write;

/// The events of the minute on screen, as a section of markup.
pub fn step_events(world: &gitops_world::World) -> String {
    let step = world.step;
    let mut out = format!(
        r#"<section class="step-events" aria-labelledby="step-events-title"><h2 id="step-events-title">At minute {step}</h2>"#
    );
    let mut events = world
        .events
        .iter()
        .filter(|event| event.step == step)
        .peekable();
    if events.peek().is_none() {
        out.push_str(r#"<p class="quiet">Nothing happened at this minute.</p>"#);
    } else {
        out.push_str("<ol>");
        for event in events {
            let class = if event.refused {
                r#" class="refused""#
            } else {
                ""
            };
            let _ = write!(
                out,
                "<li{class}><strong>{}</strong>: {}",
                escape(&event.actor),
                escape(&event.what)
            );
            if !event.why.is_empty() {
                let _ = write!(out, r#"<span class="why"> — {}</span>"#, escape(&event.why));
            }
            out.push_str("</li>");
        }
        out.push_str("</ol>");
    }
    out.push_str("</section>");
    out
}
