//! Environments kept as branches (the `branches` layout): a branch's files
//! are its environment's directory, and promoting is merging branches as
//! Git merges them.

use super::commit_id;
use super::{Commit, FileChanges, Repository};
use super::{Files, Layout};
use gitops_core::collect::{map_of, set_of};
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

impl Repository {
    /// The newest commit of a branch (`main` or another).
    pub fn head_of(&self, branch: &str) -> Option<&Commit> {
        match branch {
            "main" => self.commits.last(),
            other => self.branches.get(other)?.last(),
        }
    }

    /// The commit an environment follows and its files, as `envs/<environment>/`
    /// files: the head of `main` with directories per environment, or the
    /// head of the environment's own branch, whose `app/` is its directory.
    /// Without a branch of its own, an environment follows `main` and
    /// declares nothing.
    pub fn environment_files(&self, environment: &str, layout: Layout) -> (&Commit, Rc<Files>) {
        match (layout, self.head_of(environment)) {
            (Layout::Branches, Some(head)) => (head, Rc::new(branch_view(environment, &head.files))),
            (Layout::Branches, None) => (self.head(), Rc::default()),
            (Layout::Directories, _) => (self.head(), Rc::clone(&self.head().files)),
        }
    }

    /// Starts a branch other than `main` with its first commit.
    pub fn create_branch(
        &mut self,
        branch: &str,
        author: &str,
        message: &str,
        files: Files,
        step: u32,
    ) {
        let changes = FileChanges {
            write: files,
            remove: Vec::new(),
        };
        self.commit_on(branch, author, message, &changes, step);
    }

    /// The branches other than `main`, with their commits oldest first.
    pub fn branches(&self) -> &BTreeMap<String, Vec<Commit>> {
        &self.branches
    }

    /// A commit on a branch other than `main` (the branch starts with it if new).
    pub fn commit_on(
        &mut self,
        branch: &str,
        author: &str,
        message: &str,
        changes: &FileChanges,
        step: u32,
    ) -> &Commit {
        let line = self.branches.entry(branch.to_string()).or_default();
        let parent = line.last();
        let files = changes.applied_to(
            &parent
                .map(|commit| commit.files.clone())
                .unwrap_or_default(),
        );
        let parent = parent.map(|commit| commit.id.clone());
        let id = commit_id(parent.as_deref(), author, message, &files);
        line.push(Commit {
            id,
            parent,
            author: author.into(),
            message: message.into(),
            step,
            branch: Some(branch.into()),
            merged: None,
            files: Rc::new(files),
        });
        line.last().expect("just pushed")
    }

    /// Merges branch `from` into branch `to`: every change `from` made since
    /// they last met comes along (merging is the deployment); where both
    /// changed an object, `from`'s changes are merged over `to`'s. They last
    /// met at the commit of `from` merged last, else at `to`'s first commit.
    pub fn merge_branch(
        &mut self,
        from: &str,
        to: &str,
        by: &str,
        step: u32,
    ) -> Result<&Commit, String> {
        let source = self
            .branches
            .get(from)
            .ok_or_else(|| format!("there is no branch {from}"))?;
        let target = self
            .branches
            .get(to)
            .ok_or_else(|| format!("there is no branch {to}"))?;
        let last_merged = target.iter().rev().find_map(|commit| {
            let merged = commit.merged.as_ref()?;
            source.iter().find(|candidate| candidate.id == *merged)
        });
        let base = last_merged
            .or(target.first())
            .map(|commit| commit.files.clone())
            .unwrap_or_default();
        let merged_id = source.last().map(|commit| commit.id.clone());
        let theirs = source
            .last()
            .map(|commit| commit.files.clone())
            .unwrap_or_default();
        let ours = target
            .last()
            .map(|commit| commit.files.clone())
            .unwrap_or_default();
        let mut merged = Files::clone(&ours);
        for path in set_of(theirs.keys().chain(base.keys())) {
            let (was, mine, incoming) = (base.get(path), ours.get(path), theirs.get(path));
            if incoming == was {
                continue;
            }
            match (incoming, mine) {
                (None, _) => {
                    merged.remove(path);
                }
                (Some(incoming), Some(mine))
                    if mine != was.unwrap_or(&serde_json::Value::Null) && mine != incoming =>
                {
                    let base_object = was.cloned().unwrap_or(serde_json::Value::Null);
                    let combined = three_way(incoming, mine, &base_object);
                    merged.insert(path.clone(), combined);
                }
                (Some(incoming), _) => {
                    merged.insert(path.clone(), incoming.clone());
                }
            }
        }
        let changes = FileChanges {
            write: merged.clone(),
            remove: ours
                .keys()
                .filter(|path| !merged.contains_key(*path))
                .cloned()
                .collect(),
        };
        self.commit_on(
            to,
            by,
            &format!("Merge branch {from} into {to}"),
            &changes,
            step,
        );
        let commit = self
            .branches
            .get_mut(to)
            .and_then(|line| line.last_mut())
            .ok_or("the merge made no commit")?;
        commit.merged = merged_id;
        Ok(commit)
    }

    /// Amends the newest commit of a branch other than `main`, never its first.
    pub fn amend_on(&mut self, branch: &str, files: Files) -> Option<&Commit> {
        let line = self
            .branches
            .get_mut(branch)
            .filter(|line| line.len() >= 2)?;
        let last = line.pop()?;
        let changes = FileChanges {
            write: files,
            remove: Vec::new(),
        };
        let parent_files = line
            .last()
            .map(|commit| commit.files.clone())
            .unwrap_or_default();
        let changes = FileChanges {
            remove: parent_files
                .keys()
                .filter(|path| !changes.write.contains_key(*path))
                .cloned()
                .collect(),
            ..changes
        };
        Some(self.commit_on(branch, &last.author, &last.message, &changes, last.step))
    }
}

/// A branch's files as an environment's directory: `app/web.yaml` on branch
/// `prod` is `envs/prod/web.yaml`.
pub fn branch_view(environment: &str, files: &Files) -> Files {
    map_of(files.iter().filter_map(|(path, content)| {
        Some((
            format!("envs/{environment}/{}", path.strip_prefix("app/")?),
            content.clone(),
        ))
    }))
}

/// Changes to an environment's directory as changes to its branch's `app/`.
pub fn on_branch(environment: &str, changes: &FileChanges) -> FileChanges {
    let prefix = format!("envs/{environment}/");
    let move_path = |path: &String| path.strip_prefix(&prefix).map(|rest| format!("app/{rest}"));
    FileChanges {
        write: map_of(
            changes
                .write
                .iter()
                .filter_map(|(path, content)| Some((move_path(path)?, content.clone()))),
        ),
        remove: changes.remove.iter().filter_map(move_path).collect(),
    }
}

/// Two versions of a document that changed since `base`, merged as Git
/// merges them: each side's changes are kept; where both changed the same
/// field differently, `incoming` wins (the merge is the deployment).
fn three_way(incoming: &Value, current: &Value, base: &Value) -> Value {
    if incoming == base {
        return current.clone();
    }
    if current == base || incoming == current {
        return incoming.clone();
    }
    match (incoming, current, base) {
        (Value::Object(theirs), Value::Object(ours), base) => {
            let empty = serde_json::Map::new();
            let base = base.as_object().unwrap_or(&empty);
            let mut merged = ours.clone();
            for name in set_of(theirs.keys().chain(base.keys())) {
                let was = base.get(name).cloned().unwrap_or(Value::Null);
                let mine = ours.get(name).cloned().unwrap_or(Value::Null);
                match theirs.get(name) {
                    Some(incoming) => {
                        merged.insert(name.clone(), three_way(incoming, &mine, &was));
                    }
                    None if mine == was => {
                        merged.remove(name);
                    }
                    None => {}
                }
            }
            Value::Object(merged)
        }
        (Value::Array(theirs), Value::Array(ours), Value::Array(base))
            if theirs.len() == ours.len() && ours.len() == base.len() =>
        {
            Value::Array(
                theirs
                    .iter()
                    .zip(ours)
                    .zip(base)
                    .map(|((incoming, current), base)| three_way(incoming, current, base))
                    .collect(),
            )
        }
        _ => incoming.clone(),
    }
}
