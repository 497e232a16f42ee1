//! Pull requests: hidden while there are none.

use super::{Region, SummaryProps};
use crate::world::repository::{PullRequest, PullRequestStatus};
use yew::prelude::*;

#[function_component(PullRequests)]
pub fn pull_requests(props: &SummaryProps) -> Html {
    let pulls = &props.summary.repository.pull_requests;
    if pulls.is_empty() {
        return Html::default();
    }
    html! {
        <Region title="Pull requests" name="pulls">
            <ul class="timeline-pulls">
                { for pulls.iter().map(pull_request) }
            </ul>
        </Region>
    }
}

fn pull_request(pull: &PullRequest) -> Html {
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
        <li class="timeline-pull" key={pull.number}>
            <span class="timeline-pull-number">{ format!("#{}", pull.number) }</span>
            { " " }
            <span class="timeline-pull-title">{ &pull.title }</span>
            { " " }
            <span class="timeline-why">{ format!("by {} at step {}", pull.author, pull.step) }</span>
            { " " }
            <span class={classes!("timeline-pull-status", status)}>{ status }</span>
            { " " }
            <span class="timeline-pull-approvals">{ approvals }</span>
            if let Some(commit) = &pull.merged_as {
                { " " }
                <span class="timeline-why">{ format!("as {commit}") }</span>
            }
        </li>
    }
}
