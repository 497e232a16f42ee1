use crate::core::{Drift, SyncStatus};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DriftViewProps {
    pub drift: Drift,
    pub sync: SyncStatus,
}

/// The sync status and every difference, whether or not the plan fixes it.
#[function_component(DriftView)]
pub fn drift_view(props: &DriftViewProps) -> Html {
    let (status_class, status_text) = match props.sync {
        SyncStatus::Synced => ("synced", "Synced"),
        SyncStatus::OutOfSync => ("out-of-sync", "OutOfSync"),
        SyncStatus::Unknown => ("unknown", "Unknown"),
    };
    let group = |title: &'static str, keys: &Vec<String>| {
        html! {
            <div class="drift-group">
                <dt>{ title }</dt>
                if keys.is_empty() {
                    <dd class="none">{ "none" }</dd>
                } else {
                    { for keys.iter().map(|key| html! { <dd><code>{ key }</code></dd> }) }
                }
            </div>
        }
    };
    html! {
        <section class="drift" aria-labelledby="drift-title">
            <h2 id="drift-title">{ "Drift" }</h2>
            <p class={classes!("status", status_class)} role="status">{ "Sync status: " }<strong>{ status_text }</strong></p>
            <dl>
                { group("Missing", &props.drift.missing) }
                { group("Changed", &props.drift.changed) }
                { group("Extra", &props.drift.extra) }
            </dl>
        </section>
    }
}
