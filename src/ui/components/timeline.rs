//! The world over time: its events by step, the Git log (with a revert
//! button per commit), pull requests, the registry and what runs.
//!
//! Each part is a small component in `timeline/`; this file holds the
//! props, the layout and what the parts share.

mod agent;
mod events;
mod log;
mod pulls;
mod registry;

use gitops_world::event::Event as WorldEvent;
use gitops_world::summary::History;
use std::rc::Rc;
use yew::prelude::*;

pub struct TimelineProps {
    pub events: Rc<Vec<WorldEvent>>,
    pub history: Rc<History>,
    /// Whether step 0 has run.
    pub started: bool,
    /// A person asks to revert a commit (its id).
    pub on_revert: Callback<String>,
    /// The reviewer approves a pull request (its number).
    pub on_approve: Callback<u32>,
    /// A person merges a pull request (its number).
    pub on_merge: Callback<u32>,
}

/// The world over time, in six regions. A function of its props rather than a
/// component (whose machinery costs the first visit more than drawing these again
/// does): its event list and Git log are components that skip a redraw when their
/// lists did not change.
pub fn timeline(props: &TimelineProps) -> Html {
    let history = &props.history;
    html! {
        <div class="timeline">
            <events::EventList events={props.events.clone()} started={props.started} />
            <log::GitLog history={history.clone()} on_revert={props.on_revert.clone()} />
            { pulls::pull_requests(&pulls::PullRequestsProps { history: history.clone(), on_approve: props.on_approve.clone(), on_merge: props.on_merge.clone() }) }
            { registry::registry_view(&HistoryProps { history: history.clone() }) }
            { registry::running_view(&HistoryProps { history: history.clone() }) }
            { agent::agent_view(&HistoryProps { history: history.clone() }) }
        </div>
    }
}

/// Props of the parts that show the history.
#[derive(Properties)]
pub struct HistoryProps {
    pub history: Rc<History>,
}

impl PartialEq for HistoryProps {
    fn eq(&self, other: &Self) -> bool {
        same(&self.history, &other.history)
    }
}

/// The same history: the same allocation. The page makes one each time the world
/// changes; comparing two by content would read every commit's files (and add its
/// code to the page's module) to spare drawing these lists again.
pub(super) fn same(a: &Rc<History>, b: &Rc<History>) -> bool {
    Rc::ptr_eq(a, b)
}

/// A `<section>` named by its `<h3>`, whose id is `timeline-<name>-title`
/// (the page has one timeline), its class `timeline-<name>`.
fn region(title: &str, name: &str, children: Html) -> Html {
    let id = format!("timeline-{name}-title");
    html! {
        <section class={classes!("timeline-section", format!("timeline-{name}"))} aria-labelledby={id.clone()}>
            <h3 {id}>{ title }</h3>
            { children }
        </section>
    }
}

/// A visible word for what is wrong with an image: the text says it, the
/// colour only adds to it.
fn flags(malicious: bool, crashes: bool) -> Html {
    html! {
        <>
            if malicious {
                { " " }<strong class="timeline-flag timeline-flag-malicious">{ "malicious" }</strong>
            }
            if crashes {
                { " " }<strong class="timeline-flag timeline-flag-crashes">{ "crashes" }</strong>
            }
        </>
    }
}

/// A commit id as people read it: its first 7 characters.
fn short_id(id: &str) -> &str {
    id.get(..7).unwrap_or(id)
}
