//! The registry's tags and images, and what each workload runs.

use super::{flags, HistoryProps, region};
use gitops_world::registry::{short, Image};
use yew::prelude::*;

/// Each tag and the digest it points to now; images that are malicious or
/// crash are marked, including those no tag points to any more.
pub fn registry_view(props: &HistoryProps) -> Html {
    let registry = &props.history.registry;
    let image = |digest: &str| registry.images.iter().find(|image| image.digest == digest);
    let untagged_flagged = registry.images.iter().filter(|image| {
        (image.malicious || image.crashes) && !registry.tags.values().any(|d| *d == image.digest)
    });
    let rows = registry
        .tags
        .iter()
        .map(|(tag, digest)| {
            let (malicious, crashes) = image(digest)
                .map(|image| (image.malicious, image.crashes))
                .unwrap_or_default();
            html! {
                <tr key={tag.clone()}>
                    <td><code>{ tag }</code></td>
                    <td><code>{ short(digest) }</code>{ flags(malicious, crashes) }</td>
                </tr>
            }
        })
        .chain(untagged_flagged.map(untagged_row));
    html! {
        { region("Registry", "registry", html! { <>
            if registry.open && registry.tags.is_empty() {
                <p class="empty">{ "The scenario lists no registry: every image asked for is there." }</p>
            } else if registry.tags.is_empty() && registry.images.is_empty() {
                <p class="empty">{ "The registry holds no images." }</p>
            } else {
                <table class="timeline-table">
                    <thead><tr><th scope="col">{ "Tag" }</th><th scope="col">{ "Image" }</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            }
        </> }) }
    }
}

fn untagged_row(image: &Image) -> Html {
    html! {
        <tr key={image.digest.clone()}>
            <td class="timeline-why">{ format!("no tag (pushed as {})", image.pushed_as) }</td>
            <td><code>{ short(&image.digest) }</code>{ flags(image.malicious, image.crashes) }</td>
        </tr>
    }
}

/// For each environment and workload, the image it runs and its digest.
pub fn running_view(props: &HistoryProps) -> Html {
    let rows: Vec<Html> = props
        .history
        .running
        .iter()
        .flat_map(|(environment, workloads)| {
            workloads.iter().flat_map(move |(key, images)| {
                images.iter().map(move |running| {
                    let digest = match (&running.digest, running.invalid) {
                        (Some(digest), _) => html! { <code>{ short(digest) }</code> },
                        (None, Some(why)) => html! {
                            <span class="timeline-why">{ format!("InvalidImageName: {why}") }</span>
                        },
                        (None, None) => {
                            html! { <span class="timeline-why">{ "not in the registry" }</span> }
                        }
                    };
                    html! {
                        <tr class={classes!(running.malicious.then_some("timeline-malicious"))}>
                            <td>{ environment }</td>
                            <td><code>{ key }</code></td>
                            <td><code>{ &running.reference }</code></td>
                            <td>{ digest }{ flags(running.malicious, running.crashes) }</td>
                        </tr>
                    }
                })
            })
        })
        .collect();
    html! {
        { region("Running", "running", html! { <>
            if rows.is_empty() {
                <p class="empty">{ "Nothing runs yet. The kubelet runs the images of Kubernetes workloads (Deployments, StatefulSets, Pods…), not objects in the lesson's short form." }</p>
            } else {
                <table class="timeline-table">
                    <thead>
                        <tr>
                            <th scope="col">{ "Environment" }</th>
                            <th scope="col">{ "Object" }</th>
                            <th scope="col">{ "Image" }</th>
                            <th scope="col">{ "Digest" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            }
        </> }) }
    }
}
