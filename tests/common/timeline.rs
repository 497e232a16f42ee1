//! The timeline mounted for a test, over a world run from a preset or from the
//! events and history a test gives it, and the regions and buttons its tests read.

use super::dom::all;
use gitops_playground::ui::components::{timeline, TimelineProps};
use gitops_world::event::Event as WorldEvent;
use gitops_world::scenario::Scenario;
use gitops_world::summary::History;
use gitops_world::World;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

pub const ROLLBACK: &str = include_str!("../../static/presets/rollback-by-revert.yaml");

pub fn world(preset: &str) -> World {
    let scenario = Scenario::parse("x", preset).unwrap();
    World::run(&scenario)
}

#[derive(Properties, PartialEq)]
struct HarnessProps {
    events: Rc<Vec<WorldEvent>>,
    history: Rc<History>,
    started: bool,
}

/// The timeline, with the last commit it was asked to revert shown beside it.
#[function_component(Harness)]
fn harness(props: &HarnessProps) -> Html {
    let reverted = use_state(String::new);
    let on_revert = {
        let reverted = reverted.clone();
        Callback::from(move |id: String| reverted.set(id))
    };
    html! {
        <>
            { timeline(&TimelineProps {
                events: props.events.clone(),
                history: props.history.clone(),
                started: props.started,
                on_revert,
                on_approve: Callback::noop(),
                on_merge: Callback::noop(),
            }) }
            <output class="reverted">{ (*reverted).clone() }</output>
        </>
    }
}

pub fn mount(events: Vec<WorldEvent>, history: History, started: bool) -> Element {
    let document = gloo::utils::document();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let props = HarnessProps {
        events: Rc::new(events),
        history: Rc::new(history),
        started,
    };
    yew::Renderer::<Harness>::with_root_and_props(root.clone(), props).render();
    root
}

pub fn mount_world(world: &World) -> Element {
    mount(world.events.clone(), world.history(), world.started)
}

/// The region named `name`: a section labelled by its heading.
pub fn region(root: &Element, name: &str) -> Option<Element> {
    all(root, "section[aria-labelledby]")
        .into_iter()
        .find(|section| {
            let id = section.get_attribute("aria-labelledby").unwrap();
            section
                .query_selector(&format!("#{id}"))
                .unwrap()
                .and_then(|heading| heading.text_content())
                .as_deref()
                == Some(name)
        })
}

/// The button whose accessible name (its text) is `name`.
pub fn button(root: &Element, name: &str) -> Option<HtmlElement> {
    all(root, "button")
        .into_iter()
        .find(|button| button.text_content().as_deref() == Some(name))
        .map(JsCast::unchecked_into)
}
