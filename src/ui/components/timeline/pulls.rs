//! Pull requests: hidden while there are none.

use super::region;
use gitops_world::person::REVIEWER;
use gitops_world::repository::{PullRequest, PullRequestStatus};
use gitops_world::summary::History;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties)]
pub struct PullRequestsProps {
    pub history: Rc<History>,
    pub on_approve: Callback<u32>,
    pub on_merge: Callback<u32>,
}

impl PartialEq for PullRequestsProps {
    fn eq(&self, other: &Self) -> bool {
        super::same(&self.history, &other.history)
            && self.on_approve == other.on_approve
            && self.on_merge == other.on_merge
    }
}

pub fn pull_requests(props: &PullRequestsProps) -> Html {
    let pulls = &props.history.repository.pull_requests;
    if pulls.is_empty() {
        return Html::default();
    }
    html! {
        { region("Pull requests", "pulls", html! { <>
            <ul class="timeline-pulls">
                { for pulls.iter().map(|pull| pull_request(pull, &props.on_approve, &props.on_merge)) }
            </ul>
        </> }) }
    }
}

fn pull_request(pull: &PullRequest, on_approve: &Callback<u32>, on_merge: &Callback<u32>) -> Html {
    let number = pull.number;
    let open = pull.status == PullRequestStatus::Open;
    let approve = on_approve.reform(move |_: MouseEvent| number);
    // Merging takes the button away: focus moves first to the pull request, which stays
    // and then says merged.
    let merge = on_merge.reform(move |event: MouseEvent| {
        let pull = event.target_dyn_into::<web_sys::Element>().and_then(|button| button.closest("li").ok().flatten());
        if let Some(pull) = pull.and_then(|pull| pull.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = pull.focus();
        }
        number
    });
    let status = match pull.status {
        PullRequestStatus::Open => "open",
        PullRequestStatus::Merged => "merged",
    };
    let approvals = if pull.approvals.is_empty() {
        "no approvals".to_string()
    } else {
        format!("approved by {}", pull.approvals.join(", "))
    };
    html! {
        <li class="timeline-pull" key={pull.number} id={pull_id(number)} tabindex="-1">
            <span class="timeline-pull-number">{ format!("#{}", pull.number) }</span>
            { " " }
            <span class="timeline-pull-title">{ &pull.title }</span>
            { " " }
            <span class="timeline-why">{ format!("by {} at minute {}", pull.author, pull.step) }</span>
            { " " }
            <span class={classes!("timeline-pull-status", status)}>{ status }</span>
            { " " }
            <span class="timeline-pull-approvals">{ approvals }</span>
            if let Some(commit) = &pull.merged_as {
                { " " }
                <span class="timeline-why">{ format!("as {commit}") }</span>
            }
            if open {
                { " " }
                <button type="button" onclick={approve}>{ format!("Approve #{number} as {REVIEWER}") }</button>
                { " " }
                <button type="button" onclick={merge}>{ format!("Merge #{number}") }</button>
            }
        </li>
    }
}

fn pull_id(number: u32) -> String {
    format!("pull-request-{number}")
}
