//! A person editing the desired or the actual state in the page. Typing is a
//! burst of edits: the first one is a commit (or a change to the cluster),
//! and the next ones of the same kind amend it, until anything else happens.

use crate::event::Event;
use crate::repository::paths::is_under;
use crate::repository::{extension_of, on_branch, written_back, FileChanges, Files};
use crate::scenario::Layout;
use crate::script::ScriptedAction;
use crate::World;
use gitops_core::state::render::Format;
use gitops_core::state::State;
use gitops_core::Workspace;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Burst {
    kind: Kind,
    environment: String,
    /// Where the burst's event is in the world's events.
    event: usize,
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// The desired state before the burst, when it read.
    Desired(Option<State>),
    /// The cluster's state before the burst, to describe the whole change.
    Actual(State),
}

/// The message of a commit made by editing the directory `directory` in the page.
pub fn edit_message(directory: &str) -> String {
    format!("Edit {directory} in the playground")
}

impl World {
    /// `by` writes `text` as the whole desired state of `environment`: each
    /// object into the file that declares it, or else one file in its
    /// directory in place of the others (`environment_changes`).
    pub fn edit_desired(&mut self, by: &str, environment: &str, text: &str) {
        let typed = self.workspace.with(|workspace| workspace.read("desired", text));
        match typed {
            Ok(typed) => self.edit_desired_read(by, environment, text, typed, ""),
            Err(_) => self.commit_desired(by, environment, text, None, ""),
        }
    }

    /// The message a commit of `environment`'s working copy takes when the
    /// person writes none.
    pub fn default_commit_message(&self, environment: &str) -> String {
        edit_message(&self.repository.path_of(environment, self.options.layout))
    }

    /// `edit_desired` of a text that reads as `typed`, committed with
    /// `message` (empty: `edit_message`'s).
    pub fn edit_desired_read(&mut self, by: &str, environment: &str, text: &str, typed: State, message: &str) {
        self.commit_desired(by, environment, text, Some(typed), message)
    }

    fn commit_desired(&mut self, by: &str, environment: &str, text: &str, typed: Option<State>, message: &str) {
        self.forget_applied();
        let directory = self.repository.path_of(environment, self.options.layout);
        let head = self.desired_files(environment).1;
        let changes = self.workspace.with(|workspace| environment_changes(workspace, &head, &directory, text, typed.as_ref()));
        let (branch, changes) = self.on_its_branch(environment, changes);
        let says = |state: Option<&State>| typed.as_ref().zip(state).is_some_and(|(typed, state)| typed.same_objects(state));
        let burst = self.burst_event(&Kind::Desired(None), environment);
        let now = self.desired_state(environment).ok();
        if burst.is_none() && says(now.as_ref()) {
            // A text that says what Git says already (a typo typed and fixed) commits nothing.
            return;
        }
        if let Some(event) = burst {
            let before = match &self.editing {
                Some(Burst { kind: Kind::Desired(before), .. }) => before.as_ref(),
                _ => None,
            };
            if branch.is_none() && event + 1 == self.events.len() && says(before) {
                // The burst came back to where it started: its commit goes, as if never made.
                self.repository.drop_head();
                self.events.pop();
                self.editing = None;
                return;
            }
            let amended = match branch.as_deref() {
                None => self
                    .repository
                    .amend(changes.applied_to(&self.repository.head().files)),
                Some(branch) => {
                    let files = self
                        .repository
                        .head_of(branch)
                        .map(|head| changes.applied_to(&head.files))
                        .unwrap_or_default();
                    self.repository.amend_on(branch, files)
                }
            };
            if let Some(commit) = amended {
                let message = commit.message.clone();
                self.events[event].what = format!("committed {}: {message}", commit.id);
                return;
            }
        }
        self.commit_changes(by, environment, branch, changes, message);
        self.editing = Some(Burst {
            kind: Kind::Desired(now),
            environment: environment.into(),
            event: self.events.len() - 1,
        });
    }

    /// `changes` to `environment`'s files as the branch that holds them takes
    /// them: `main`'s as they are, or the environment's branch's under `app/`.
    pub(crate) fn on_its_branch(&self, environment: &str, changes: FileChanges) -> (Option<String>, FileChanges) {
        match self.options.layout {
            Layout::Directories => (None, changes),
            Layout::Branches => (Some(environment.to_string()), on_branch(environment, &changes)),
        }
    }

    /// `by` commits `changes` on `branch` with `message` (empty: the page's own).
    pub(crate) fn commit_changes(&mut self, by: &str, environment: &str, branch: Option<String>, changes: FileChanges, message: &str) {
        let message = match message.trim() {
            "" => self.default_commit_message(environment),
            written => written.to_string(),
        };
        self.perform(&ScriptedAction::Commit {
            author: by.into(),
            message,
            branch,
            write: changes.write,
            remove: changes.remove,
            set: Vec::new(),
        });
    }

    /// `by` replaces the whole actual state of `environment` by hand.
    pub fn edit_actual(&mut self, by: &str, environment: &str, state: &State) {
        self.forget_applied();
        let before = match &self.editing {
            Some(Burst {
                kind: Kind::Actual(before),
                environment: edited,
                ..
            }) if edited == environment => Some(before.clone()),
            _ => None,
        };
        let before = before.or_else(|| {
            self.clusters
                .get(environment)
                .map(|cluster| cluster.actual().clone())
        });
        let event = self.burst_event(
            &Kind::Actual(State::empty(state.form().clone())),
            environment,
        );
        self.perform(&ScriptedAction::SetCluster {
            by: by.into(),
            environment: environment.into(),
            state: state.to_value(),
        });
        let Some(before) = before else { return };
        let changes = crate::repository::diff_states(&before, state);
        let what = crate::repository::list_object_changes(&changes).unwrap_or_else(|| "nothing yet".into());
        let latest = self.events.len() - 1;
        self.events[latest].what = format!("changed the {environment} cluster by hand: {what}");
        if let Some(previous) = event {
            let replaced: Event = self.events.remove(latest);
            self.events[previous] = replaced;
        }
        let index = event.unwrap_or(latest);
        self.editing = Some(Burst {
            kind: Kind::Actual(before),
            environment: environment.into(),
            event: index,
        });
    }

    /// The event of the burst in progress, when the same kind of edit of the
    /// same environment continues it.
    fn burst_event(&self, kind: &Kind, environment: &str) -> Option<usize> {
        let burst = self.editing.as_ref()?;
        let same_kind = std::mem::discriminant(&burst.kind) == std::mem::discriminant(kind);
        (same_kind && burst.environment == environment && burst.event < self.events.len())
            .then_some(burst.event)
    }
}

/// The changes that make `text` (which reads as `typed`, when it reads) the whole
/// desired state of `directory`: written back into the files that declare its
/// objects (`repository::written_back`), or else as the directory's one file,
/// `manifests.json` (or `.yaml`), in place of the others.
pub(crate) fn environment_changes(
    workspace: &mut Workspace,
    head: &Files,
    directory: &str,
    text: &str,
    typed: Option<&State>,
) -> FileChanges {
    if let Some(changes) = typed.and_then(|typed| written_back(workspace, head, directory, text, typed)) {
        return changes;
    }
    let file = format!("{directory}/manifests.{}", extension_of(Format::of(text)));
    let remove = head
        .keys()
        .filter(|path| is_under(path, directory) && **path != file)
        .cloned()
        .collect();
    FileChanges {
        write: Files::from([(file, Value::String(text.to_string()))]),
        remove,
    }
}
