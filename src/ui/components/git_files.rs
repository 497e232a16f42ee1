//! Under the Desired pane's text: the files of Git the environment renders from,
//! its directory's and those its kustomization reads from elsewhere, each a
//! disclosure of its text (the first open) that takes typing: a working copy of
//! that file alone, which the plan previews and a commit writes. Read when
//! opened, and again only when the world changes.

use crate::ui::ptr_eq::PtrEq;
use gitops_page::git_files;
use gitops_world::World;
use web_sys::{Element, HtmlTextAreaElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GitFilesProps {
    pub world: PtrEq<World>,
    pub environment: AttrValue,
    /// A file's path and the text typed into it.
    pub on_edit: Callback<(String, String)>,
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
    let hint = format!(
        "{} at commit {}. {}",
        shown.source,
        shown.commit,
        match shown.editable {
            true => "Type in a file to change it alone: the plan previews it, Commit writes it.",
            false => "Commit or discard the text above to type in a file.",
        }
    );
    html! {
        <details class="git-files" open=true {ontoggle}>
            <summary>{ "Files in Git" }</summary>
            <p class="hint">{ hint }</p>
            { for shown.files.iter().enumerate().map(|(index, file)| {
                let path = file.path.clone();
                let oninput = props.on_edit.reform(move |event: InputEvent| {
                    (path.clone(), event.target_unchecked_into::<HtmlTextAreaElement>().value())
                });
                let note = match (file.in_directory, file.edited) {
                    (true, false) => "",
                    (true, true) => " edited, not committed",
                    (false, false) => " read by the kustomization",
                    (false, true) => " read by the kustomization; edited, not committed",
                };
                html! {
                    <details class="file" open={index == 0 || file.edited}>
                        <summary><code>{ &file.path }</code><span class="hint">{ note }</span></summary>
                        <textarea aria-label={file.path.clone()} spellcheck="false" readonly={!shown.editable} value={file.text.clone()} {oninput} />
                    </details>
                }
            }) }
        </details>
    }
}
