//! A person at the page, acting on the world: typing into the panes,
//! stepping a sync, moving time, reverting, reviewing, choosing options.
//! Each interaction is recorded (share links, saved work, exercise
//! solutions) and replays to the same world.

use crate::agent::waves::{step_hold, Hold};
use crate::cluster::comparable;
use crate::edits::{edit_message, environment_changes};
use crate::repository::paths::is_under;
use crate::repository::{FileChanges, PullRequest};
use crate::scenario::{Layout, Mode};
use crate::script::ScriptedAction;
use crate::World;
use gitops_core::text::edit::SharedText;
use gitops_core::{IgnoreRule, Operation, State};
use serde::{Deserialize, Serialize};

/// The person at the keyboard, as events name them.
pub const YOU: &str = "you";

/// The other person of the page, who reviews what `you` propose.
pub const REVIEWER: &str = "riley";

/// What a person did. Short names keep links short; files may use the long ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Interaction {
    /// Typed this text into the Desired pane: the working copy, which Git does
    /// not hold until the person commits it.
    #[serde(rename = "d", alias = "desired")]
    Desired(SharedText),
    /// Committed the working copy with this message (empty: the page's own,
    /// `Edit envs/prod in the playground`).
    #[serde(rename = "o", alias = "commit")]
    Commit(String),
    /// Typed a text into a file of Git: its path on the first line, then the
    /// text (`Interaction::file`). A working copy of that file alone, which
    /// Git does not hold until the person commits it.
    #[serde(rename = "f", alias = "file")]
    File(SharedText),
    /// Typed this text into the Actual pane.
    #[serde(rename = "a", alias = "actual")]
    Actual(SharedText),
    /// Applied the next operation of the plan.
    #[serde(rename = "s", alias = "step")]
    Step,
    /// Ran the next step of the world.
    #[serde(rename = "n", alias = "advance")]
    Advance,
    /// Reverted this commit.
    #[serde(rename = "r", alias = "revert")]
    Revert(String),
    #[serde(rename = "p", alias = "prune")]
    Prune(bool),
    #[serde(rename = "h", alias = "selfHeal")]
    SelfHeal(bool),
    #[serde(rename = "y", alias = "autoSync")]
    AutoSync(bool),
    /// Argo CD's sync option `RespectIgnoreDifferences=true`, on or off.
    #[serde(rename = "k", alias = "respectIgnoreDifferences")]
    RespectIgnoreDifferences(bool),
    /// Argo CD's sync option `ServerSideApply=true`, on or off.
    #[serde(rename = "u", alias = "serverSideApply")]
    ServerSideApply(bool),
    #[serde(rename = "m", alias = "mode")]
    Mode(Mode),
    /// Chose the agent: Argo CD's or Flux's (`World::choose_agent`).
    #[serde(rename = "t", alias = "agent")]
    Agent(gitops_core::options::Agent),
    /// Wrote these ignore rules.
    #[serde(rename = "i", alias = "ignore")]
    Ignore(String),
    /// Looked at this environment.
    #[serde(rename = "e", alias = "environment")]
    Environment(String),
    /// Confirmed the deletions that wait for a person (`Prune=confirm`).
    #[serde(rename = "c", alias = "confirmPrune")]
    ConfirmPrune,
    /// The reviewer approved this pull request.
    #[serde(rename = "v", alias = "approve")]
    Approve(u32),
    /// Merged this pull request.
    #[serde(rename = "g", alias = "merge")]
    Merge(u32),
    /// Answered an exercise's question (its index) with a choice (its index).
    #[serde(rename = "q", alias = "answer")]
    Answer(usize, usize),
}

impl Interaction {
    /// `text` typed into the file of Git at `path`.
    pub fn file(path: &str, text: &str) -> Interaction {
        Interaction::File(format!("{path}\n{text}").into())
    }
}

/// The path and the text of what `Interaction::File` holds.
pub fn file_typed(typed: &str) -> (&str, &str) {
    typed.split_once('\n').unwrap_or((typed, ""))
}

impl World {
    /// Does what the person did in `environment`. `None` when it does not
    /// apply (nothing to step, the end of the script); else whether its text
    /// reads (a broken text changes nothing).
    pub fn interact(&mut self, environment: &str, interaction: &Interaction) -> Option<bool> {
        self.interact_read(environment, interaction, None)
    }

    /// `interact`, with the state that the interaction's text (a pane's)
    /// reads as, where the caller read it already: the text is not read again.
    pub fn interact_read(&mut self, environment: &str, interaction: &Interaction, read: Option<&State>) -> Option<bool> {
        let known = self.clusters.contains_key(environment);
        let read_as = |world: &World, source: &str, text: &SharedText| match read {
            Some(state) => Some(state.clone()),
            None => world.workspace.with(|workspace| workspace.read_shared(source, text)).ok(),
        };
        match interaction {
            Interaction::Desired(text) => {
                let state = read_as(self, "desired", text).filter(|_| known);
                let reads = state.is_some();
                if let Some(state) = state {
                    self.keep_draft(environment, text, &state);
                }
                Some(reads)
            }
            Interaction::File(typed) => match known {
                true => {
                    let (path, text) = file_typed(typed);
                    self.keep_file_draft(environment, path, &text.into())
                }
                false => Some(false),
            },
            Interaction::Commit(message) if self.has_file_drafts(environment) => self.commit_files(environment, message),
            Interaction::Commit(message) => {
                let text = self.draft(environment)?.clone();
                let state = read_as(self, "desired", &text)?;
                self.drafts.retain(|(edited, _)| edited != environment);
                self.editing = None;
                self.propose_desired(environment, &text, state, message);
                Some(true)
            }
            Interaction::Actual(text) => {
                let state = read_as(self, "actual", text).filter(|_| known);
                if let Some(state) = &state {
                    self.edit_actual(YOU, environment, state);
                }
                Some(state.is_some())
            }
            Interaction::Step if self.reconciles_by_hand() => self.reconcile_by_hand(environment).then_some(true),
            Interaction::Step => self.apply_next_by_hand(environment).map(|_| true),
            Interaction::Advance => self.can_advance().then(|| {
                self.next_step();
                true
            }),
            Interaction::Revert(commit) => {
                self.perform(&ScriptedAction::Revert {
                    author: YOU.into(),
                    commit: commit.clone(),
                });
                Some(true)
            }
            Interaction::Prune(on) => self.set_option(|options| options.prune = *on),
            Interaction::SelfHeal(on) => self.set_option(|options| options.self_heal = *on),
            Interaction::AutoSync(on) => self.set_option(|options| options.auto_sync = *on),
            Interaction::RespectIgnoreDifferences(on) => {
                self.set_option(|options| options.respect_ignore_differences = *on)
            }
            Interaction::ServerSideApply(on) => self.set_option(|options| options.server_side_apply = *on),
            Interaction::Mode(mode) => {
                self.set_mode(*mode);
                Some(true)
            }
            Interaction::Agent(agent) => {
                self.choose_agent(*agent);
                Some(true)
            }
            Interaction::Ignore(text) => match ignore_rules(text) {
                Ok(rules) => self.set_option(|options| options.ignore = rules),
                Err(_) => Some(false),
            },
            Interaction::Environment(name) => self.clusters.contains_key(name).then_some(true),
            Interaction::Approve(number) => {
                self.perform(&ScriptedAction::Approve {
                    by: REVIEWER.into(),
                    pull_request: *number,
                });
                Some(true)
            }
            Interaction::Merge(number) => {
                self.perform(&ScriptedAction::Merge {
                    by: YOU.into(),
                    pull_request: *number,
                });
                Some(true)
            }
            Interaction::ConfirmPrune => {
                matches!(self.step_hold(environment), Some(Hold::Confirm { .. })).then(|| {
                    self.perform(&ScriptedAction::ConfirmPrune {
                        by: YOU.into(),
                        environment: environment.into(),
                    });
                    true
                })
            }
            Interaction::Answer(..) => Some(true),
        }
    }

    /// Step, by hand: applies the next operation of `environment`'s plan
    /// (the first that changes the cluster) and returns it; `None` when the
    /// plan has nothing to apply. What the page marks as done is this.
    pub fn apply_next_by_hand(&mut self, environment: &str) -> Option<Operation> {
        if !self.has_work(environment) || self.step_hold(environment).is_some() {
            return None;
        }
        self.perform(&ScriptedAction::ApplyNext {
            by: YOU.into(),
            environment: environment.into(),
        })
    }

    /// Whether Step is `flux reconcile` (Flux's agent in pull mode): Flux
    /// applies a whole build or nothing, and has no step through a plan.
    pub fn reconciles_by_hand(&self) -> bool {
        self.options.agent == gitops_core::options::Agent::Flux && self.agent.is_some()
    }

    /// Step under Flux's agent: the person runs `flux reconcile kustomization
    /// --with-source` and the agent reconciles `environment` at once; false
    /// where there is nothing to reconcile yet (before the first minute).
    pub fn reconcile_by_hand(&mut self, environment: &str) -> bool {
        if !self.started || !self.clusters.contains_key(environment) {
            return false;
        }
        self.perform(&ScriptedAction::Sync {
            by: YOU.into(),
            environment: environment.into(),
        });
        true
    }

    /// The desired state the person proposes for `environment` in their
    /// open pull request, when edits there need one.
    pub fn proposal(&self, environment: &str) -> Option<State> {
        self.open_proposal(environment)?;
        let (files, directory) = (self.files_in_git(environment), self.desired_path(environment));
        self.rendered(environment, &files, &directory).ok()
    }

    /// The person's open pull request of edits to `environment`, if any: one
    /// of theirs, not merged, that changes files of its directory alone.
    pub fn open_proposal(&self, environment: &str) -> Option<&PullRequest> {
        let directory = self.repository.paths().of(environment);
        self.repository.pull_requests().iter().rev().find(|pull| {
            pull.author == YOU
                && pull.merged_as.is_none()
                && pull.changes.paths().all(|path| is_under(path, &directory))
        })
    }

    /// Why Git and the cluster of `environment` cannot be compared, if
    /// they cannot: one holds named objects and the other Kubernetes
    /// objects. Nothing syncs until both are in one form.
    pub fn forms_differ(&self, environment: &str) -> Option<String> {
        let desired = self.desired_state(environment).ok()?;
        let cluster = self.clusters.get(environment)?;
        comparable(&desired, cluster.actual()).err()
    }

    /// Whether the script has steps left to run.
    pub fn script_left(&self) -> bool {
        !self.started || self.step < self.steps
    }

    /// Whether time can move on: through the script, and then for a while
    /// after it (the agent polls, controllers and the kubelet run), so that
    /// what a person does after the last scripted step still plays out.
    pub fn can_advance(&self) -> bool {
        self.script_left()
            || self.step
                < self
                    .steps
                    .saturating_add(crate::scenario::MAX_STEPS_AFTER_SCRIPT)
    }

    /// What keeps Step from applying the next operation of `environment`'s
    /// plan now: an earlier wave not yet Healthy (time must run), one that
    /// turned Degraded, an update the API server refuses (the sync fails),
    /// or a deletion no one confirmed.
    pub fn step_hold(&self, environment: &str) -> Option<Hold> {
        let desired = self.desired_state(environment).ok()?;
        let cluster = self.clusters.get(environment)?;
        let actual = cluster.actual();
        comparable(&desired, actual).ok()?;
        let options = self.reconcile_options(environment);
        let plan = gitops_core::plan(&desired, actual, &options);
        self.workspace.with(|workspace| step_hold(workspace, &desired, actual, &plan, &options, &cluster.confirmed_prunes))
    }

    /// Whether the plan of `environment` has an operation to apply.
    pub fn has_work(&self, environment: &str) -> bool {
        let (Ok(desired), Some(cluster)) = (
            self.desired_state(environment),
            self.clusters.get(environment),
        ) else {
            return false;
        };
        comparable(&desired, cluster.actual()).is_ok()
            && gitops_core::has_work(&gitops_core::plan(
                &desired,
                cluster.actual(),
                &self.reconcile_options(environment),
            ))
    }

    /// Who deploys from now on: in pull mode an agent in each cluster (a new
    /// one fetches Git at its next poll), in push mode CI and no agent.
    fn set_mode(&mut self, mode: Mode) {
        self.options.mode = mode;
        match mode {
            Mode::Pull if self.agent.is_none() => {
                let environments: Vec<String> = self.clusters.keys().cloned().collect();
                self.agent = Some(crate::agent::Agent::new(&environments));
            }
            Mode::Push => self.agent = None,
            Mode::Pull => {}
        }
    }

    /// Puts `agent` in the clusters in place of the one there: before the
    /// start, the story from its start told by that tool (each cluster as
    /// that agent left it); after it, a new agent that knows nothing yet and
    /// finds the objects as the other tool left them, as a team that moves
    /// from one tool to the other does.
    fn choose_agent(&mut self, agent: gitops_core::options::Agent) {
        if self.options.agent == agent {
            return;
        }
        self.options.agent = agent;
        if !self.started {
            for (environment, cluster) in &mut self.clusters {
                if let Some(written) = self.written_clusters.get(environment) {
                    let at_start = crate::scenario::as_the_agent_left_it(written.clone(), &self.options.of(environment).application, agent);
                    *cluster = crate::cluster::Cluster::new(environment, at_start);
                }
            }
        }
        if self.agent.is_some() {
            let environments: Vec<String> = self.clusters.keys().cloned().collect();
            self.agent = Some(crate::agent::Agent::new(&environments));
        }
    }

    fn set_option(
        &mut self,
        change: impl FnOnce(&mut crate::scenario::WorldOptions),
    ) -> Option<bool> {
        change(&mut self.options);
        Some(true)
    }

    /// The person's desired state: a commit, or, where pull requests are
    /// required, the pull request they are writing.
    /// Whether the person's edits of `environment` open a pull request
    /// instead of a commit: a protected environment, when pull requests are
    /// required.
    pub fn edits_are_reviewed(&self, environment: &str) -> bool {
        let protected = self
            .options
            .protected_environments
            .iter()
            .any(|name| name == environment);
        self.options.require_pull_requests
            && protected
            && self.options.layout == Layout::Directories
    }

    /// The person's uncommitted working copy of `environment`'s desired
    /// state, when it says something Git's head does not.
    pub fn draft(&self, environment: &str) -> Option<&SharedText> {
        self.drafts
            .iter()
            .find(|(edited, _)| edited == environment)
            .map(|(_, text)| text)
    }

    /// Keeps `text` as `environment`'s working copy, or none where it says
    /// what Git says (a change typed and typed back).
    fn keep_draft(&mut self, environment: &str, text: &SharedText, state: &State) {
        self.drafts.retain(|(edited, _)| edited != environment);
        let head = self.proposal(environment).map(Ok).unwrap_or_else(|| self.desired_state(environment));
        if !head.is_ok_and(|head| head.same_objects(state)) {
            self.drafts.push((environment.to_string(), text.clone()));
        }
    }

    fn propose_desired(&mut self, environment: &str, text: &str, state: State, message: &str) {
        if !self.edits_are_reviewed(environment) {
            return self.edit_desired_read(YOU, environment, text, state, message);
        }
        let directory = self.repository.paths().of(environment);
        let head = self.repository.head().files.clone();
        let changes = self.workspace.with(|workspace| environment_changes(workspace, &head, &directory, text, Some(&state)));
        self.propose_changes(environment, changes, message);
    }

    /// Opens a pull request of `changes` to `environment`, or pushes them to
    /// the person's open one.
    pub(crate) fn propose_changes(&mut self, environment: &str, changes: FileChanges, message: &str) {
        let directory = self.repository.paths().of(environment);
        // The commit's message, or the page's, as a forge titles a pull request
        // after its branch's first commit.
        let message = match message.trim() {
            "" => edit_message(&directory),
            written => written.to_string(),
        };
        let event = match self.open_proposal(environment).map(|pull| pull.number) {
            Some(number) => {
                self.repository.revise_pull_request(number, changes);
                crate::event::Event::new(self.step, YOU, format!("pushed to pull request #{number}: {message}"))
                    .because("a new commit asks for the review again: its approvals are dismissed")
            }
            None => {
                let number = self.repository.open_pull_request(YOU, &message, changes, self.step);
                crate::event::Event::new(self.step, YOU, format!("opened pull request #{number}: {message}"))
                    .because(format!("{directory} changes only through reviewed pull requests"))
            }
        };
        self.events.push(event);
    }
}

/// Ignore rules written as YAML or JSON text.
pub fn ignore_rules(text: &str) -> Result<Vec<IgnoreRule>, String> {
    gitops_core::diff::ignore::rules_from_text(text)
}
