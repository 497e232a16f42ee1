//! What a tree of files declares for each environment, and how two trees,
//! commits or environments differ, object by object.

use super::Files;
use super::Repository;
use gitops_core::collect::{map_of, set_of};
use gitops_core::diff::changes::{changes, Change, Rules};
use gitops_core::diff::normalize::Mode;
use gitops_core::error::InputError;
use gitops_core::state::{Key, State};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

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
        Ok(diff_trees(&before.files, &after.files))
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
        let source = desired_state(files, from).map_err(|error| error.to_string())?;
        let target = desired_state(files, to).map_err(|error| error.to_string())?;
        Ok(diff_states(&target, &source))
    }
}

/// The environment a path belongs to: `envs/prod/web.yaml` is in `prod`.
pub fn environment_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("envs/")?;
    let (environment, file) = rest.split_once('/')?;
    (!environment.is_empty() && !file.is_empty()).then_some(environment)
}

/// The environments that have files.
pub fn environments_of(files: &Files) -> BTreeSet<String> {
    set_of(
        files
            .keys()
            .filter_map(|path| environment_of(path))
            .map(str::to_string),
    )
}

/// The desired state of an environment: every file under its directory,
/// read and put together. A file that does not read, files in different
/// forms, or one key in two files are errors, named by file; so is a
/// directory without a file (Argo CD's comparison fails on a missing path).
pub fn desired_state(files: &Files, environment: &str) -> Result<State, InputError> {
    if !files
        .keys()
        .any(|path| environment_of(path) == Some(environment))
    {
        return Err(missing_path(&format!("envs/{environment}")));
    }
    let mut merged: Option<(State, BTreeMap<String, String>)> = None;
    for (path, content) in files
        .iter()
        .filter(|(path, _)| environment_of(path) == Some(environment))
    {
        let state = match content {
            Value::String(text) => State::read_cached(path, text)?,
            other => State::from_value(path, other.clone())?,
        };
        let Some((combined, origins)) = merged.as_mut() else {
            let origins = map_of(
                state
                    .objects()
                    .keys()
                    .map(|key| (key.to_string(), path.clone())),
            );
            merged = Some((state, origins));
            continue;
        };
        if std::mem::discriminant(combined.form()) != std::mem::discriminant(state.form()) {
            return Err(InputError::shape(
                path,
                "",
                format!(
                    "this file is written in another form than {}",
                    origins.values().next().map_or("the others", String::as_str)
                ),
            ));
        }
        for (key, object) in state.objects() {
            if let Some(first) = origins.insert(key.to_string(), path.clone()) {
                return Err(InputError::duplicate_key(
                    path,
                    key,
                    format!("{key} is declared in {first} and again in {path}"),
                ));
            }
            combined.insert(key.clone(), object.clone());
        }
    }
    Ok(merged
        .map(|(state, _)| state)
        .unwrap_or_else(|| State::empty(gitops_core::state::Form::Named)))
}

/// The error of an environment's directory that no file is under: Git keeps
/// no empty directories, so the path does not exist at that revision, which
/// Argo CD reports as a failed comparison (its `app path does not exist`),
/// not as a desired state that declares nothing.
pub fn missing_path(directory: &str) -> InputError {
    InputError::shape(
        directory,
        "",
        "the path does not exist at this revision: no file is under it, and Git keeps no empty \
         directories (an empty desired state is a file that declares no object)",
    )
}

/// The object differences of every environment between two trees; an
/// environment whose files do not read is compared as empty.
pub fn diff_trees(before: &Files, after: &Files) -> BTreeMap<String, Vec<ObjectDiff>> {
    let mut environments = environments_of(before);
    environments.extend(environments_of(after));
    let diffs = environments.into_iter().map(|environment| {
        let diff = match (
            desired_state(before, &environment),
            desired_state(after, &environment),
        ) {
            (Ok(before), Ok(after)) => diff_states(&before, &after),
            (_, Err(error)) => vec![ObjectDiff {
                key: error.source,
                change: "cannot read",
                changes: Vec::new(),
            }],
            (Err(_), Ok(_)) => vec![ObjectDiff {
                key: format!("envs/{environment}"),
                change: "fixed",
                changes: Vec::new(),
            }],
        };
        (environment, diff)
    });
    map_of(diffs.filter(|(_, diff)| !diff.is_empty()))
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

/// Every difference from `before` to `after`, field by field, exactly (as
/// `git diff` shows it, but by object).
pub fn diff_states(before: &State, after: &State) -> Vec<ObjectDiff> {
    let keys: BTreeSet<&Key> = set_of(before.objects().keys().chain(after.objects().keys()));
    keys.into_iter()
        .filter_map(|key| {
            let (change, changes) = match (before.get(key), after.get(key)) {
                (None, Some(_)) => ("added", Vec::new()),
                (Some(_), None) => ("removed", Vec::new()),
                (Some(old), Some(new)) => {
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
                (None, None) => return None,
            };
            Some(ObjectDiff {
                key: key.to_string(),
                change,
                changes,
            })
        })
        .collect()
}
