//! The timeline component mounted in headless Chromium: its named regions, what
//! takes focus, and its list of events, by step, scrolled to the newest.

#![cfg(target_arch = "wasm32")]

use gitops_playground::ui::components::{timeline, TimelineProps};
use gitops_world::event::Event as WorldEvent;
use gitops_world::scenario::Scenario;
use gitops_world::summary::History;
use gitops_world::World;
use std::rc::Rc;
use wasm_bindgen_test::*;

mod common;

use common::dom::{all, rendered, texts};
use common::timeline::{button, mount, mount_world, region, world, ROLLBACK};
use web_sys::Element;
use yew::prelude::*;

fn classes(element: &Element) -> Vec<String> {
    element
        .get_attribute("class")
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[wasm_bindgen_test]
async fn every_part_is_a_named_region() {
    let root = mount_world(&world(ROLLBACK));
    rendered().await;
    for name in ["Events", "Git log", "Registry", "Running", "Agent"] {
        assert!(region(&root, name).is_some(), "no region {name}");
    }
    assert!(
        region(&root, "Pull requests").is_none(),
        "hidden without pull requests"
    );
}

#[wasm_bindgen_test]
async fn what_takes_focus_has_a_name() {
    let root = mount_world(&world(ROLLBACK));
    rendered().await;
    let unnamed: Vec<String> = all(&root, "[tabindex]")
        .iter()
        .filter(|element| element.get_attribute("tabindex").as_deref() != Some("-1"))
        .filter(|element| {
            !element.has_attribute("aria-label") && !element.has_attribute("aria-labelledby")
        })
        .map(|element| element.tag_name())
        .collect();
    assert!(unnamed.is_empty(), "unnamed: {unnamed:?}");
    let events = all(&root, ".timeline-steps").remove(0);
    assert_eq!(
        events.get_attribute("aria-label").as_deref(),
        Some("Events")
    );
}

#[wasm_bindgen_test]
async fn events_are_grouped_by_step_with_their_actors() {
    let world = world(ROLLBACK);
    let root = mount_world(&world);
    rendered().await;
    let events = region(&root, "Events").unwrap();
    let steps = all(&events, ".timeline-step");
    let headings: Vec<String> = steps
        .iter()
        .map(|step| texts(step, "h4").concat())
        .collect();
    assert_eq!(
        headings,
        ["Minute 0", "Minute 2", "Minute 3", "Minute 5", "Minute 6", "Minute 7"]
    );
    let actors: Vec<Vec<String>> = steps
        .iter()
        .map(|step| texts(step, ".timeline-actor"))
        .collect();
    assert_eq!(actors[0], ["agent", "agent", "kubelet"]);
    assert_eq!(actors[1], ["bob"]);
    assert_eq!(actors[4], ["alice"]);
    assert_eq!(actors.concat().len(), world.events.len());
    let first = &all(&steps[1], ".timeline-event")[0];
    assert_eq!(
        texts(first, ".timeline-what"),
        [world.events[3].what.clone()]
    );
    assert_eq!(texts(first, ".timeline-why"), ["writes envs/prod/web.yaml"]);
    let bob = all(&steps[1], ".timeline-actor").remove(0);
    assert!(classes(&bob).contains(&"timeline-actor-person".to_string()));
    let agent = all(&steps[0], ".timeline-actor").remove(0);
    assert!(classes(&agent).contains(&"timeline-actor-agent".to_string()));
}

#[derive(Properties, PartialEq)]
struct GrowingProps {
    events: Rc<Vec<WorldEvent>>,
    history: Rc<History>,
}

/// The timeline with the first few events, then all of them on "More".
#[function_component(Growing)]
fn growing(props: &GrowingProps) -> Html {
    let all = use_state(|| false);
    let events = if *all {
        props.events.clone()
    } else {
        Rc::new(props.events[..3].to_vec())
    };
    let more = {
        let all = all.clone();
        Callback::from(move |_: MouseEvent| all.set(true))
    };
    html! {
        <>
            <button onclick={more}>{ "More" }</button>
            { timeline(&TimelineProps { events, history: props.history.clone(), started: true, on_revert: Callback::noop(), on_approve: Callback::noop(), on_merge: Callback::noop() }) }
        </>
    }
}

#[wasm_bindgen_test]
async fn the_events_scroll_to_the_newest() {
    let document = gloo::utils::document();
    let style = document.create_element("style").unwrap();
    style.set_text_content(Some(
        ".timeline-steps { max-height: 60px; overflow-y: auto; }",
    ));
    let root = document.create_element("div").unwrap();
    root.append_child(&style).unwrap();
    let mount = document.create_element("div").unwrap();
    root.append_child(&mount).unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let world = world(ROLLBACK);
    let props = GrowingProps {
        events: Rc::new(world.events.clone()),
        history: Rc::new(world.history()),
    };
    yew::Renderer::<Growing>::with_root_and_props(mount, props).render();
    rendered().await;
    button(&root, "More").unwrap().click();
    rendered().await;
    let list = all(&root, ".timeline-steps").remove(0);
    assert!(list.scroll_height() > list.client_height(), "it overflows");
    assert!(
        list.scroll_top() + list.client_height() >= list.scroll_height() - 1,
        "scrolled to the end: top {} of {}",
        list.scroll_top(),
        list.scroll_height()
    );
}

#[wasm_bindgen_test]
async fn before_the_start_nothing_has_happened() {
    let scenario = Scenario::parse("x", ROLLBACK).unwrap();
    let world = World::new(&scenario);
    let root = mount(Vec::new(), world.history(), false);
    rendered().await;
    let events = region(&root, "Events").unwrap();
    assert_eq!(
        texts(&events, "p"),
        ["Nothing has happened yet: advance time to run the world."]
    );
    assert!(all(&events, ".timeline-step").is_empty());
}

#[wasm_bindgen_test]
async fn names_between_backticks_in_events_and_errors_show_as_code_and_stay_text() {
    let world = world(ROLLBACK);
    let mut history = world.history();
    let agent = history.agent.as_mut().expect("an agent");
    agent.last_error = Some("prod: envs/prod/web.yaml needs `metadata.name`".into());
    let events = vec![WorldEvent::new(
        1,
        "agent",
        "prod: cannot use revision abc: envs/prod/web.yaml needs `metadata.name`",
    )
    .because("a name `<img src=x onerror=alert(1)>` and a lone ` backtick")];
    let root = mount(events, history, true);
    rendered().await;
    let events = region(&root, "Events").unwrap();
    assert_eq!(texts(&events, ".timeline-what code"), ["metadata.name"]);
    assert_eq!(
        texts(&events, ".timeline-what"),
        ["prod: cannot use revision abc: envs/prod/web.yaml needs metadata.name"]
    );
    assert_eq!(
        texts(&events, ".timeline-why code"),
        ["<img src=x onerror=alert(1)>"]
    );
    assert_eq!(
        texts(&events, ".timeline-why"),
        ["a name <img src=x onerror=alert(1)> and a lone ` backtick"],
        "a backtick without a pair stays"
    );
    assert!(all(&root, "img").is_empty(), "markup in a name stays text");
    let agent = region(&root, "Agent").unwrap();
    assert_eq!(
        texts(&agent, ".timeline-agent-error code"),
        ["metadata.name"]
    );
    assert_eq!(
        texts(&agent, ".timeline-agent-error"),
        ["Last error: prod: envs/prod/web.yaml needs metadata.name"]
    );
}
