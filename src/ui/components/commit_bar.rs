//! Under the Desired pane while it holds a working copy Git does not: the
//! commit's message, Commit (also Ctrl/Cmd+S) and Discard. What a person
//! types reaches Git only when they commit it.

use crate::ui::sender::Sender;
use gitops_page::{Action, Model};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The commit bar while the Desired pane holds a working copy, else nothing.
pub fn commit_bar(model: &Model, send: &Sender) -> Html {
    if !model.panes.uncommitted {
        return Html::default();
    }
    let oninput = send.with(Action::WriteCommitMessage).reform(|event: InputEvent| {
        event.target_unchecked_into::<HtmlInputElement>().value()
    });
    let on_commit = send.with(|()| Action::Commit);
    // Enter in the message commits, as in a Git client.
    let onkeydown = {
        let on_commit = on_commit.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() == "Enter" {
                event.prevent_default();
                on_commit.emit(());
            }
        })
    };
    html! {
        <div class="commit-bar" role="group" aria-label="Your working copy">
            <p class="hint">{ "Not in Git yet: the plan shows what the agent would do once you commit." }</p>
            <input type="text" aria-label="Commit message" placeholder={model.default_commit_message()} value={model.panes.commit_message.clone()} {oninput} {onkeydown} />
            <button class="primary" onclick={on_commit.reform(|_| ())}>{ "Commit" }</button>
            <button onclick={send.with(|_| Action::Discard)}>{ "Discard" }</button>
        </div>
    }
}
