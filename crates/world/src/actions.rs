//! What the scripted actors do, and the events it leaves.

use crate::agent::Notice;
use crate::agent::operation_events::operation_event;
use crate::event::{Event, Place};
use crate::repository::file_edit::edit_as_values;
use crate::repository::FileChanges;
use crate::scenario::{Files, Mode};
use crate::script::{FieldEdit, ScriptedAction};
use crate::World;
use gitops_core::sync::immutable::Outcome;
use gitops_core::Operation;
use serde_json::Value;

impl World {
    /// Does `action` at `step` and records its event; the operation it
    /// applied to a cluster, when it applied one (`ApplyNext`).
    pub(super) fn act(&mut self, step: u32, action: &ScriptedAction) -> Option<Operation> {
        let mut applied = None;
        let mut follow_up = None;
        // What the agent did at once for the action (`flux reconcile`).
        let mut then = Vec::new();
        let event = match action {
            ScriptedAction::Commit { author, message, branch, write, remove, set } => match self.file_changes(branch.as_deref(), write, remove, set) {
                Ok(changes) => {
                    let id = match branch.as_deref() {
                        None | Some("main") => self.repository.commit(author, message, &changes, step),
                        Some(branch) => self.repository.commit_on(branch, author, message, &changes, step),
                    }
                    .id
                    .clone();
                    self.committed = true;
                    Event::new(step, author, format!("committed {id}: {message}")).because(describe_files(&changes))
                }
                Err(error) => Event::new(step, author, format!("could not commit \"{message}\"")).because(error).refused(),
            },
            ScriptedAction::Revert { author, commit } => match self.repository.revert(commit, author, step) {
                Ok(reverted) => {
                    self.committed = true;
                    Event::new(step, author, format!("committed {}: {}", reverted.id, reverted.message)).because("a rollback is a revert, reviewed like any change")
                }
                Err(error) => Event::new(step, author, format!("could not revert {commit}")).because(error).refused(),
            },
            ScriptedAction::OpenPullRequest { author, title, write, remove, set } => match self.file_changes(None, write, remove, set) {
                Ok(changes) => {
                    let why = describe_files(&changes);
                    let number = self.repository.open_pull_request(author, title, changes, step);
                    Event::new(step, author, format!("opened pull request #{number}: {title}")).because(why)
                }
                Err(error) => Event::new(step, author, format!("could not open the pull request \"{title}\"")).because(error).refused(),
            },
            ScriptedAction::Promote { author, key, from, to } => self.promote(step, author, key, from, to),
            ScriptedAction::MergeBranch { by, from, to } => match self.repository.merge_branch(from, to, by, step) {
                Ok(commit) => {
                    let what = format!("committed {}: {}", commit.id, commit.message);
                    self.committed = true;
                    Event::new(step, by, what).because(format!("with a branch per environment, merging {from} into {to} is how a change reaches {to}"))
                }
                Err(error) => Event::new(step, by, format!("could not merge {from} into {to}")).because(error).refused(),
            },
            ScriptedAction::Approve { by, pull_request } => match self.repository.approve(*pull_request, by) {
                Ok(()) => Event::new(step, by, format!("approved pull request #{pull_request}"))
                    .because("a reviewer needs read access and the right to approve, not the author's credentials"),
                Err(error) => Event::new(step, by, format!("could not approve pull request #{pull_request}")).because(error).refused(),
            },
            ScriptedAction::Merge { by, pull_request } => match self.workspace.with(|workspace| self.repository.merge(workspace, *pull_request, by, step)) {
                Ok(commit) => {
                    let id = commit.id.clone();
                    self.committed = true;
                    Event::new(step, by, format!("merged pull request #{pull_request} as {id}"))
                        .because("merging needs write access to the state repository; the cluster is the agent's to change")
                }
                Err(error) => Event::new(step, by, format!("could not merge pull request #{pull_request}"))
                    .because(format!("the state repository refused: {error}"))
                    .refused(),
            },
            ScriptedAction::PushImage { by, tag, crashes, malicious } => {
                let moved = self.registry.resolve(tag).is_some();
                let image = self.registry.push(tag, None, *crashes, *malicious, by, step);
                let what = format!("pushed {} as {}", crate::registry::short(&image.digest), image.pushed_as);
                let why = if moved { "the tag already existed: tags are mutable, so it now points to another image" } else { "a new image, pushed with a token for the registry and nothing else" };
                Event::new(step, by, what).because(why)
            }
            ScriptedAction::EditCluster { by, environment, key, path, value } => self.edit_cluster(step, by, environment, key, path, value),
            ScriptedAction::CiApply { environment, key, path, value } => match self.options.mode {
                Mode::Push => {
                    let event = self.edit_cluster(step, "ci", environment, key, path, value);
                    match event.what.starts_with("changed") {
                        true => event.because("in push mode CI holds cluster credentials, so it can change production directly; Git does not record it"),
                        false => event,
                    }
                }
                Mode::Pull => Event::new(step, "ci", format!("could not change {key} in {environment}"))
                    .because("in pull mode CI holds no cluster credentials: it can only push images and open pull requests")
                    .refused(),
            },
            ScriptedAction::Restart { environment, key } => {
                let known = self.clusters.get_mut(environment).is_some_and(|cluster| cluster.restart(key));
                if known {
                    Event::new(step, "kubelet", format!("the pods of {key} in {environment} restart")).because("a node was drained")
                } else {
                    Event::new(step, "kubelet", format!("nothing to restart: {key} is not in {environment}"))
                        .because(format!("the {environment} cluster has no object {key} at this step; check the key (Kind/namespace/name, or the name in the lesson's form)"))
                        .refused()
                }
            }
            ScriptedAction::Sync { by, environment } => match self.agent.as_mut() {
                Some(agent) => {
                    agent.request_sync(environment);
                    match self.options.agent {
                        gitops_core::options::Agent::ArgoCd => Event::new(step, by, format!("asked the agent to sync {environment}")),
                        gitops_core::options::Agent::Flux => {
                            // The command waits for the reconcile it asks for: the agent
                            // passes again now, and only the asked-for one is due.
                            if self.started {
                                then = self.workspace.with(|workspace| {
                                    agent.reconcile(workspace, step, &self.repository, &mut self.clusters, &self.options, false)
                                });
                            }
                            Event::new(
                                step,
                                by,
                                format!("ran `flux reconcile kustomization {} --with-source` for {environment}", self.options.application),
                            )
                            .because("Flux reconciles at its interval; a person can ask for a reconcile now")
                        }
                    }
                }
                None => Event::new(step, by, format!("cannot sync {environment}")).because("there is no agent in push mode").refused(),
            },
            ScriptedAction::StopAgent => self.set_agent(step, |agent| agent.running = false, "the agent stopped", "its pod crashed"),
            ScriptedAction::StartAgent => self.set_agent(step, |agent| agent.running = true, "the agent started again", "its pod was rescheduled"),
            ScriptedAction::RevokeAccess => self.set_agent(step, |agent| agent.has_access = false, "the agent lost read access to Git", "its deploy key was revoked"),
            ScriptedAction::RestoreAccess => self.set_agent(step, |agent| agent.has_access = true, "the agent can read Git again", "its deploy key was restored"),
            ScriptedAction::SetCluster { by, environment, state } => self.set_cluster(step, by, environment, state),
            ScriptedAction::LoseCluster { environment } => self.lose_cluster(step, environment),
            ScriptedAction::UpdateImage { by, tag, environment, key } => self.update_image(step, by, tag, environment, key),
            ScriptedAction::ApplyNext { by, environment } => {
                let (event, acted, operation) = self.apply_next(step, by, environment);
                applied = operation;
                follow_up = acted;
                event
            }
            ScriptedAction::ConfirmPrune { by, environment } => self.confirm_prunes(step, by, environment),
            ScriptedAction::SetController { name, value, reason } => {
                let mut found = false;
                for controller in self.controllers.iter_mut().filter(|controller| controller.name == *name) {
                    controller.value = value.clone();
                    if !reason.is_empty() {
                        controller.reason = reason.clone();
                    }
                    found = true;
                }
                match found {
                    true => Event::new(step, name, format!("now wants {value}")).because(reason.clone()),
                    false => Event::new(step, name, "is not a controller of this world").refused(),
                }
            }
        };
        let did_nothing = match action {
            ScriptedAction::ApplyNext { .. } => applied.is_none(),
            _ => event.refused,
        };
        if did_nothing {
            // The event that says why: the agent's, when the person asked it to act.
            self.did_nothing.push(self.events.len() + usize::from(follow_up.is_some()));
        }
        let place = event.place.clone().or_else(|| action.place());
        let mut event = Event { place, ..event };
        crate::credentials::name_credential(&mut event, Some(action), self.options.mode);
        self.events.push(event);
        if let Some(mut acted) = follow_up {
            crate::credentials::name_credential(&mut acted, None, self.options.mode);
            self.events.push(acted);
        }
        self.events.extend(then);
        applied
    }

    fn set_cluster(&mut self, step: u32, by: &str, environment: &str, state: &Value) -> Event {
        let Some(cluster) = self.clusters.get_mut(environment) else {
            return Event::new(
                step,
                by,
                format!("could not change the {environment} cluster"),
            )
            .because("there is no such cluster")
            .refused();
        };
        let next = match gitops_core::state::State::from_value(environment, state.clone()) {
            Ok(next) => next,
            Err(error) => {
                return Event::new(
                    step,
                    by,
                    format!("could not change the {environment} cluster"),
                )
                .because(error.to_string())
                .refused()
            }
        };
        let changed = crate::repository::diff_states(cluster.actual(), &next);
        cluster.replace(next);
        for diff in &changed {
            self.notify(Notice::Changed {
                environment: environment.into(),
                key: diff.key.clone(),
            });
        }
        let what = crate::repository::list_object_changes(&changed).unwrap_or_else(|| "nothing".into());
        Event::new(
            step,
            by,
            format!("changed the {environment} cluster by hand: {what}"),
        )
        .because("a change made to the cluster, outside Git")
    }

    fn lose_cluster(&mut self, step: u32, environment: &str) -> Event {
        let Some(cluster) = self.clusters.get_mut(environment) else {
            return Event::new(
                step,
                "ops",
                format!("there is no {environment} cluster to lose"),
            )
            .refused();
        };
        let form = cluster.actual().form().clone();
        *cluster =
            crate::cluster::Cluster::new(environment, gitops_core::state::State::empty(form));
        if let Some(agent) = self.agent.as_mut() {
            agent.forget(environment);
        }
        Event::new(step, "ops", format!("the {environment} cluster is lost; a new, empty cluster and a new agent take its place"))
            .because("rebuilding a cluster is pointing a new agent at the repository")
    }

    fn confirm_prunes(&mut self, step: u32, by: &str, environment: &str) -> Event {
        let nothing = |why: &str| {
            Event::new(step, by, format!("confirmed no deletion in {environment}"))
                .because(why.to_string())
        };
        let Ok(desired) = self.desired_state(environment) else {
            return nothing("the head of Git does not read");
        };
        let options = self.reconcile_options(environment);
        let Some(cluster) = self.clusters.get_mut(environment) else {
            return nothing("there is no such cluster");
        };
        let plan = gitops_core::plan(&desired, cluster.actual(), &options);
        let waiting: Vec<String> = plan
            .iter()
            .filter(|op| {
                op.waits_for_confirmation() && !cluster.confirmed_prunes.contains(op.key())
            })
            .map(|op| op.key().to_string())
            .collect();
        if waiting.is_empty() {
            return nothing("no deletion waits for a person's confirmation");
        }
        cluster.confirmed_prunes.extend(waiting.iter().cloned());
        Event::new(
            step,
            by,
            format!(
                "confirmed the deletion of {} in {environment}",
                waiting.join(", ")
            ),
        )
        .because("Prune=confirm")
    }

    /// Step: `by` asks for the next operation of `environment`'s sync. In pull
    /// mode the agent applies it, with its own credential (as Argo CD's
    /// controller runs the sync a person asks for in its UI, `appcontroller.go`
    /// `processRequestedAppOperation`): the person's event, then the agent's,
    /// worded as the agent's own syncs are. In push mode there is no agent:
    /// the person applies it with the cluster credential they hold.
    fn apply_next(&mut self, step: u32, by: &str, environment: &str) -> (Event, Option<Event>, Option<Operation>) {
        let desired = match self.desired_state(environment) {
            Ok(desired) => desired,
            Err(error) => {
                let event = Event::new(step, by, format!("could not sync {environment}"));
                return (event.because(error.to_string()).refused(), None, None);
            }
        };
        let agent = self.agent.is_some();
        let options = self.reconcile_options(environment);
        let Some(cluster) = self.clusters.get_mut(environment) else {
            let event = Event::new(step, by, format!("could not sync {environment}"));
            return (event.because("there is no such cluster").refused(), None, None);
        };
        let plan = gitops_core::plan(&desired, cluster.actual(), &options);
        let Some(operation) = plan.iter().find(|operation| operation.changes_cluster()).cloned() else {
            let event = Event::new(step, by, format!("nothing to apply to {environment}"));
            return (event.because("the cluster already matches Git"), None, None);
        };
        let key = operation.key().to_string();
        let (ask, applier) = match agent {
            true => (
                Some(
                    Event::new(step, by, format!("asked the agent for the next operation of {environment}'s sync"))
                        .because("Step: a sync run one operation at a time, which the agent applies with its own credential")
                        .at(Place::Agent(environment.to_string()))
                        .on(&key),
                ),
                "agent",
            ),
            false => (None, by),
        };
        let what = |done: &str| format!("{done} {} {key} to {environment}", operation.verb());
        let hold = self.workspace.with(|workspace| {
            crate::agent::waves::hold(workspace, &desired, cluster.actual(), &plan, &cluster.confirmed_prunes)
        });
        // Worded before it runs, as the agent's syncs word theirs: a deletion names what it takes with it.
        let agents_act = agent.then(|| {
            operation_event(step, environment, &operation, &format!("{by} asked for the sync's next operation"), true, cluster.actual())
        });
        let (acted, applied) = match hold {
            Some(hold) => (Event::new(step, applier, what("could not apply")).because(hold.to_string()), false),
            None => match cluster.carry_out(&operation, &desired, &options) {
                Outcome::Accepted => match agents_act {
                    Some(event) => (event, true),
                    None => (
                        Event::new(step, by, what("applied")).because(
                            "a sync run one operation at a time: in push mode whoever holds the cluster's credential deploys",
                        ),
                        true,
                    ),
                },
                Outcome::Refused(refusal) => (
                    Event::new(step, applier, what("could not apply"))
                        .because(format!(
                            "the API server refused: {}; it does not change this field of an object in \
                             place, and a sync fails there (Force=true, or Flux's \
                             kustomize.toolkit.fluxcd.io/force: enabled, deletes and creates it instead)",
                            refusal.message
                        ))
                        .refused(),
                    false,
                ),
                Outcome::Recreated { why, .. } => (
                    Event::new(step, applier, format!("recreated {key} in {environment}: deleted it and created it again"))
                        .because(why),
                    true,
                ),
            },
        };
        let applied = applied.then_some(operation);
        let acted = acted.in_cluster(environment).on(&key);
        match ask {
            Some(ask) => (ask, Some(acted), applied),
            None => (acted, None, applied),
        }
    }

    /// The file changes that whole files (`write`, `remove`) and single
    /// fields (`set`) make to the head of Git.
    fn file_changes(
        &self,
        branch: Option<&str>,
        write: &Files,
        remove: &[String],
        set: &[FieldEdit],
    ) -> Result<FileChanges, String> {
        let new_branch = Files::new();
        let head = self
            .repository
            .head_of(branch.unwrap_or("main"))
            .map_or(&new_branch, |commit| &commit.files);
        let mut write = write.clone();
        for edit in set {
            let Some(content) = write.get(&edit.file).or_else(|| head.get(&edit.file)) else {
                return Err(format!("there is no file {}", edit.file));
            };
            let content = edit_as_values(&edit.file, content, &mut |values| {
                crate::cluster::set_pointer(values, &edit.path, edit.value.clone()).map(|_| ())
            })?;
            write.insert(edit.file.clone(), content);
        }
        Ok(FileChanges {
            write,
            remove: remove.to_vec(),
        })
    }

    fn edit_cluster(
        &mut self,
        step: u32,
        by: &str,
        environment: &str,
        key: &str,
        path: &str,
        value: &Value,
    ) -> Event {
        let Some(cluster) = self.clusters.get_mut(environment) else {
            return Event::new(step, by, format!("could not edit {key}"))
                .because(format!("there is no {environment} cluster"))
                .refused();
        };
        match cluster.set_field(key, path, value.clone(), crate::cluster::writer::KUBECTL_EDIT) {
            Ok(old) => {
                self.notify(Notice::Changed {
                    environment: environment.into(),
                    key: key.into(),
                });
                let place = match path {
                    "" => String::new(),
                    path => format!(" at {path}"),
                };
                let what = match old {
                    Some(old) if old == *value => format!(
                        "set {key} in {environment}{place} to {}, as it already was",
                        show(value)
                    ),
                    old => format!(
                        "changed {key} in {environment}{place} ({} → {})",
                        old.map_or("absent".into(), |old| show(&old)),
                        show(value)
                    ),
                };
                Event::new(step, by, what).because("a change made to the cluster, outside Git")
            }
            Err(error) => Event::new(step, by, format!("could not edit {key} in {environment}"))
                .because(error)
                .refused(),
        }
    }

    fn set_agent(
        &mut self,
        step: u32,
        change: impl FnOnce(&mut crate::agent::Agent),
        what: &str,
        why: &str,
    ) -> Event {
        match self.agent.as_mut() {
            Some(agent) => {
                change(agent);
                Event::new(step, "agent", what).because(why)
            }
            None => Event::new(step, "agent", "there is no agent").because("push mode has none"),
        }
    }


}

fn describe_files(changes: &FileChanges) -> String {
    let mut parts: Vec<String> = changes
        .write
        .keys()
        .map(|path| format!("writes {path}"))
        .collect();
    parts.extend(changes.remove.iter().map(|path| format!("removes {path}")));
    parts.join(", ")
}

fn show(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
