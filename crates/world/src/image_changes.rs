//! What the image updater and a promotion commit: an image reference of an
//! object changed in Git, in the `images:` of the environment's kustomization when
//! it has one, else in the file that declares the object, as a pull request.

use crate::event::Event;
use crate::repository::file_edit::edit_as_values;
use crate::repository::kustomize::{edit, kustomization_file};
use crate::repository::paths::is_under;
use crate::repository::{desired_state, FileChanges};
use crate::scenario::Files;
use crate::World;
use gitops_core::image::image_fields;
use gitops_core::state::key_of;
use gitops_core::Workspace;
use serde_json::Value;

impl World {
    /// A pull request pinning the digest the tag points to now, in every
    /// image reference of `key` to that repository: in the `images:` of the
    /// environment's kustomization when it has one (argocd-image-updater's
    /// kustomize write-back), else in the file that declares `key`.
    pub(crate) fn update_image(
        &mut self,
        step: u32,
        by: &str,
        tag: &str,
        environment: &str,
        key: &str,
    ) -> Event {
        let refuse = |why: String| {
            Event::new(step, by, format!("could not update {key} to {tag}")).because(why).refused()
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
            return match self.workspace.with(|workspace| overlay_with_images(workspace, &files, &directory, key, &wanted)) {
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
        let Some((path, content)) = self.workspace.with(|workspace| file_declaring(workspace, &files, &directory, key)) else {
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
    /// Opens a pull request that copies the image references of `key` from
    /// one environment's rendered state to the next one's directory: into
    /// the `images:` of its kustomization when it has one (as Kargo's
    /// kustomize-set-image step does), else into the file declaring `key`.
    pub(crate) fn promote(&mut self, step: u32, author: &str, key: &str, from: &str, to: &str) -> Event {
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
                match self.workspace.with(|workspace| overlay_with_images(workspace, &files, &to_directory, key, &wanted)) {
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
        let Some((path, content)) = self.workspace.with(|workspace| file_declaring(workspace, &files, &to_directory, key)) else {
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
fn file_declaring(workspace: &mut Workspace, files: &Files, directory: &str, key: &str) -> Option<(String, Value)> {
    files
        .iter()
        .filter(|(path, _)| is_under(path, directory))
        .find(|(path, content)| {
            let single = Files::from([((*path).clone(), (*content).clone())]);
            desired_state(workspace, &single, directory).is_ok_and(|state| state.get(key).is_some())
        })
        .map(|(path, content)| (path.clone(), content.clone()))
}

/// The kustomization of `directory` with its `images:` set, as
/// `kustomize edit set image` sets them, so that each field of `key` that
/// `wanted` names (by JSON pointer) renders as the reference given; an
/// error when the file is text or the entries would not reach the field.
fn overlay_with_images(
    workspace: &mut Workspace,
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
    let rendered = desired_state(workspace, &edited, directory).map_err(|error| error.to_string())?;
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

