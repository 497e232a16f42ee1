//! The reconciler's own state: whether it runs and reads Git, its health and
//! last error, and for each environment the head of Git and the revision it
//! last synced, with a sync in progress, retrying or failed (and why), and
//! self-heal backing off. "I merged but nothing happened" is answered here.

use super::{HistoryProps, region};
use crate::ui::components::code_spans::code_spans;
use gitops_world::agent::{Agent, AgentHealth, Application};
use gitops_world::summary::History;
use yew::prelude::*;

pub fn agent_view(props: &HistoryProps) -> Html {
    html! {
        { region("Agent", "agent", html! { <>
            { match &props.history.agent {
                Some(agent) => describe(agent, &props.history),
                None => html! { <p class="empty">{ "No agent: in push mode CI deploys." }</p> },
            } }
        </> }) }
    }
}

fn describe(agent: &Agent, history: &History) -> Html {
    let health = match agent.health {
        AgentHealth::Healthy => "Healthy",
        AgentHealth::Degraded => "Degraded",
    };
    let state = match (agent.running, agent.has_access) {
        (false, _) => "stopped",
        (true, false) => "running, without read access to Git",
        (true, true) => "running",
    };
    html! {
        <>
            <p class="timeline-agent-health">
                { "Health: " }
                if agent.health == AgentHealth::Degraded {
                    <strong class="timeline-flag timeline-flag-malicious">{ health }</strong>
                } else {
                    { health }
                }
                { format!("; {state}") }
            </p>
            if let Some(error) = &agent.last_error {
                <p class="timeline-agent-error">{ "Last error: " }{ code_spans(error) }</p>
            }
            <table class="timeline-table">
                <thead><tr>
                    <th scope="col">{ "Environment" }</th>
                    <th scope="col">{ "Git head" }</th>
                    <th scope="col">{ "Synced" }</th>
                </tr></thead>
                <tbody>{ for agent.applications.iter().map(|(environment, application)| {
                    let head = history.heads.get(environment).cloned();
                    row(environment, head, application)
                }) }</tbody>
            </table>
        </>
    }
}

fn row(environment: &str, head: Option<String>, application: &Application) -> Html {
    let revision = |revision: &Option<String>| revision.clone().unwrap_or_else(|| "none".into());
    html! {
        <tr key={environment.to_string()}>
            <td>{ environment }</td>
            <td><code>{ revision(&head) }</code></td>
            <td>
                <code>{ revision(&application.synced_revision) }</code>
                if application.syncing { { " (syncing wave by wave)" } }
                if let Some(retry) = &application.retry {
                    { format!(" ({retry} at minute {}: ", retry.at) }{ code_spans(&retry.message) }{ ")" }
                }
                if let Some(failed) = &application.failed_revision {
                    { " (the sync to " }<code>{ failed }</code>{ " failed" }
                    if let Some(error) = &application.sync_error {
                        { ": " }{ code_spans(error) }
                    }
                    { ")" }
                }
                if let Some(at) = application.self_heal_at {
                    { format!(" (self-heal backs off until step {at})") }
                }
            </td>
        </tr>
    }
}
