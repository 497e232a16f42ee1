//! What the scripted actors do, and the events it leaves.

use crate::agent::Notice;
use crate::event::Event;
use crate::repository::file_edit::edit_as_values;
use crate::repository::kustomize::{edit, kustomization_file};
use crate::repository::paths::is_under;
use crate::repository::{desired_state, FileChanges};
use crate::scenario::{Files, Mode};
use crate::script::{ScriptedAction, FieldEdit};
use crate::World;
use gitops_core::image::image_fields;
use gitops_core::state::key_of;
use gitops_core::sync::immutable::Outcome;
use gitops_core::{Operation, Workspace};
use serde_json::Value;

impl World {
    /// Does `action` at `step` and records its event; the operation it
    /// applied to a cluster, when it applied one (`ApplyNext`).
    pub(super) fn act(&mut self, step: u32, action: &ScriptedAction) -> Option<Operation> {
        let mut applied = None;
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
            ScriptedAction::Merge { by, pull_request } => match self.repository.merge(*pull_request, by, step) {
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
                }
            }
            ScriptedAction::Sync { by, environment } => match self.agent.as_mut() {
                Some(agent) => {
                    agent.request_sync(environment);
                    Event::new(step, by, format!("asked the agent to sync {environment}"))
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
                let (event, operation) = self.apply_next(step, by, environment);
                applied = operation;
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
                let what = if found { format!("now wants {value}") } else { "is not a controller of this world".to_string() };
                Event::new(step, name, what).because(reason.clone())
            }
        };
        let place = event.place.clone().or_else(|| action.place());
        let mut event = Event { place, ..event };
        crate::credentials::name_credential(&mut event, Some(action), self.options.mode);
        self.events.push(event);
        applied
    }

    fn set_cluster(&mut self, step: u32, by: &str, environment: &str, state: &Value) -> Event {
        let Some(cluster) = self.clusters.get_mut(environment) else {
            return Event::new(
                step,
                by,
                format!("could not change the {environment} cluster"),
            )
            .because("there is no such cluster");
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
            );
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

    /// A pull request pinning the digest the tag points to now, in every
    /// image reference of `key` to that repository: in the `images:` of the
    /// environment's kustomization when it has one (argocd-image-updater's
    /// kustomize write-back), else in the file that declares `key`.
    fn update_image(
        &mut self,
        step: u32,
        by: &str,
        tag: &str,
        environment: &str,
        key: &str,
    ) -> Event {
        let refuse = |why: String| {
            Event::new(step, by, format!("could not update {key} to {tag}")).because(why)
        };
        let Some(image) = self.registry.resolve(tag) else {
            return refuse(format!("the registry has no {tag}"));
        };
        let repository = gitops_core::image::ImageReference::parse(tag)
            .repository
            .to_string();
        let pinned = format!("{repository}@{}", image.digest);
        let files = self.repository.head().files.clone();
        let directory = self.repository.paths().of(environment);
        let title = format!(
            "Update {key} in {environment} to {}",
            crate::registry::shorten_digests(&pinned)
        );
        let why = "the bot holds a token that opens pull requests on the state repository, and nothing else; review gates the change";
        if kustomization_file(&files, &directory)
            .ok()
            .flatten()
            .is_some()
        {
            let current = match self.workspace.with(|workspace| desired_state(workspace, &files, &directory)) {
                Ok(state) => state,
                Err(error) => return refuse(error.to_string()),
            };
            let Some(object) = current.get(key) else {
                return refuse(format!("{key} is not in {directory}"));
            };
            let wanted: Vec<(String, String)> = image_fields(object, true)
                .into_iter()
                .filter(|(_, image)| {
                    gitops_core::image::ImageReference::parse(image).repository == repository
                })
                .map(|(pointer, _)| (pointer, pinned.clone()))
                .collect();
            if wanted.is_empty() {
                return refuse(format!("{key} runs no image of {repository}"));
            }
            return match overlay_with_images(&files, &directory, key, &wanted) {
                Ok((path, content)) => {
                    let changes = FileChanges {
                        write: Files::from([(path, content)]),
                        remove: Vec::new(),
                    };
                    let number = self.repository.open_pull_request(by, &title, changes, step);
                    Event::new(step, by, format!("opened pull request #{number}: {title}"))
                        .because(why)
                }
                Err(error) => refuse(error),
            };
        }
        let Some((path, content)) = file_declaring(&files, &directory, key) else {
            return refuse(format!("{key} is not in {directory}"));
        };
        let mut updated = content.clone();
        let Some(target) = object_in_file_mut(&mut updated, key) else {
            return refuse(format!("{path} is text"));
        };
        let fields: Vec<String> = image_fields(&*target, true)
            .into_iter()
            .filter(|(_, image)| {
                gitops_core::image::ImageReference::parse(image).repository == repository
            })
            .map(|(pointer, _)| pointer)
            .collect();
        if fields.is_empty() {
            return refuse(format!("{key} runs no image of {repository}"));
        }
        for pointer in &fields {
            if let Err(error) =
                crate::cluster::set_pointer(target, pointer, Value::String(pinned.clone()))
            {
                return refuse(error);
            }
        }
        let changes = FileChanges {
            write: Files::from([(path, updated)]),
            remove: Vec::new(),
        };
        let number = self.repository.open_pull_request(by, &title, changes, step);
        Event::new(step, by, format!("opened pull request #{number}: {title}")).because(why)
    }

    /// Applies the first operation of `environment`'s plan that changes the
    /// cluster: the event, and the operation when there was one.
    /// Approves the deletions of the environment's plan that wait for a
    /// person (`Prune=confirm`), as Argo CD's Confirm sets
    /// `argocd.argoproj.io/deletion-approved` on the Application.
    fn confirm_prunes(&mut self, step: u32, by: &str, environment: &str) -> Event {
        let nothing = |why: &str| {
            Event::new(step, by, format!("confirmed no deletion in {environment}"))
                .because(why.to_string())
        };
        let Ok(desired) = self.desired_state(environment) else {
            return nothing("the head of Git does not read");
        };
        let options = self.options.reconcile();
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

    fn apply_next(&mut self, step: u32, by: &str, environment: &str) -> (Event, Option<Operation>) {
        let desired = match self.desired_state(environment) {
            Ok(desired) => desired,
            Err(error) => {
                let event = Event::new(step, by, format!("could not sync {environment}"));
                return (event.because(error.to_string()), None);
            }
        };
        let Some(cluster) = self.clusters.get_mut(environment) else {
            let event = Event::new(step, by, format!("could not sync {environment}"));
            return (event.because("there is no such cluster"), None);
        };
        let options = self.options.reconcile();
        let plan = gitops_core::plan(&desired, cluster.actual(), &options);
        let Some(operation) = plan
            .iter()
            .find(|operation| operation.changes_cluster())
            .cloned()
        else {
            let event = Event::new(step, by, format!("nothing to apply to {environment}"));
            return (event.because("the cluster already matches Git"), None);
        };
        let what = |done: &str| {
            format!(
                "{done} {} {} to {environment}",
                operation.verb(),
                operation.key()
            )
        };
        if let Some(hold) =
            self.workspace.with(|workspace| {
                crate::agent::waves::hold(workspace, &desired, cluster.actual(), &plan, &cluster.confirmed_prunes)
            })
        {
            let event = Event::new(step, by, what("could not apply")).because(hold.to_string());
            return (event, None);
        }
        let event = match cluster.carry_out(&operation, &desired, &options) {
            Outcome::Accepted => {
                Event::new(step, by, what("applied")).because("a sync run one operation at a time")
            }
            Outcome::Refused(refusal) => {
                let event = Event::new(step, by, what("could not apply")).because(format!(
                    "the API server refused: {}; it does not change this field of an object in \
                     place, and a sync fails there (Force=true, or Flux's \
                     kustomize.toolkit.fluxcd.io/force: enabled, deletes and creates it instead)",
                    refusal.message
                ));
                return (event, None);
            }
            Outcome::Recreated { why, .. } => Event::new(
                step,
                by,
                format!(
                    "recreated {} in {environment}: deleted it and created it again",
                    operation.key()
                ),
            )
            .because(why),
        };
        (event, Some(operation))
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
                .because(format!("there is no {environment} cluster"));
        };
        match cluster.set_field(key, path, value.clone()) {
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
                .because(error),
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

    /// Opens a pull request that copies the image references of `key` from
    /// one environment's rendered state to the next one's directory: into
    /// the `images:` of its kustomization when it has one (as Kargo's
    /// kustomize-set-image step does), else into the file declaring `key`.
    fn promote(&mut self, step: u32, author: &str, key: &str, from: &str, to: &str) -> Event {
        let refuse = |why: String| {
            Event::new(
                step,
                author,
                format!("could not promote {key} from {from} to {to}"),
            )
            .because(why)
        };
        let files = self.repository.head().files.clone();
        let (from_directory, to_directory) = (
            self.repository.paths().of(from),
            self.repository.paths().of(to),
        );
        let source = match self.workspace.with(|workspace| desired_state(workspace, &files, &from_directory)) {
            Ok(state) => state,
            Err(error) => return refuse(error.to_string()),
        };
        let Some(object) = source.get(key) else {
            return refuse(format!("{key} is not in {from_directory}"));
        };
        let images = image_fields(object, true);
        if images.is_empty() {
            return refuse(format!("{key} in {from} names no image"));
        }
        let list: Vec<String> = images
            .iter()
            .map(|(_, image)| crate::registry::shorten_digests(image))
            .collect();
        let title = format!("Promote {key} to {to}: {}", list.join(", "));
        let overlay = match kustomization_file(&files, &to_directory) {
            Ok(Some(_)) => {
                let wanted: Vec<(String, String)> = images
                    .iter()
                    .map(|(pointer, image)| (pointer.clone(), image.to_string()))
                    .collect();
                match overlay_with_images(&files, &to_directory, key, &wanted) {
                    Ok(overlay) => Some(overlay),
                    Err(error) => return refuse(error),
                }
            }
            _ => None,
        };
        if let Some((path, content)) = overlay {
            let changes = FileChanges {
                write: Files::from([(path.clone(), content)]),
                remove: Vec::new(),
            };
            let number = self
                .repository
                .open_pull_request(author, &title, changes, step);
            return Event::new(step, author, format!("opened pull request #{number}: {title}"))
                .because(format!("a promotion sets the image {from} runs in the `images:` of {path}, the overlay of {to}"));
        }
        let Some((path, content)) = file_declaring(&files, &to_directory, key) else {
            return refuse(format!("{key} is not in {to_directory}"));
        };
        let updated = edit_as_values(&path, &content, &mut |values| {
            let target =
                object_in_file_mut(values, key).ok_or_else(|| format!("{key} is not in {path}"))?;
            for (pointer, image) in &images {
                crate::cluster::set_pointer(target, pointer, Value::String(image.to_string()))?;
            }
            Ok(())
        });
        let updated = match updated {
            Ok(updated) => updated,
            Err(error) => return refuse(error),
        };
        let changes = FileChanges {
            write: Files::from([(path.clone(), updated)]),
            remove: Vec::new(),
        };
        let number = self
            .repository
            .open_pull_request(author, &title, changes, step);
        Event::new(
            step,
            author,
            format!("opened pull request #{number}: {title}"),
        )
        .because(format!(
            "a promotion copies the image reference from {from_directory} to {to_directory}"
        ))
    }
}

/// The file in `directory` that declares `key`.
fn file_declaring(files: &Files, directory: &str, key: &str) -> Option<(String, Value)> {
    files
        .iter()
        .filter(|(path, _)| is_under(path, directory))
        .find(|(path, content)| {
            let single = Files::from([((*path).clone(), (*content).clone())]);
            desired_state(&mut Workspace::new(), &single, directory).is_ok_and(|state| state.get(key).is_some())
        })
        .map(|(path, content)| (path.clone(), content.clone()))
}

/// The kustomization of `directory` with its `images:` set, as
/// `kustomize edit set image` sets them, so that each field of `key` that
/// `wanted` names (by JSON pointer) renders as the reference given; an
/// error when the file is text or the entries would not reach the field.
fn overlay_with_images(
    files: &Files,
    directory: &str,
    key: &str,
    wanted: &[(String, String)],
) -> Result<(String, Value), String> {
    let path = kustomization_file(files, directory)
        .map_err(|error| error.to_string())?
        .ok_or_else(|| format!("{directory} has no kustomization"))?;
    let content = edit_as_values(&path, &files[&path], &mut |content| {
        for (_, reference) in wanted {
            let repository = gitops_core::image::ImageReference::parse(reference).repository;
            let name = edit::entry_for(content, repository);
            edit::set_image(content, &name, reference)?;
        }
        Ok(())
    })?;
    let mut edited = files.clone();
    edited.insert(path.clone(), content.clone());
    let rendered = desired_state(&mut Workspace::new(), &edited, directory).map_err(|error| error.to_string())?;
    let object = rendered
        .get(key)
        .ok_or_else(|| format!("{key} is not in {directory}"))?;
    for (pointer, reference) in wanted {
        if object.pointer(pointer).and_then(Value::as_str) != Some(reference) {
            return Err(format!(
                "`images:` in {path} would not set {key} at {pointer} to {reference}: the object names its image otherwise"
            ));
        }
    }
    Ok((path, content))
}

/// The object of a file's content that has `key`: the content itself, an
/// entry of the lesson's form, or an item of a list.
fn object_in_file_mut<'v>(content: &'v mut Value, key: &str) -> Option<&'v mut Value> {
    let is_it = |item: &Value| key_of(item).as_deref() == Some(key);
    if is_it(content) {
        return Some(content);
    }
    let is_list = content.get("items").is_some_and(Value::is_array);
    if content.is_object() && !is_list {
        return content.get_mut(key);
    }
    let items = match content {
        Value::Array(items) => items,
        Value::Object(fields) => fields.get_mut("items")?.as_array_mut()?,
        _ => return None,
    };
    items.iter_mut().find(|item| is_it(item))
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
