//! The picture's left column: each actor and what it holds.

use super::markup::{escape, text};
use super::{Boxes, Layout, GAP, LINE};
use gitops_page::{Picture, YOU};
use std::fmt::Write;

/// The actors, stacked; the height they take.
pub(super) fn actors(
    out: &mut String,
    picture: &Picture,
    boxes: &mut Boxes,
    layout: &Layout,
    top: i32,
) -> i32 {
    let (actor_x, actor_w) = layout.actor;
    let mut y = top;
    for actor in &picture.actors {
        let height = 26 + LINE * actor.holds.len() as i32;
        boxes.actors.push((actor.name.clone(), y, height));
        let name = if actor.name == YOU {
            "You"
        } else {
            &actor.name
        };
        let holds = if actor.holds.is_empty() {
            "nothing".to_string()
        } else {
            actor.holds.join(", ")
        };
        let _ = write!(
            out,
            r#"<g class="actor" role="img" aria-label="{name} holds {holds}"><rect x="{actor_x}" y="{y}" width="{actor_w}" height="{height}" rx="6"/>"#,
            name = escape(name),
            holds = escape(&holds),
        );
        text(out, actor_x + 10, y + 18, "name", name);
        for (index, held) in actor.holds.iter().enumerate() {
            text(
                out,
                actor_x + 18,
                y + 34 + LINE * index as i32,
                "held",
                held,
            );
        }
        out.push_str("</g>");
        y += height + GAP;
    }
    y
}
