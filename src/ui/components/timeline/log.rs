//! The Git log, newest first, with what each commit changed and a button
//! to revert it; beside it, where CI built images, the application
//! repository's builds.

use super::{same, short_id, region};
use gitops_world::agent::describe_changes;
use gitops_world::credentials::CI;
use gitops_world::registry::{short, shorten_digests, Image};
use gitops_world::repository::{FileDiff, ObjectDiff};
use gitops_world::summary::{History, LogEntry};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct GitLogProps {
    pub history: Rc<History>,
    pub on_revert: Callback<String>,
}

impl PartialEq for GitLogProps {
    fn eq(&self, other: &Self) -> bool {
        same(&self.history, &other.history) && self.on_revert == other.on_revert
    }
}

#[function_component(GitLog)]
pub fn git_log(props: &GitLogProps) -> Html {
    let builds = props.history.registry.builds();
    html! {
        { region("Git log", "log", html! { <>
            if !builds.is_empty() {
                <h4>{ "State repository" }</h4>
            }
            <ol class="timeline-log">
                { for props.history.repository.log.iter().map(|entry| commit(entry, &props.on_revert)) }
            </ol>
            if !builds.is_empty() {
                <h4>{ "Application repository" }</h4>
                <p class="timeline-why">{ "CI builds its code into images; the playground draws its builds, not its commits." }</p>
                <ol class="timeline-log">{ for builds.into_iter().rev().map(build) }</ol>
            }
        </> }) }
    }
}

/// One build of the application repository: the image CI pushed.
fn build(image: &Image) -> Html {
    html! {
        <li class="timeline-commit">
            <span class="timeline-commit-message">{ format!("built {} as {}", image.pushed_as, short(&image.digest)) }</span>
            { " " }
            <span class="timeline-why">{ format!("by {CI} at minute {}", image.step) }</span>
        </li>
    }
}

/// One commit: id, message, author, step, changes; and, unless it is the
/// first commit, a button to revert it.
fn commit(entry: &LogEntry, on_revert: &Callback<String>) -> Html {
    let commit = &entry.commit;
    let short = short_id(&commit.id).to_string();
    let revert = (commit.parent.is_some() && commit.branch.is_none()).then(|| {
        let id = commit.id.clone();
        let onclick = on_revert.reform(move |_: MouseEvent| id.clone());
        html! {
            <button type="button" class="timeline-revert" {onclick}>
                { format!("Revert {short}") }
            </button>
        }
    });
    html! {
        <li class="timeline-commit" key={commit.id.clone()}>
            <div class="timeline-commit-head">
                <code class="timeline-commit-id">{ short.clone() }</code>
                { " " }
                <span class="timeline-commit-message">{ &commit.message }</span>
                { " " }
                <span class="timeline-why">
                    { format!("by {} at minute {}", commit.author, commit.step) }
                    { for commit.branch.as_ref().map(|branch| format!(" on branch {branch}")) }
                </span>
                { for revert }
            </div>
            if !entry.changes.is_empty() {
                <Changes class="timeline-changes" what="changes" lines={Rc::new(change_lines(entry))} />
            }
            if !entry.files.is_empty() {
                <Changes
                    class="timeline-files"
                    what="file changes"
                    lines={Rc::new(entry.files.iter().map(describe_file).collect())}
                />
            }
        </li>
    }
}

/// What a commit changed, one line per object in each environment.
fn change_lines(entry: &LogEntry) -> Vec<String> {
    entry
        .changes
        .iter()
        .flat_map(|(environment, diffs)| diffs.iter().map(move |diff| describe(environment, diff)))
        .collect()
}

/// How many of a commit's changes show before a button shows the rest: a commit that
/// pastes thousands of objects would otherwise make the page thousands of lines long.
const CHANGES_SHOWN: usize = 20;

#[derive(Properties, PartialEq)]
struct ChangesProps {
    class: &'static str,
    /// What the lines are, for the button that shows the rest: `changes` (of
    /// objects) or `file changes`, so that the two buttons of a commit differ.
    what: &'static str,
    lines: Rc<Vec<String>>,
}

#[function_component(Changes)]
fn changes(props: &ChangesProps) -> Html {
    let all = use_state_eq(|| false);
    let hidden = if *all {
        0
    } else {
        props.lines.len().saturating_sub(CHANGES_SHOWN)
    };
    let show_all = {
        let all = all.clone();
        Callback::from(move |_: MouseEvent| all.set(true))
    };
    html! {
        <ul class={props.class}>
            { for props.lines[..props.lines.len() - hidden].iter().map(|line| html! {
                <li><code>{ line }</code></li>
            }) }
            if hidden > 0 {
                <li>
                    <button type="button" class="timeline-more" onclick={show_all}>
                        { format!("Show {hidden} more {}", props.what) }
                    </button>
                </li>
            }
        </ul>
    }
}

/// `envs/prod/kustomization.yaml: changed at /images/0/newTag (2.0.0 → 2.1.0)`,
/// or, for a file written as text, at the lines that changed (`-12,1 +12,1`).
fn describe_file(diff: &FileDiff) -> String {
    let mut text = format!("{}: {}", diff.path, diff.change);
    if !diff.changes.is_empty() {
        text.push_str(" at ");
        text.push_str(&describe_changes(&diff.changes));
    } else if let Some(lines) = &diff.lines {
        text.push_str(" at lines ");
        text.push_str(lines);
    }
    shorten_digests(&text)
}

/// `prod: changed Deployment/shop/web at /spec/replicas (2 → 3)`.
fn describe(environment: &str, diff: &ObjectDiff) -> String {
    let mut text = format!("{environment}: {} {}", diff.change, diff.key);
    if !diff.changes.is_empty() {
        text.push_str(" at ");
        text.push_str(&describe_changes(&diff.changes));
    }
    shorten_digests(&text)
}
