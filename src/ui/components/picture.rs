//! The picture of the world as one SVG: actors and what they hold on the
//! left, the state repository and the registry in the middle, each
//! environment's cluster with its agent and cards on the right, and this
//! step's acts as arrows between them. The layout is fixed (the topology is
//! known, so positions are arithmetic), and the SVG is written as markup:
//! it is redrawn whole when the world changes, and a card's click or key
//! reaches one listener on the frame, which reads the card's `data-key`.

use gitops_page::{Arrow, Card, ClusterBox, Picture, YOU};
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
    let markup = use_memo(props.picture.clone(), |picture| {
        AttrValue::from(svg(picture))
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

const WIDTH: i32 = 1160;
const ACTOR_X: i32 = 8;
const ACTOR_W: i32 = 196;
const GIT_X: i32 = 270;
const GIT_W: i32 = 350;
const CLUSTER_X: i32 = 690;
const CLUSTER_W: i32 = WIDTH - CLUSTER_X - 8;
const CARD_W: i32 = 146;
const CARD_H: i32 = 58;
const GAP: i32 = 8;
const CARDS_PER_ROW: i32 = 3;
const LINE: i32 = 16;
const MOST_PULL_REQUESTS: usize = 4;
const MOST_TAGS: usize = 6;

/// Where each box is, for the arrows: its name, top and height.
#[derive(Default)]
struct Boxes {
    actors: Vec<(String, i32, i32)>,
    git: i32,
    registry: i32,
    clusters: Vec<(String, i32)>,
}

/// The picture as SVG markup.
pub fn svg(picture: &Picture) -> String {
    let mut out = String::new();
    let mut boxes = Boxes::default();
    let mut body = String::new();
    let left = actors(&mut body, picture, &mut boxes);
    let middle = repository(&mut body, picture, &mut boxes);
    let mut top = 28;
    for cluster in &picture.clusters {
        boxes.clusters.push((cluster.environment.clone(), top));
        top += cluster_view(&mut body, cluster, top, picture.agent) + 2 * GAP;
    }
    for (index, arrow) in picture.arrows.iter().enumerate() {
        arrow_view(&mut body, arrow, index, &boxes);
    }
    let height = left.max(middle).max(top) + GAP;
    let _ = write!(
        out,
        r#"<svg class="picture" viewBox="0 0 {WIDTH} {height}" role="group" aria-label="The world at {}"><defs><marker id="arrow-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs><text x="{ACTOR_X}" y="16" class="column">Who acts, and what they hold</text><text x="{GIT_X}" y="16" class="column">What they change</text><text x="{CLUSTER_X}" y="16" class="column">Clusters</text>{body}</svg>"#,
        escape(&picture.step)
    );
    out
}

/// The actors, stacked; the height they take.
fn actors(out: &mut String, picture: &Picture, boxes: &mut Boxes) -> i32 {
    let mut y = 28;
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
            r#"<g class="actor" role="img" aria-label="{name} holds {holds}"><rect x="{ACTOR_X}" y="{y}" width="{ACTOR_W}" height="{height}" rx="6"/>"#,
            name = escape(name),
            holds = escape(&holds),
        );
        text(out, ACTOR_X + 10, y + 18, "name", name);
        for (index, held) in actor.holds.iter().enumerate() {
            text(
                out,
                ACTOR_X + 18,
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
fn repository(out: &mut String, picture: &Picture, boxes: &mut Boxes) -> i32 {
    let top = 28;
    let pull_requests = picture.pull_requests.len().min(MOST_PULL_REQUESTS) as i32;
    let height = 34 + 30 * picture.branches.len() as i32 + 18 * pull_requests;
    boxes.git = top;
    let _ = write!(
        out,
        r#"<g class="git" role="group" aria-label="Git: the state repository"><rect x="{GIT_X}" y="{top}" width="{GIT_W}" height="{height}" rx="6"/>"#
    );
    text(out, GIT_X + 10, top + 18, "name", "Git: state repository");
    for (lane, branch) in picture.branches.iter().enumerate() {
        let y = top + 42 + 30 * lane as i32;
        out.push_str(r#"<g class="branch">"#);
        text(out, GIT_X + 10, y + 4, "held", &branch.name);
        let _ = write!(
            out,
            r#"<line x1="{}" x2="{}" y1="{y}" y2="{y}"/>"#,
            GIT_X + 80,
            GIT_X + GIT_W - 16
        );
        for (index, commit) in branch.commits.iter().enumerate() {
            let x = GIT_X + 92 + 44 * index as i32;
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
            GIT_X + 10,
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
        r#"<g class="registry" role="group" aria-label="The image registry"><rect x="{GIT_X}" y="{top}" width="{GIT_W}" height="{height}" rx="6"/>"#
    );
    text(out, GIT_X + 10, top + 18, "name", "Registry");
    if picture.tags.is_empty() {
        text(
            out,
            GIT_X + 18,
            top + 38,
            "held",
            "every image the scenario names",
        );
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
            GIT_X + 18,
            top + 38 + 18 * index as i32,
            "held",
            &format!("{} → {}{mark}", shorten(&tag.tag, 30), tag.digest),
        );
        out.push_str("</g>");
    }
    out.push_str("</g>");
    top + height + GAP
}

/// One cluster with its agent and cards; the height it takes.
fn cluster_view(out: &mut String, cluster: &ClusterBox, top: i32, agent: bool) -> i32 {
    let rows = (cluster.cards.len() as i32 + CARDS_PER_ROW - 1) / CARDS_PER_ROW;
    let rows = rows.max(1);
    let height = 34 + rows * (CARD_H + GAP) + if cluster.more > 0 { LINE } else { 0 };
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
        r#"<g class="cluster{current}" role="group" aria-label="{title}"><rect x="{CLUSTER_X}" y="{top}" width="{CLUSTER_W}" height="{height}" rx="8"/>"#,
        title = escape(&title)
    );
    text(out, CLUSTER_X + 10, top + 19, "name", &title);
    if agent {
        let x = CLUSTER_X + CLUSTER_W - 150;
        let _ = write!(
            out,
            r#"<g class="agent" role="img" aria-label="the agent in {}, holding Git: read and cluster: write"><rect x="{x}" y="{}" width="140" height="20" rx="10"/>"#,
            escape(&cluster.environment),
            top + 6
        );
        text(out, x + 10, top + 20, "held", "⟳ agent · Git: read");
        out.push_str("</g>");
    }
    for (index, card) in cluster.cards.iter().enumerate() {
        let (column, row) = (index as i32 % CARDS_PER_ROW, index as i32 / CARDS_PER_ROW);
        card_view(
            out,
            card,
            CLUSTER_X + 10 + column * (CARD_W + GAP),
            top + 32 + row * (CARD_H + GAP),
        );
    }
    if cluster.more > 0 {
        text(
            out,
            CLUSTER_X + 10,
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
        (card.just_done, "done"),
        (card.extra, "extra"),
    ] {
        if on && !name.is_empty() {
            class.push(' ');
            class.push_str(name);
        }
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
        &format!("{}{wave}", shorten(&card.kind, 14)),
    );
    text(out, x + 8, y + 31, "name", &shorten(&card.place(), 20));
    let health = card
        .health
        .map_or("—".to_string(), |health| health.to_string());
    let marks: Vec<&str> = [
        card.protected.is_some().then_some("protected"),
        card.ignored.then_some("ignores fields"),
        card.extra.then_some("not in Git"),
    ]
    .into_iter()
    .flatten()
    .collect();
    text(
        out,
        x + 8,
        y + 49,
        "badges",
        &format!("{} · {health} {}", card.sync, marks.join(" ")),
    );
    out.push_str("</g>");
}

fn arrow_view(out: &mut String, arrow: &Arrow, index: usize, boxes: &Boxes) {
    let offset = 10 * (index as i32 % 5);
    let target = match &arrow.place {
        Place::Git => Some((GIT_X, boxes.git + 22 + offset)),
        Place::Registry => Some((GIT_X, boxes.registry + 14 + offset)),
        Place::Cluster(environment) => boxes
            .clusters
            .iter()
            .find(|(name, _)| name == environment)
            .map(|(_, top)| (CLUSTER_X, top + 14 + offset)),
    };
    let from = match boxes.actors.iter().find(|(name, ..)| *name == arrow.actor) {
        Some((_, top, height)) => target.map(|to| ((ACTOR_X + ACTOR_W, top + height / 2), to)),
        // The agent acts from inside its cluster: its reads of Git are drawn back to the repository.
        None if arrow.actor == "agent" && arrow.place == Place::Git => {
            boxes.clusters.first().map(|(_, top)| {
                (
                    (CLUSTER_X, top + 16 + offset),
                    (GIT_X + GIT_W, boxes.git + 30 + offset),
                )
            })
        }
        None => None,
    };
    let Some(((from_x, from_y), (to_x, to_y))) = from else {
        return;
    };
    let middle = (from_x + to_x) / 2;
    let class = if arrow.refused {
        "arrow refused"
    } else {
        "arrow"
    };
    let label = escape(&arrow.label());
    let badge_y = (from_y + to_y) / 2;
    let _ = write!(
        out,
        r#"<g class="{class}" role="img" aria-label="{label}"><title>{label}</title><path d="M{from_x},{from_y} C{middle},{from_y} {middle},{to_y} {to_x},{to_y}" marker-end="url(#arrow-head)"/><circle cx="{middle}" cy="{badge_y}" r="9"/>"#
    );
    // The badge is its event's number in the list beside the picture; a refusal is a cross.
    let mark = match arrow.refused {
        true => "✕".to_string(),
        false => arrow.number.to_string(),
    };
    text(out, middle, badge_y + 4, "number", &mark);
    out.push_str("</g>");
}

/// The events of the step on screen, as a section of markup.
pub fn step_events(world: &gitops_world::World) -> String {
    let step = world.step;
    let mut out = format!(
        r#"<section class="step-events" aria-labelledby="step-events-title"><h2 id="step-events-title">At step {step}</h2>"#
    );
    let mut events = world
        .events
        .iter()
        .filter(|event| event.step == step)
        .peekable();
    if events.peek().is_none() {
        out.push_str(r#"<p class="quiet">Nothing happened yet at this step.</p>"#);
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

/// At most `most` characters, with an ellipsis when cut.
fn shorten(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
