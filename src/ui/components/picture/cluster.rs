//! A cluster in the picture's right column: its name, its agent and its
//! cards in rows.

use super::card::{card_view, CARD_H, CARD_W};
use super::markup::{escape, text};
use super::{Boxes, Layout, GAP, LINE};
use gitops_page::{AgentBadge, ClusterBox};
use std::fmt::Write;

/// The agent's badge's width.
pub(super) const AGENT_W: i32 = 140;

/// One cluster with its agent and cards; the height it takes. Where the
/// agent's badge and each card stand goes into `boxes`, for the arrows.
pub(super) fn cluster_view(
    out: &mut String,
    cluster: &ClusterBox,
    top: i32,
    agent: Option<&AgentBadge>,
    layout: &Layout,
    boxes: &mut Boxes,
) -> i32 {
    let (cluster_x, cluster_w) = layout.cluster;
    let per_row = layout.cards_per_row;
    let rows = (cluster.cards.len() as i32 + per_row - 1) / per_row;
    let rows = rows.max(1);
    // On a phone the agent sits under the cluster's name, not beside it; the
    // cards stand far enough below it for its arrows to them to show.
    let cards_top = top
        + match (agent.is_some(), layout.stacked) {
            (true, true) => 68,
            (true, false) => 44,
            (false, _) => 32,
        };
    let height =
        cards_top - top + 2 + rows * (CARD_H + GAP) + if cluster.more > 0 { LINE } else { 0 };
    let title = format!(
        "Cluster: {}{}",
        cluster.environment,
        if cluster.current {
            " (in the panes)"
        } else {
            ""
        }
    );
    let current = if cluster.current { " current" } else { "" };
    let _ = write!(
        out,
        r#"<g class="cluster{current}" role="group" aria-label="{title}"><rect x="{cluster_x}" y="{top}" width="{cluster_w}" height="{height}" rx="8"/>"#,
        title = escape(&title)
    );
    text(out, cluster_x + 10, top + 19, "name", &title);
    if let Some(agent) = agent {
        let (x, y) = match layout.stacked {
            true => (cluster_x + 10, top + 28),
            false => (cluster_x + cluster_w - AGENT_W - 10, top + 6),
        };
        boxes.agents.push((cluster.environment.clone(), x, y));
        let (pace, held) = match cluster.no_application {
            Some(why) => (format!("it does not sync {}: {why}", cluster.environment), format!("{} · no Application", agent.tool)),
            None => (agent.pace.clone(), format!("⟳ {} · Git: read", agent.tool)),
        };
        let _ = write!(
            out,
            r#"<g class="agent" role="img" aria-label="the agent in {}, {}: {}; it holds Git: read and cluster: write"><title>{}: {}</title><rect x="{x}" y="{y}" width="{AGENT_W}" height="20" rx="10"/>"#,
            escape(&cluster.environment),
            agent.tool,
            escape(&pace),
            agent.tool,
            escape(&pace),
        );
        text(out, x + 10, y + 14, "held", &held);
        out.push_str("</g>");
    }
    for (index, card) in cluster.cards.iter().enumerate() {
        let (column, row) = (index as i32 % per_row, index as i32 / per_row);
        let (x, y) = (
            cluster_x + 10 + column * (CARD_W + GAP),
            cards_top + row * (CARD_H + GAP),
        );
        boxes.cards.push((cluster.environment.clone(), card.key.clone(), x, y));
        card_view(out, card, x, y);
    }
    if cluster.more > 0 {
        text(
            out,
            cluster_x + 10,
            top + height - 6,
            "held",
            &format!("and {} more", cluster.more),
        );
    }
    out.push_str("</g>");
    height
}
