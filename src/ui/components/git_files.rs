//! Under the Desired pane's text: the files of Git the environment renders from,
//! its directory's and those its kustomization reads from elsewhere, each a
//! disclosure of its text (the first open), so that what Git holds is in sight and
//! not only what it renders to. Read when opened, and again only when the world
//! changes.

use crate::ui::ptr_eq::PtrEq;
use gitops_page::git_files;
use gitops_world::World;
use web_sys::Element;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GitFilesProps {
    pub world: PtrEq<World>,
    pub environment: AttrValue,
}

#[function_component(GitFilesView)]
pub fn git_files_view(props: &GitFilesProps) -> Html {
    let open = use_state(|| false);
    let shown = use_memo((props.world.clone(), props.environment.clone(), *open), |(world, environment, open)| {
        open.then(|| git_files(world, environment))
    });
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |event: Event| open.set(event.target_unchecked_into::<Element>().has_attribute("open")))
    };
    let Some(shown) = shown.as_ref() else {
        return html! {
            <details class="git-files" {ontoggle}><summary>{ "Files in Git" }</summary></details>
        };
    };
    html! {
        <details class="git-files" open=true {ontoggle}>
            <summary>{ "Files in Git" }</summary>
            <p class="hint">{ format!("{} at commit {}; the text above is what they render to.", shown.source, shown.commit) }</p>
            if shown.kustomized {
                <p class="hint">{ "Simpler than kustomize: a commit from the text above writes what it renders to as one manifests file in place of these, since the playground does not write an edit back into a kustomization's bases and patches." }</p>
            }
            { for shown.files.iter().enumerate().map(|(index, file)| html! {
                <details class="file" open={index == 0}>
                    <summary>
                        <code>{ &file.path }</code>
                        if !file.in_directory {
                            <span class="hint">{ " read by the kustomization" }</span>
                        }
                    </summary>
                    <pre tabindex="0" role="region" aria-label={format!("{} in Git", file.path)}>{ &file.text }</pre>
                </details>
            }) }
        </details>
    }
}
