//! The picture of the world as one SVG: actors and what they hold on the
//! left, the state repository and the registry in the middle, each
//! environment's cluster with its agent and cards on the right, and this
//! step's acts as arrows between them. The layout is fixed (the topology is
//! known, so positions are arithmetic), and the SVG is written as markup:
//! it is redrawn whole when the world changes, and a card's click or key
//! reaches one listener on the frame, which reads the card's `data-key`.

use gitops_page::{Arrow, Card, ClusterBox, Picture, MOST_COMMITS, YOU};
use gitops_world::event::Place;
use std::fmt::Write;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PictureProps {
    pub picture: crate::ui::ptr_eq::PtrEq<Picture>,
    /// Shows a card's object in the panes.
    pub on_inspect: Callback<String>,
}

#[function_component(PictureView)]
pub fn picture_view(props: &PictureProps) -> Html {
    // Both layouts: the style sheet shows the one that fits the screen.
    let markup = use_memo(props.picture.clone(), |picture| {
        AttrValue::from(svg(picture, &Layout::WIDE) + &svg(picture, &Layout::NARROW))
    });
    let inspect = |event: &Event| {
        let card = event
            .target()?
            .dyn_into::<web_sys::Element>()
            .ok()?
            .closest("[data-key]")
            .ok()??;
        card.get_attribute("data-key")
    };
    let onclick = {
        let on_inspect = props.on_inspect.clone();
        Callback::from(move |event: MouseEvent| {
            if let Some(key) = inspect(&event) {
                on_inspect.emit(key);
            }
        })
    };
    let onkeydown = {
        let on_inspect = props.on_inspect.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() == "Enter" || event.key() == " " {
                if let Some(key) = inspect(&event) {
                    event.prevent_default();
                    on_inspect.emit(key);
                }
            }
        })
    };
    html! {
        <div class="picture-frame" {onclick} {onkeydown}>
            { Html::from_html_unchecked((*markup).clone()) }
        </div>
    }
}

const CARD_W: i32 = 142;
const CARD_H: i32 = 88;
const GAP: i32 = 8;
const LINE: i32 = 16;
const MOST_PULL_REQUESTS: usize = 4;
const MOST_TAGS: usize = 6;

/// Where the picture's columns are: side by side on a wide screen, one
/// under the other on a phone (the arrows then run in a gutter on the right).
#[derive(Clone, Copy, PartialEq)]
pub struct Layout {
    name: &'static str,
    width: i32,
    actor: (i32, i32),
    git: (i32, i32),
    cluster: (i32, i32),
    cards_per_row: i32,
    stacked: bool,
}

impl Layout {
    pub const WIDE: Layout = Layout {
        name: "wide",
        width: 1160,
        actor: (8, 196),
        git: (270, 350),
        cluster: (690, 462),
        cards_per_row: 3,
        stacked: false,
    };
    pub const NARROW: Layout = Layout {
        name: "narrow",
        width: 372,
        actor: (8, 312),
        git: (8, 312),
        cluster: (8, 312),
        cards_per_row: 2,
        stacked: true,
    };
}

/// Where each box is, for the arrows: its name, top and height.
#[derive(Default)]
struct Boxes {
    actors: Vec<(String, i32, i32)>,
    git: i32,
    registry: i32,
    clusters: Vec<(String, i32)>,
}

/// The picture as SVG markup.
pub fn svg(picture: &Picture, layout: &Layout) -> String {
    let mut out = String::new();
    let mut boxes = Boxes::default();
    let mut body = String::new();
    text(
        &mut body,
        layout.actor.0,
        16,
        "column",
        "Who acts, and what they hold",
    );
    let left = actors(&mut body, picture, &mut boxes, layout, 28);
    let git_top = match layout.stacked {
        true => left + 2 * LINE,
        false => 28,
    };
    text(
        &mut body,
        layout.git.0,
        git_top - 12,
        "column",
        "What they change",
    );
    let middle = repository(&mut body, picture, &mut boxes, layout, git_top);
    let mut top = match layout.stacked {
        true => middle + 2 * LINE,
        false => 28,
    };
    text(&mut body, layout.cluster.0, top - 12, "column", "Clusters");
    for cluster in &picture.clusters {
        boxes.clusters.push((cluster.environment.clone(), top));
        top += cluster_view(&mut body, cluster, top, picture.agent, layout) + 2 * GAP;
    }
    for (index, arrow) in picture.arrows.iter().enumerate() {
        arrow_view(&mut body, arrow, index, &boxes, layout);
    }
    let height = left.max(middle).max(top) + GAP;
    let _ = write!(
        out,
        r#"<svg class="picture {name}" viewBox="0 0 {} {height}" role="group" aria-label="The world at {}"><defs><marker id="arrow-head-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>{body}</svg>"#,
        layout.width,
        escape(&picture.step),
        name = layout.name
    );
    out
}

/// The actors, stacked; the height they take.
fn actors(
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

/// Git's branches and pull requests, then the registry's tags; the height they take.
fn repository(
    out: &mut String,
    picture: &Picture,
    boxes: &mut Boxes,
    layout: &Layout,
    top: i32,
) -> i32 {
    let (git_x, git_w) = layout.git;
    let commit_gap = 44.min((git_w - 108) / (MOST_COMMITS as i32 - 1));
    let pull_requests = picture.pull_requests.len().min(MOST_PULL_REQUESTS) as i32;
    let height = 34 + 30 * picture.branches.len() as i32 + 18 * pull_requests;
    boxes.git = top;
    let _ = write!(
        out,
        r#"<g class="git" role="group" aria-label="Git: the state repository"><rect x="{git_x}" y="{top}" width="{git_w}" height="{height}" rx="6"/>"#
    );
    text(out, git_x + 10, top + 18, "name", "Git: state repository");
    for (lane, branch) in picture.branches.iter().enumerate() {
        let y = top + 42 + 30 * lane as i32;
        out.push_str(r#"<g class="branch">"#);
        text(out, git_x + 10, y + 4, "held", &branch.name);
        let _ = write!(
            out,
            r#"<line x1="{}" x2="{}" y1="{y}" y2="{y}"/>"#,
            git_x + 80,
            git_x + git_w - 16
        );
        for (index, commit) in branch.commits.iter().enumerate() {
            let x = git_x + 92 + commit_gap * index as i32;
            let label = escape(&format!(
                "commit {} on {} by {}: {}",
                commit.id, branch.name, commit.author, commit.message
            ));
            let new = if commit.new { " new" } else { "" };
            let _ = write!(
                out,
                r#"<g class="commit{new}" role="img" aria-label="{label}"><title>{label}</title><circle cx="{x}" cy="{y}" r="7"/>"#
            );
            text(
                out,
                x,
                y + 20,
                "id",
                &commit.id.chars().take(5).collect::<String>(),
            );
            out.push_str("</g>");
        }
        out.push_str("</g>");
    }
    let first_row = top + 46 + 30 * picture.branches.len() as i32;
    for (index, pull_request) in picture
        .pull_requests
        .iter()
        .rev()
        .take(MOST_PULL_REQUESTS)
        .enumerate()
    {
        let approvals = match pull_request.approvals.as_slice() {
            [] => "no approval".to_string(),
            people => format!("approved by {}", people.join(", ")),
        };
        let label = format!(
            "pull request #{} by {}, {}: {}, {approvals}",
            pull_request.number, pull_request.author, pull_request.state, pull_request.title
        );
        let review = if pull_request.approvals.is_empty() {
            "✗ review"
        } else {
            "✓ review"
        };
        let _ = write!(
            out,
            r#"<g class="pull-request {}" role="img" aria-label="{}">"#,
            pull_request.state,
            escape(&label)
        );
        let shown = format!(
            "PR #{} {} · {} · {review}",
            pull_request.number,
            shorten(&pull_request.title, 26),
            pull_request.state
        );
        text(
            out,
            git_x + 10,
            first_row + 18 * index as i32,
            "held",
            &shown,
        );
        out.push_str("</g>");
    }
    out.push_str("</g>");

    let top = top + height + 24;
    boxes.registry = top;
    let height = 30 + 18 * picture.tags.len().clamp(1, MOST_TAGS) as i32;
    let _ = write!(
        out,
        r#"<g class="registry" role="group" aria-label="The image registry"><rect x="{git_x}" y="{top}" width="{git_w}" height="{height}" rx="6"/>"#
    );
    text(out, git_x + 10, top + 18, "name", "Registry");
    if picture.tags.is_empty() {
        let held = match picture.open_registry {
            true => "every image asked for (no registry list)",
            false => "no images",
        };
        text(out, git_x + 18, top + 38, "held", held);
    }
    for (index, tag) in picture.tags.iter().take(MOST_TAGS).enumerate() {
        let moved = tag
            .moved_from
            .as_ref()
            .map(|before| format!(" (moved from {before})"))
            .unwrap_or_default();
        let malicious = if tag.malicious {
            ", a malicious image"
        } else {
            ""
        };
        let label = format!("tag {} points to {}{moved}{malicious}", tag.tag, tag.digest);
        let class = match (tag.moved_from.is_some(), tag.malicious) {
            (true, _) => "tag moved",
            (false, true) => "tag malicious",
            (false, false) => "tag",
        };
        let _ = write!(
            out,
            r#"<g class="{class}" role="img" aria-label="{}">"#,
            escape(&label)
        );
        let mark = if tag.moved_from.is_some() {
            " ⟲ moved"
        } else {
            ""
        };
        text(
            out,
            git_x + 18,
            top + 38 + 18 * index as i32,
            "held",
            &format!("{} → {}{mark}", shorten_start(&tag.tag, 26), tag.digest),
        );
        out.push_str("</g>");
    }
    out.push_str("</g>");
    top + height + GAP
}

/// One cluster with its agent and cards; the height it takes.
fn cluster_view(
    out: &mut String,
    cluster: &ClusterBox,
    top: i32,
    agent: bool,
    layout: &Layout,
) -> i32 {
    let (cluster_x, cluster_w) = layout.cluster;
    let per_row = layout.cards_per_row;
    let rows = (cluster.cards.len() as i32 + per_row - 1) / per_row;
    let rows = rows.max(1);
    // On a phone the agent sits under the cluster's name, not beside it.
    let cards_top = top + if agent && layout.stacked { 56 } else { 32 };
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
    if agent {
        let (x, y) = match layout.stacked {
            true => (cluster_x + 10, top + 28),
            false => (cluster_x + cluster_w - 150, top + 6),
        };
        let _ = write!(
            out,
            r#"<g class="agent" role="img" aria-label="the agent in {}, holding Git: read and cluster: write"><rect x="{x}" y="{y}" width="140" height="20" rx="10"/>"#,
            escape(&cluster.environment),
        );
        text(out, x + 10, y + 14, "held", "⟳ agent · Git: read");
        out.push_str("</g>");
    }
    for (index, card) in cluster.cards.iter().enumerate() {
        let (column, row) = (index as i32 % per_row, index as i32 / per_row);
        card_view(
            out,
            card,
            cluster_x + 10 + column * (CARD_W + GAP),
            cards_top + row * (CARD_H + GAP),
        );
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

fn card_view(out: &mut String, card: &Card, x: i32, y: i32) {
    let mut class = format!("object {}", card.sync.to_ascii_lowercase());
    for (on, name) in [
        (true, card.operation.unwrap_or("")),
        (card.next, "next"),
        (card.just_done.is_some(), "done"),
        (card.extra, "extra"),
        (card.gone, "gone"),
        (card.unmanaged, "unmanaged"),
    ] {
        if on && !name.is_empty() {
            class.push(' ');
            class.push_str(name);
        }
    }
    if let Some(done) = card.just_done {
        class.push_str(" done-");
        class.push_str(done);
    }
    let label = escape(&card.label());
    let _ = write!(
        out,
        r#"<g class="{class}" role="button" tabindex="0" data-key="{}" aria-label="{label}"><title>{label}</title><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5"/>"#,
        escape(&card.key)
    );
    let wave = if card.wave != 0 {
        format!(" · wave {}", card.wave)
    } else {
        String::new()
    };
    text(
        out,
        x + 8,
        y + 15,
        "kind",
        &shorten(&format!("{}{wave}", card.kind), 21),
    );
    if let Some(order) = card.order {
        // Its place in the sync's order, waves first.
        // On the card's corner, as a count badge, leaving its lines their width.
        let (cx, cy) = (x + CARD_W - 3, y + 3);
        let _ = write!(out, r#"<circle class="order" cx="{cx}" cy="{cy}" r="8"/>"#);
        text(out, cx, cy + 4, "order", &order.to_string());
    }
    text(out, x + 8, y + 31, "name", &shorten(&card.place(), 20));
    let health = card
        .health
        .map_or("—".to_string(), |health| health.to_string());
    text(
        out,
        x + 8,
        y + 47,
        "badges",
        &match card.unmanaged {
            true => "outside the app".to_string(),
            false => shorten(&format!("{} · {health}", card.sync), 21),
        },
    );
    let (shield, line, class) = match (card.operation, card.just_done) {
        (Some("skip"), _) => (
            true,
            card.protected.clone().unwrap_or_default(),
            "plan-line skip",
        ),
        (None, Some(done)) => (false, format!("✓ {}", done_as(done)), "plan-line done"),
        (Some(operation), _) if card.next => {
            (false, format!("next: {operation}"), "plan-line next")
        }
        (Some(operation), _) => (false, format!("plan: {operation}"), "plan-line"),
        (None, None) => match (&card.protected, card.ignored) {
            (Some(protection), _) => (true, protection.clone(), "plan-line"),
            (None, true) => (false, "some fields ignored".to_string(), "plan-line"),
            (None, false) if card.unmanaged => (false, "not managed".to_string(), "plan-line"),
            (None, false) => (false, String::new(), "plan-line"),
        },
    };
    let line_x = if shield {
        shield_view(out, x + 8, y + 54);
        x + 22
    } else {
        x + 8
    };
    if !line.is_empty() {
        let line = match shield {
            true => protection_words(&line, 17),
            false => shorten(&line, 19),
        };
        text(out, line_x, y + 64, class, &line);
    }
    if !card.fields.is_empty() {
        // What the update changes, or changed: lit up when Step applies it.
        let changed = if card.just_done.is_some() {
            "fields changed"
        } else {
            "fields"
        };
        text(
            out,
            x + 8,
            y + 80,
            changed,
            &shorten(&card.fields.join(", "), 19),
        );
    } else if card.extra {
        text(out, x + 8, y + 80, "plan-line", "not in Git");
    }
    out.push_str("</g>");
}

/// What protects an object, in the room of a card: the reason names its
/// annotation last (`…/prune: disabled`, `…/sync-options: Prune=false`), so
/// its last segment, or the setting alone.
fn protection_words(reason: &str, room: usize) -> String {
    let last = reason.rsplit('/').next().unwrap_or(reason);
    let setting = reason.rsplit(": ").next().unwrap_or(reason);
    match (
        last.chars().count() <= room,
        setting.chars().count() <= room,
    ) {
        (true, _) => last.to_string(),
        (false, true) => setting.to_string(),
        (false, false) => shorten(reason, room),
    }
}

/// What an operation reads as once applied.
fn done_as(operation: &str) -> &'static str {
    match operation {
        "create" => "created",
        "update" => "updated",
        _ => "deleted",
    }
}

/// A small shield: what protects an object from prune or from a write.
fn shield_view(out: &mut String, x: i32, y: i32) {
    let _ = write!(
        out,
        r#"<path class="shield" d="M{},{y} l5,2 v4 c0,3.5 -2.5,5.5 -5,6.5 c-2.5,-1 -5,-3 -5,-6.5 v-4 z"/>"#,
        x + 5
    );
}

fn arrow_view(out: &mut String, arrow: &Arrow, index: usize, boxes: &Boxes, layout: &Layout) {
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

fn text(out: &mut String, x: i32, y: i32, class: &str, content: &str) {
    let _ = write!(
        out,
        r#"<text x="{x}" y="{y}" class="{class}">{}</text>"#,
        escape(content)
    );
}

/// Text safe inside markup and its quoted attributes.
fn escape(text: &str) -> String {
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
fn shorten_start(text: &str, most: usize) -> String {
    let count = text.chars().count();
    match text.char_indices().nth(count.saturating_sub(most)) {
        Some((start, _)) if start > 0 => format!("…{}", &text[start..]),
        _ => text.to_string(),
    }
}

/// At most `most` characters, with an ellipsis when cut.
fn shorten(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
