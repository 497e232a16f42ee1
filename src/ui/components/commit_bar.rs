//! Above the Desired pane's text: while it holds a working copy Git does
//! not, the commit's message, Commit (also Ctrl/Cmd+S) and Discard (what a
//! person types reaches Git only when they commit it); while their commit
//! waits in a pull request, its review and merge, where the person looks.

use crate::ui::sender::Sender;
use gitops_page::{Action, Model};
use gitops_world::person::REVIEWER;
use gitops_world::repository::PullRequest;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The commit bar while the Desired pane holds a working copy, the pull
/// request's bar while the person's commit waits in one, else nothing.
pub fn commit_bar(model: &Model, send: &Sender) -> Html {
    if !model.panes.uncommitted {
        return match model.world.open_proposal(&model.environment) {
            Some(pull) => pull_request_bar(pull, send),
            None => Html::default(),
        };
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
            if let Some(error) = &model.panes.files_error {
                <p class="error" role="alert">{ format!("Your files do not render, so Commit waits: {error}") }</p>
            }
            <input type="text" aria-label="Commit message" placeholder={model.default_commit_message()} value={model.panes.commit_message.clone()} {oninput} {onkeydown} />
            <button class="primary" onclick={on_commit.reform(|_| ())}>{ "Commit" }</button>
            <button onclick={send.with(|_| Action::Discard)}>{ "Discard" }</button>
        </div>
    }
}

/// The person's pull request, titled by the commit that opened it: the
/// reviewer's approval, then the merge (the timeline's Pull requests list has
/// the same buttons, by number).
fn pull_request_bar(pull: &PullRequest, send: &Sender) -> Html {
    let (number, title) = (pull.number, &pull.title);
    let unapproved = pull.approvals.is_empty();
    let what = match unapproved {
        true => format!("Your pull request #{number} “{title}” waits for a review: you cannot approve your own."),
        false => format!("Your pull request #{number} “{title}” is approved: merging it commits it to Git."),
    };
    html! {
        <div class="commit-bar" role="group" aria-label="Your pull request">
            <p class="hint">{ what }</p>
            if unapproved {
                <button onclick={send.with_value(number, Action::Approve)}>{ format!("Have {REVIEWER} approve it") }</button>
            }
            <button class="primary" onclick={send.with_value(number, Action::Merge)}>{ "Merge it" }</button>
        </div>
    }
}
