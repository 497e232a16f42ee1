//! The events, grouped by step, newest step last.

use super::region;
use crate::ui::components::code_spans::code_spans;
use gitops_world::event::Event as WorldEvent;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct EventListProps {
    /// One list a world: the same allocation is the same events.
    pub events: Rc<Vec<WorldEvent>>,
    pub started: bool,
}

impl PartialEq for EventListProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.events, &other.events) && self.started == other.started
    }
}

/// Every event by step; the list scrolls to its end when events arrive.
#[function_component(EventList)]
pub fn event_list(props: &EventListProps) -> Html {
    let list = use_node_ref();
    {
        let list = list.clone();
        use_effect_with(props.events.len(), move |_| {
            if let Some(element) = list.cast::<web_sys::Element>() {
                element.set_scroll_top(element.scroll_height());
            }
        });
    }
    let body = if props.events.is_empty() {
        let text = if props.started {
            "Nothing has happened."
        } else {
            "Nothing has happened yet: advance time to run the world."
        };
        html! { <p class="empty">{ text }</p> }
    } else {
        html! {
            // Focusable so that keyboard users can scroll it.
            <ol class="timeline-steps" ref={list} tabindex="0" aria-label="Events">
                { for by_step(&props.events).into_iter().map(step_group) }
            </ol>
        }
    };
    html! {
        { region("Events", "events", html! { <>{ body }</> }) }
    }
}

/// Consecutive events of one step, in the order they happened.
fn by_step(events: &[WorldEvent]) -> Vec<&[WorldEvent]> {
    events
        .chunk_by(|before, after| before.step == after.step)
        .collect()
}

fn step_group(events: &[WorldEvent]) -> Html {
    let step = events.first().map(|event| event.step).unwrap_or_default();
    html! {
        <li class="timeline-step" key={step}>
            <h4>{ format!("Minute {step}") }</h4>
            <ul class="timeline-step-events">
                { for events.iter().map(event_item) }
            </ul>
        </li>
    }
}

fn event_item(event: &WorldEvent) -> Html {
    html! {
        <li class="timeline-event">
            <span class={classes!("timeline-actor", actor_class(&event.actor))}>{ &event.actor }</span>
            { " " }
            <span class="timeline-what">{ code_spans(&event.what) }</span>
            if !event.why.is_empty() {
                { " " }
                <span class="timeline-why">{ code_spans(&event.why) }</span>
            }
        </li>
    }
}

/// Common actors get their own subtle colour; people are neutral.
fn actor_class(actor: &str) -> &'static str {
    match actor {
        "agent" => "timeline-actor-agent",
        "ci" => "timeline-actor-ci",
        "kubelet" => "timeline-actor-kubelet",
        "alert" => "timeline-actor-alert",
        "git" => "timeline-actor-git",
        "attacker" => "timeline-actor-attacker",
        "autoscaler" => "timeline-actor-controller",
        _ => "timeline-actor-person",
    }
}
