//! What a tree of files declares for each environment, and how two trees,
//! commits or environments differ, object by object.

use super::kustomize;
use super::paths::{exists, is_under, Paths};
use super::Files;
use super::Repository;
use crate::event::first_and_more;
use gitops_core::collect::{map_of, set_of};
use gitops_core::diff::changes::{changes, Change, Rules};
use gitops_core::diff::normalize::Mode;
use gitops_core::error::InputError;
use gitops_core::state::pairs::{pairs, Pair};
use gitops_core::state::State;
use gitops_core::Workspace;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

impl Repository {
    /// What changed from commit `from` to commit `to`, by environment and
    /// object (`git diff from to`, read as objects).
    pub fn diff_commits(
        &self,
        from: &str,
        to: &str,
    ) -> Result<BTreeMap<String, Vec<ObjectDiff>>, String> {
        let before = self
            .find(from)
            .ok_or_else(|| format!("there is no commit {from}"))?;
        let after = self
            .find(to)
            .ok_or_else(|| format!("there is no commit {to}"))?;
        Ok(diff_trees(&mut Workspace::new(), &before.files, &after.files, &self.paths))
    }

    /// What differs between two environments at a commit (`git diff` of two
    /// directories): what a promotion from `from` to `to` would change.
    pub fn diff_environments(
        &self,
        commit: &str,
        from: &str,
        to: &str,
    ) -> Result<Vec<ObjectDiff>, String> {
        let files = &self
            .find(commit)
            .ok_or_else(|| format!("there is no commit {commit}"))?
            .files;
        let workspace = &mut Workspace::new();
        let source = desired_state(workspace, files, &self.paths.of(from)).map_err(|error| error.to_string())?;
        let target = desired_state(workspace, files, &self.paths.of(to)).map_err(|error| error.to_string())?;
        Ok(diff_states(&target, &source))
    }
}

/// The desired state of the environment whose directory is `directory`:
/// its `kustomization.yaml` built, as Argo CD and Flux build one, or else
/// every file under it read and put together. A file that does not read,
/// files in different forms, one key in two files, or a directory with no
/// file at all (a path that does not exist) are errors, named by file.
pub fn desired_state(workspace: &mut Workspace, files: &Files, directory: &str) -> Result<State, InputError> {
    render(workspace, files, directory, &mut BTreeSet::new())
}

/// The desired state of `directory`, noting in `read` every file it reads.
pub fn render(
    workspace: &mut Workspace,
    files: &Files,
    directory: &str,
    read: &mut BTreeSet<String>,
) -> Result<State, InputError> {
    if kustomize::kustomization_file(files, directory)?.is_some() {
        return kustomize::build(workspace, files, directory, read);
    }
    if !exists(files, directory) {
        return Err(missing_path(directory));
    }
    // The objects read so far, the first file's path, and each object's file, for
    // the message when two files declare one object: the files are noted only
    // once a second file joins (most directories hold one).
    let mut merged: Option<(State, String, BTreeMap<String, String>)> = None;
    for (path, content) in files.iter().filter(|(path, _)| is_under(path, directory)) {
        read.insert(path.clone());
        let state = workspace.read_file(path, content)?;
        let Some((combined, first_path, origins)) = merged.as_mut() else {
            merged = Some((state, path.clone(), BTreeMap::new()));
            continue;
        };
        if std::mem::discriminant(combined.form()) != std::mem::discriminant(state.form()) {
            return Err(InputError::shape(
                path,
                "",
                format!("this file is written in another form than {first_path}"),
            ));
        }
        if origins.is_empty() {
            origins.extend(combined.objects().keys().map(|key| (key.to_string(), first_path.clone())));
        }
        for (key, object) in state.objects() {
            if let Some(first) = origins.insert(key.to_string(), path.clone()) {
                return Err(InputError::duplicate_key(
                    path,
                    key,
                    format!("{key} is declared in {first} and again in {path}"),
                ));
            }
            combined.insert_shared(key.clone(), object.clone());
        }
    }
    Ok(merged
        .map(|(state, _, _)| state)
        .unwrap_or_else(|| State::empty(gitops_core::state::Form::Named)))
}

/// A path with no file under it, which Argo CD and Flux cannot render
/// (Argo CD: "app path does not exist"; Flux: "kustomization path not
/// found"): not an environment that declares nothing, which is a file
/// that declares no object.
pub fn missing_path(directory: &str) -> InputError {
    InputError::shape(
        directory,
        "",
        "the path does not exist at this revision: no file is under it, and Git keeps no empty \
         directories (an empty desired state is a file that declares no object)",
    )
}

/// The environments a change of `changed` paths touches: those with a
/// changed file in their directory, or whose render reads one before or
/// after (a shared base a kustomization includes).
pub fn touched_environments<'p>(
    workspace: &mut Workspace,
    before: &Files,
    after: &Files,
    changed: impl Iterator<Item = &'p String> + Clone,
    paths: &Paths,
) -> BTreeSet<String> {
    let mut environments = paths.environments(before);
    environments.extend(paths.environments(after));
    environments.retain(|environment| {
        let directory = paths.of(environment);
        let mut read = BTreeSet::new();
        let _ = render(workspace, before, &directory, &mut read);
        let _ = render(workspace, after, &directory, &mut read);
        changed
            .clone()
            .any(|path| is_under(path, &directory) || read.contains(path))
    });
    environments
}

/// The object differences of every environment between two trees; an
/// environment whose files do not read is compared as empty.
pub fn diff_trees(
    workspace: &mut Workspace,
    before: &Files,
    after: &Files,
    paths: &Paths,
) -> BTreeMap<String, Vec<ObjectDiff>> {
    let mut environments = paths.environments(before);
    environments.extend(paths.environments(after));
    let diffs = environments.into_iter().map(|environment| {
        let directory = paths.of(&environment);
        let diff = match (
            desired_state(workspace, before, &directory),
            desired_state(workspace, after, &directory),
        ) {
            (Ok(before), Ok(after)) => diff_states(&before, &after),
            (_, Err(error)) => vec![ObjectDiff {
                key: error.source,
                change: "cannot read",
                changes: Vec::new(),
            }],
            (Err(_), Ok(_)) => vec![ObjectDiff {
                key: directory,
                change: "fixed",
                changes: Vec::new(),
            }],
        };
        (environment, diff)
    });
    map_of(diffs.filter(|(_, diff)| !diff.is_empty()))
}

/// How one file differs between two commits, as Git shows it: a file
/// written as a JSON value field by field, one written as text by the
/// lines that changed (a unified diff's hunk, `-12,3 +12,2`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileDiff {
    pub path: String,
    /// `added`, `removed` or `changed`.
    pub change: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<String>,
}

/// Every file that differs from `before` to `after`, in path order.
pub fn diff_files(before: &Files, after: &Files) -> Vec<FileDiff> {
    let paths: BTreeSet<&String> = set_of(before.keys().chain(after.keys()));
    paths
        .into_iter()
        .filter_map(|path| {
            let (change, changes, lines) = match (before.get(path), after.get(path)) {
                (None, Some(_)) => ("added", Vec::new(), None),
                (Some(_), None) => ("removed", Vec::new(), None),
                (Some(old), Some(new)) if old == new => return None,
                (Some(Value::String(old)), Some(Value::String(new))) => {
                    ("changed", Vec::new(), Some(hunk(old, new)))
                }
                (Some(old), Some(new)) if old.is_string() || new.is_string() => {
                    ("changed", Vec::new(), None)
                }
                (Some(old), Some(new)) => {
                    let rules = Rules {
                        mode: Mode::Exact,
                        ignored: &[],
                    };
                    ("changed", changes(new, old, None, rules), None)
                }
                (None, None) => return None,
            };
            Some(FileDiff {
                path: path.clone(),
                change,
                changes,
                lines,
            })
        })
        .collect()
}

/// The lines that differ between two texts, as one unified diff hunk:
/// `-start,count +start,count`, between the lines both keep at each end.
fn hunk(old: &str, new: &str) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let same_start = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let same_end = old[same_start..]
        .iter()
        .rev()
        .zip(new[same_start..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let range = |lines: &[&str]| {
        let count = lines.len() - same_start - same_end;
        let start = if count == 0 {
            same_start
        } else {
            same_start + 1
        };
        format!("{start},{count}")
    };
    format!("-{} +{}", range(&old), range(&new))
}

/// How one key differs between two desired states.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjectDiff {
    pub key: String,
    /// `added`, `removed` or `changed`.
    pub change: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
}

const LISTED_OBJECTS: usize = 10;

/// `removed api, changed web, added y`: what happened to each object, the first
/// `LISTED_OBJECTS` of them and then how many more, so that an event about a paste
/// of thousands of objects stays a line a person reads (and the page lays out);
/// nothing when no object changed.
pub fn list_object_changes(changes: &[ObjectDiff]) -> Option<String> {
    (!changes.is_empty()).then(|| {
        first_and_more(changes, LISTED_OBJECTS, |diff| format!("{} {}", diff.change, diff.key))
    })
}

/// Every difference from `before` to `after`, field by field, exactly (as
/// `git diff` shows it, but by object).
pub fn diff_states(before: &State, after: &State) -> Vec<ObjectDiff> {
    // `pairs` walks its first state (here `before`) as "desired", its second as "actual".
    pairs(before, after)
        .filter_map(|pair| {
            let (change, changes) = match pair {
                Pair::Desired(..) => ("removed", Vec::new()),
                Pair::Actual(..) => ("added", Vec::new()),
                // A read shares the objects its edit did not touch: the same object.
                Pair::Both(_, old, new, _) if Arc::ptr_eq(old, new) => return None,
                Pair::Both(_, old, new, _) => {
                    let found = changes(
                        new,
                        old,
                        None,
                        Rules {
                            mode: Mode::Exact,
                            ignored: &[],
                        },
                    );
                    if found.is_empty() {
                        return None;
                    }
                    ("changed", found)
                }
            };
            Some(ObjectDiff {
                key: pair.key().to_string(),
                change,
                changes,
            })
        })
        .collect()
}
