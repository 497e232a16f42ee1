//! An act of the step as an arrow from the actor to what it touched, with its
//! event's number as a badge on the curve: a person's or a bot's to the box it
//! changed, a person's request to the agent's badge in its cluster, and the
//! agent's own acts from that badge, to Git (its reads) or to the card of the
//! object it applied.

use super::markup::{escape, text};
use super::{Boxes, Layout};
use gitops_page::Arrow;
use gitops_world::event::Place;
use std::fmt::Write;

/// A curve: where it starts, its two control points, where it ends.
type Curve = [(i32, i32); 4];

pub(super) fn arrow_view(
    out: &mut String,
    arrow: &Arrow,
    index: usize,
    boxes: &Boxes,
    layout: &Layout,
) {
    let Some((path, (badge_x, badge_y))) = request_over_the_boxes(arrow, index, boxes, layout).or_else(|| {
        let curve = curve(arrow, index, boxes, layout)?;
        // Each badge at its own point of its curve, so that arrows between the same
        // boxes do not hide each other's numbers.
        let along = [0.5, 0.3, 0.7, 0.4, 0.6][index % 5];
        let [(from_x, from_y), (c1_x, c1_y), (c2_x, c2_y), (to_x, to_y)] = curve;
        Some((format!("M{from_x},{from_y} C{c1_x},{c1_y} {c2_x},{c2_y} {to_x},{to_y}"), point(&curve, along)))
    }) else {
        return;
    };
    let class = if arrow.refused {
        "arrow refused"
    } else {
        "arrow"
    };
    let label = escape(&arrow.label());
    let name = layout.name;
    let _ = write!(
        out,
        r#"<g class="{class}" role="img" aria-label="{label}"><title>{label}</title><path d="{path}" marker-end="url(#arrow-head-{name})"/><circle cx="{badge_x}" cy="{badge_y}" r="9"/>"#
    );
    // The badge is its event's number in the list beside the picture; a refusal is a cross.
    let mark = match arrow.refused {
        true => "✕".to_string(),
        false => arrow.number.to_string(),
    };
    text(out, badge_x, badge_y + 4, "number", &mark);
    out.push_str("</g>");
}

/// Side by side, a person's request to the agent (Step asks it for the next
/// operation): up from the top of the person's box into the lane above the boxes,
/// along it over Git, which the request does not touch, and down into the agent's
/// badge; its number in the gutter before the clusters. Its path and its number's place.
fn request_over_the_boxes(arrow: &Arrow, index: usize, boxes: &Boxes, layout: &Layout) -> Option<(String, (i32, i32))> {
    let Place::Agent(environment) = &arrow.place else {
        return None;
    };
    if layout.stacked || arrow.actor == "agent" {
        return None;
    }
    let (x, y) = boxes.agent_of(environment)?;
    let (_, top, _) = boxes.actors.iter().find(|(name, ..)| *name == arrow.actor)?;
    let (from_x, to_x) = (layout.actor.0 + layout.actor.1 - 14, x + super::cluster::AGENT_W / 2);
    let lane = boxes.git - 6;
    let gutter = (layout.git.0 + layout.git.1 + layout.cluster.0) / 2 + [0, -20, 20][index % 3];
    Some((
        format!(
            "M{from_x},{top} Q{from_x},{lane} {},{lane} L{},{lane} Q{to_x},{lane} {to_x},{y}",
            from_x + 6,
            to_x - 6
        ),
        (gutter, lane),
    ))
}

/// The arrow's curve, when both its ends are in the picture.
fn curve(arrow: &Arrow, index: usize, boxes: &Boxes, layout: &Layout) -> Option<Curve> {
    let offset = 10 * (index as i32 % 5);
    if arrow.actor == "agent" {
        return agent_curve(arrow, index, boxes, layout);
    }
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
    let to = match &arrow.place {
        Place::Git => (git, boxes.git + 22 + offset),
        Place::Registry => (git, boxes.registry + 14 + offset),
        Place::Cluster(environment) => (cluster, boxes.cluster_top(environment)? + 14 + offset),
        Place::Agent(environment) => {
            let (x, y) = boxes.agent_of(environment)?;
            match layout.stacked {
                true => (x + super::cluster::AGENT_W, y + 10),
                false => (x, y + 10),
            }
        }
    };
    let (_, top, height) = boxes.actors.iter().find(|(name, ..)| *name == arrow.actor)?;
    Some(sideways((actor, top + height / 2), to, index, layout))
}

/// The agent acts from its badge in its cluster: its reads of Git back to the
/// repository, what it applies down to the object's card.
fn agent_curve(arrow: &Arrow, index: usize, boxes: &Boxes, layout: &Layout) -> Option<Curve> {
    let offset = 10 * (index as i32 % 5);
    match &arrow.place {
        Place::Git => {
            let (_, top) = boxes.clusters.first()?;
            let git = (layout.git.0 + layout.git.1, boxes.git + 30 + offset);
            Some(match layout.stacked {
                true => sideways((layout.cluster.0 + layout.cluster.1, top + 38), git, index, layout),
                false => sideways((layout.cluster.0, top + 16 + offset), git, index, layout),
            })
        }
        Place::Cluster(environment) => {
            let (x, y) = boxes.agent_of(environment)?;
            let from = (x + super::cluster::AGENT_W / 2, y + 20);
            let to = match arrow.object.as_deref() {
                // An object whose card is no longer drawn (deleted by an earlier act of
                // this minute) has no arrow: one to another card would misname it.
                Some(key) => {
                    let (card_x, card_y) = boxes.card_of(environment, key)?;
                    (card_x + super::card::CARD_W / 2, card_y)
                }
                None => (layout.cluster.0 + 20 + offset, y + 32),
            };
            let bend = ((to.1 - from.1) / 2).max(12);
            Some([from, (from.0, from.1 + bend), (to.0, to.1 - bend), to])
        }
        Place::Registry | Place::Agent(_) => None,
    }
}

/// A curve from `from` to `to` that leaves and arrives level: halfway across
/// side by side, through the gutter on the right when stacked.
fn sideways(from: (i32, i32), to: (i32, i32), index: usize, layout: &Layout) -> Curve {
    let middle = match layout.stacked {
        true => from.0.max(to.0) + 20 + 4 * (index as i32 % 5),
        false => (from.0 + to.0) / 2,
    };
    [from, (middle, from.1), (middle, to.1), to]
}

/// The point `along` a curve (0 its start, 1 its end).
fn point(curve: &Curve, along: f64) -> (i32, i32) {
    let rest = 1.0 - along;
    let weights = [
        rest * rest * rest,
        3.0 * rest * rest * along,
        3.0 * rest * along * along,
        along * along * along,
    ];
    let at = |coordinate: fn(&(i32, i32)) -> i32| {
        let sum: f64 = curve
            .iter()
            .zip(weights)
            .map(|(point, weight)| weight * f64::from(coordinate(point)))
            .sum();
        sum as i32
    };
    (at(|point| point.0), at(|point| point.1))
}
