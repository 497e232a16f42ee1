//! The picture of the world as one SVG: actors and what they hold on the
//! left, the state repository and the registry in the middle, each
//! environment's cluster with its agent and cards on the right, and this
//! step's acts as arrows between them. The layout is fixed (the topology is
//! known, so positions are arithmetic), and the SVG is written as markup:
//! it is redrawn whole when the world changes, and a card's click or key
//! reaches one listener on the frame, which reads the card's `data-key`.

mod actors;
mod arrow;
mod card;
mod cluster;
mod markup;
mod repository;
mod step_events;

pub use step_events::step_events;

use actors::actors;
use arrow::arrow_view;
use cluster::cluster_view;
use gitops_page::Picture;
use markup::{escape, text};
use repository::repository;
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

const GAP: i32 = 8;
const LINE: i32 = 16;

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
    /// Each cluster's agent badge: its environment, left and top.
    agents: Vec<(String, i32, i32)>,
    /// Each card drawn: its environment, key, left and top.
    cards: Vec<(String, String, i32, i32)>,
}

impl Boxes {
    fn cluster_top(&self, environment: &str) -> Option<i32> {
        let (_, top) = self.clusters.iter().find(|(name, _)| name == environment)?;
        Some(*top)
    }

    fn agent_of(&self, environment: &str) -> Option<(i32, i32)> {
        let (_, x, y) = self.agents.iter().find(|(name, ..)| name == environment)?;
        Some((*x, *y))
    }

    fn card_of(&self, environment: &str, key: &str) -> Option<(i32, i32)> {
        let (.., x, y) = self
            .cards
            .iter()
            .find(|(name, card, ..)| name == environment && card == key)?;
        Some((*x, *y))
    }
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
        top += cluster_view(&mut body, cluster, top, picture.agent.as_ref(), layout, &mut boxes) + 2 * GAP;
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
