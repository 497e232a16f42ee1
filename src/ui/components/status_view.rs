use super::code_spans::code_spans;
use super::plan_view::change_list;
use super::status_icons::{health_icon, icon_markup, sync_icon};
use gitops_core::{Report, SyncStatus};
use gitops_world::agent::flux::Kustomization;
use yew::prelude::*;

/// Sync status and health side by side, then every difference; under Flux's
/// agent, its Kustomizations' names and statuses; what the agent does not read
/// of Desired (`Model::agent_notes`).
pub fn status_view(report: &Report, kustomizations: &[(String, Kustomization)], agent_notes: &[String]) -> Html {
    let sync = match report.status.sync {
        SyncStatus::Synced => "Synced",
        SyncStatus::OutOfSync => "OutOfSync",
        SyncStatus::Unknown => "Unknown",
    };
    let health = report.status.health.to_string();
    let drift = &report.drift;
    let group = |title: &'static str, keys: &Vec<String>| {
        html! {
            <div class="drift-group">
                <dt>{ title }</dt>
                if keys.is_empty() {
                    <dd class="none">{ "none" }</dd>
                } else {
                    { for keys.iter().map(|key| html! {
                        <dd>
                            <code>{ key }</code>
                            if let Some(changes) = drift.changes.get(key) {
                                { change_list(changes) }
                            }
                        </dd>
                    }) }
                }
            </div>
        }
    };
    html! {
        <section class="status" aria-labelledby="status-title">
            <h2 id="status-title">{ "Status" }</h2>
            <div class="badges" role="status">
                <p class={classes!("badge", "sync", sync.to_ascii_lowercase())}>{ icon(sync_icon(sync, false)) }{ "Sync: " }<strong>{ sync }</strong></p>
                <p class={classes!("badge", "health", health.to_ascii_lowercase())}>{ icon(health_icon(report.status.health)) }{ "Health: " }<strong>{ health }</strong></p>
            </div>
            { for kustomizations.iter().map(|(name, status)| kustomization_view(name, status)) }
            { for agent_notes.iter().map(|note| html! { <p class="agent-note" role="status">{ code_spans(note) }</p> }) }
            <h3>{ "Drift" }</h3>
            <dl class="drift">
                { group("Missing", &drift.missing) }
                { group("Changed", &drift.changed) }
                { group("Extra", &drift.extra) }
            </dl>
            if !drift.unmanaged.is_empty() {
                <h3>{ "Not managed by the agent" }</h3>
                <p class="unmanaged-note">{ "Without the agent's tracking id (made by hand, or by Kubernetes): neither drift nor pruned." }</p>
                <ul class="unmanaged" aria-label="Not managed by the agent">
                    { for drift.unmanaged.iter().map(|key| html! { <li><code>{ key }</code></li> }) }
                </ul>
            }
        </section>
    }
}

/// A Flux Kustomization's status, as `flux get kustomizations` gives it.
fn kustomization_view(name: &str, status: &Kustomization) -> Html {
    let ready = &status.ready;
    let revision = |revision: &Option<String>| revision.as_deref().unwrap_or("none").to_string();
    let line = format!(
        " · {}: {} · last applied {} · last attempted {} · next reconcile at minute {} · inventory: {}",
        ready.reason,
        ready.message,
        revision(&status.last_applied_revision),
        revision(&status.last_attempted_revision),
        status.next_at,
        status.inventory.len()
    );
    html! {
        <p class={classes!("kustomization", ready.status.to_ascii_lowercase())} role="status">
            { format!("Kustomization {name}: Ready ") }<strong>{ ready.status }</strong>{ line }
        </p>
    }
}

/// An icon of `status_icons` in the page's HTML, as tall as the text.
fn icon(shape: (&'static str, &'static str)) -> Html {
    let mut markup = String::new();
    icon_markup(&mut markup, shape, None, 14);
    Html::from_html_unchecked(markup.into())
}
