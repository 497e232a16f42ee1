//! An act of the step as an arrow from the actor to the box it touched, with
//! its event's number as a badge on the curve.

use super::markup::{escape, text};
use super::{Boxes, Layout};
use gitops_page::Arrow;
use gitops_world::event::Place;
use std::fmt::Write;

pub(super) fn arrow_view(
    out: &mut String,
    arrow: &Arrow,
    index: usize,
    boxes: &Boxes,
    layout: &Layout,
) {
    let offset = 10 * (index as i32 % 5);
    // Side by side, an arrow leaves an actor's right edge for a box's left
    // edge; stacked, it leaves and enters on the right, through the gutter.
    let (git, cluster, actor) = match layout.stacked {
        true => (
            layout.git.0 + layout.git.1,
            layout.cluster.0 + layout.cluster.1,
            layout.actor.0 + layout.actor.1,
        ),
        false => (
            layout.git.0,
            layout.cluster.0,
            layout.actor.0 + layout.actor.1,
        ),
    };
    let target = match &arrow.place {
        Place::Git => Some((git, boxes.git + 22 + offset)),
        Place::Registry => Some((git, boxes.registry + 14 + offset)),
        Place::Cluster(environment) => boxes
            .clusters
            .iter()
            .find(|(name, _)| name == environment)
            .map(|(_, top)| (cluster, top + 14 + offset)),
    };
    let from = match boxes.actors.iter().find(|(name, ..)| *name == arrow.actor) {
        Some((_, top, height)) => target.map(|to| ((actor, top + height / 2), to)),
        // The agent acts from inside its cluster: its reads of Git are drawn back to the repository.
        None if arrow.actor == "agent" && arrow.place == Place::Git => {
            boxes.clusters.first().map(|(_, top)| match layout.stacked {
                true => ((cluster, top + 38), (git, boxes.git + 30 + offset)),
                false => (
                    (cluster, top + 16 + offset),
                    (layout.git.0 + layout.git.1, boxes.git + 30 + offset),
                ),
            })
        }
        None => None,
    };
    let Some(((from_x, from_y), (to_x, to_y))) = from else {
        return;
    };
    let middle = match layout.stacked {
        true => from_x.max(to_x) + 20 + 4 * (index as i32 % 5),
        false => (from_x + to_x) / 2,
    };
    let class = if arrow.refused {
        "arrow refused"
    } else {
        "arrow"
    };
    let label = escape(&arrow.label());
    // Each badge at its own point of its curve, so that arrows between the same
    // boxes do not hide each other's numbers.
    let along = [0.5, 0.3, 0.7, 0.4, 0.6][index % 5];
    let point = |start: i32, control_start: i32, control_end: i32, end: i32| {
        let rest = 1.0 - along;
        let at = rest * rest * rest * f64::from(start)
            + 3.0 * rest * rest * along * f64::from(control_start)
            + 3.0 * rest * along * along * f64::from(control_end)
            + along * along * along * f64::from(end);
        at as i32
    };
    let badge_x = point(from_x, middle, middle, to_x);
    let badge_y = point(from_y, from_y, to_y, to_y);
    let name = layout.name;
    let _ = write!(
        out,
        r#"<g class="{class}" role="img" aria-label="{label}"><title>{label}</title><path d="M{from_x},{from_y} C{middle},{from_y} {middle},{to_y} {to_x},{to_y}" marker-end="url(#arrow-head-{name})"/><circle cx="{badge_x}" cy="{badge_y}" r="9"/>"#
    );
    // The badge is its event's number in the list beside the picture; a refusal is a cross.
    let mark = match arrow.refused {
        true => "✕".to_string(),
        false => arrow.number.to_string(),
    };
    text(out, badge_x, badge_y + 4, "number", &mark);
    out.push_str("</g>");
}
