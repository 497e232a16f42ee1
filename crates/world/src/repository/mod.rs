//! The state repository: commits of files, where a directory of each
//! environment (`envs/<environment>/`, or the path a scenario declares)
//! holds its desired state; its log, amends and reverts. `branches` keeps
//! an environment per branch, `pull_requests` their reviews and merges,
//! `paths` where each environment is, `trees` what the files declare and
//! how two trees differ, `kustomize` the overlays Argo CD and Flux build.

mod branches;
pub mod file_edit;
pub mod flux;
pub mod kustomize;
pub mod paths;
mod pull_requests;
mod trees;
mod write_back;

pub use branches::{branch_view, on_branch};
pub use paths::Paths;
pub use write_back::{extension_of, written_back};
pub use pull_requests::{PullRequest, PullRequestStatus};
pub use trees::{
    desired_state, diff_files, diff_states, diff_trees, list_object_changes, missing_path, render,
    touched_environments, FileDiff, ObjectDiff,
};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use gitops_core::value::digest::{feed_len, feed_str, feed_value};
use xxhash_rust::xxh64::Xxh64;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The environment that `desired` and `actual` stand for.
pub const DEFAULT_ENVIRONMENT: &str = "prod";

/// A repository's files: path to content, a JSON value or a text (JSON or
/// YAML, possibly broken on purpose).
pub type Files = BTreeMap<String, Value>;

/// Where each environment's desired state lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Layout {
    /// One branch, a directory per environment (`envs/<environment>/`).
    #[default]
    Directories,
    /// A branch per environment, each with its `app/` directory.
    Branches,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Commit {
    /// A short hash of the commit's parent, author, message and files.
    pub id: String,
    pub parent: Option<String>,
    pub author: String,
    pub message: String,
    pub step: u32,
    /// The branch, when it is not `main`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// For a merge of branches, the commit merged in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged: Option<String>,
    #[serde(skip)]
    pub files: Rc<Files>,
}

/// What a commit or a pull request changes.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FileChanges {
    #[serde(skip_serializing_if = "Files::is_empty")]
    pub write: Files,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
}

impl FileChanges {
    pub fn applied_to(&self, files: &Files) -> Files {
        // The files written or removed are not copied first: one can be megabytes.
        let mut next = self.write.clone();
        for (path, content) in files {
            if !self.write.contains_key(path) && !self.remove.contains(path) {
                next.insert(path.clone(), content.clone());
            }
        }
        next
    }

    pub(crate) fn paths(&self) -> impl Iterator<Item = &String> + Clone {
        self.write.keys().chain(&self.remove)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Repository {
    /// Oldest first.
    commits: Vec<Commit>,
    /// Branches other than `main`, each oldest first.
    branches: BTreeMap<String, Vec<Commit>>,
    pull_requests: Vec<PullRequest>,
    protected: Vec<String>,
    /// Where each environment's directory is on `main`.
    paths: Paths,
}

impl Repository {
    /// A repository with one commit; pull requests into the `protected`
    /// environments need an approval by someone other than their author.
    pub fn new(author: &str, message: &str, files: Files, protected: Vec<String>) -> Self {
        let mut repository = Repository {
            commits: Vec::new(),
            branches: BTreeMap::new(),
            pull_requests: Vec::new(),
            protected,
            paths: Paths::default(),
        };
        repository.add_commit(author, message, files, 0);
        repository
    }

    /// The same repository with each environment read from its declared path.
    pub fn with_paths(mut self, paths: Paths) -> Self {
        self.paths = paths;
        self
    }

    pub fn paths(&self) -> &Paths {
        &self.paths
    }

    /// The directory an environment's desired state is read from in the
    /// files `environment_files` gives: its path on `main`, or, with a
    /// branch per environment, the branch's `app/` (as `envs/<environment>`).
    pub fn path_of(&self, environment: &str, layout: Layout) -> String {
        match layout {
            Layout::Directories => self.paths.of(environment),
            Layout::Branches => paths::default_path(environment),
        }
    }

    pub fn head(&self) -> &Commit {
        self.commits
            .last()
            .expect("a repository has its first commit")
    }

    /// Every commit of every branch, newest first.
    pub fn log(&self) -> impl Iterator<Item = &Commit> {
        let mut all: Vec<&Commit> = self
            .commits
            .iter()
            .chain(self.branches.values().flatten())
            .collect();
        gitops_core::collect::sort_by_key(&mut all, |commit| commit.step);
        all.into_iter().rev()
    }

    fn add_commit(&mut self, author: &str, message: &str, files: Files, step: u32) -> &Commit {
        let parent = self.commits.last().map(|commit| commit.id.clone());
        let id = commit_id(parent.as_deref(), author, message, &files);
        self.commits.push(Commit {
            id,
            parent,
            author: author.into(),
            message: message.into(),
            step,
            branch: None,
            merged: None,
            files: Rc::new(files),
        });
        self.head()
    }

    pub fn commit(
        &mut self,
        author: &str,
        message: &str,
        changes: &FileChanges,
        step: u32,
    ) -> &Commit {
        let files = changes.applied_to(&self.head().files);
        self.add_commit(author, message, files, step)
    }

    /// Replaces the files of the newest commit (`git commit --amend`); the
    /// first commit is never amended. Returns the new id.
    pub fn amend(&mut self, files: Files) -> Option<&Commit> {
        if self.commits.len() < 2 {
            return None;
        }
        let last = self.commits.pop()?;
        Some(self.add_commit(&last.author, &last.message, files, last.step))
    }

    /// Takes main's last commit away (an edit undone before anything else happened);
    /// the first commit stays.
    pub fn drop_head(&mut self) {
        if self.commits.len() >= 2 {
            self.commits.pop();
        }
    }

    /// A commit: `HEAD`, `HEAD~n`, or an id (or the start of one).
    pub fn find(&self, name: &str) -> Option<&Commit> {
        let back = match name {
            "HEAD" => Some(0),
            _ => name
                .strip_prefix("HEAD~")
                .and_then(|n| n.parse::<usize>().ok()),
        };
        match back {
            Some(back) => self
                .commits
                .len()
                .checked_sub(back + 1)
                .map(|index| &self.commits[index]),
            None if name.is_empty() => None,
            None => self
                .all_commits()
                .find(|commit| commit.id.starts_with(name))
                .or_else(|| self.find_by_legacy_id(name)),
        }
    }

    fn all_commits(&self) -> impl Iterator<Item = &Commit> {
        self.commits.iter().chain(self.branches.values().flatten())
    }

    /// The commit an earlier build's id (or the start of one) names. A commit comes
    /// after its parent in `all_commits` (each branch's line is oldest first and starts
    /// with a commit of its own), so one pass works out each legacy id from its parent's.
    fn find_by_legacy_id(&self, name: &str) -> Option<&Commit> {
        if name.len() > 7 || !name.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            return None;
        }
        // Each commit's id beside its legacy id: a list, where a map's code would cost more
        // of the page than the few commits of an old link's session take to search.
        let mut legacy: Vec<(&str, String)> = Vec::new();
        for commit in self.all_commits() {
            let parent = commit.parent.as_deref().and_then(|parent| legacy.iter().find(|(id, _)| *id == parent));
            let id = legacy_commit_id(parent.map(|(_, legacy)| legacy.as_str()), &commit.author, &commit.message, &commit.files);
            if id.starts_with(name) {
                return Some(commit);
            }
            legacy.push((&commit.id, id));
        }
        None
    }

    /// A commit that puts back, in every file the named commit changed, what
    /// its parent had: a rollback is a revert, reviewed like any change.
    pub fn revert(&mut self, name: &str, author: &str, step: u32) -> Result<&Commit, String> {
        let target = self
            .find(name)
            .ok_or_else(|| format!("there is no commit {name}"))?
            .clone();
        if let Some(branch) = &target.branch {
            return Err(format!("{} is on branch {branch}: with a branch per environment, undo it with a commit there", target.id));
        }
        let Some(parent) = target
            .parent
            .as_deref()
            .and_then(|id| self.find(id))
            .cloned()
        else {
            return Err(format!(
                "{} is the first commit: there is nothing before it to go back to",
                target.id
            ));
        };
        let mut files = Files::clone(&self.head().files);
        let touched: BTreeSet<&String> =
            gitops_core::collect::set_of(target.files.keys().chain(parent.files.keys()));
        for path in touched {
            if target.files.get(path) == parent.files.get(path) {
                continue;
            }
            match parent.files.get(path) {
                Some(content) => files.insert(path.clone(), content.clone()),
                None => files.remove(path),
            };
        }
        let message = format!("Revert \"{}\"", target.message);
        Ok(self.add_commit(author, &message, files, step))
    }
}

/// A commit's id: the first seven hex digits of XXH64 over its parent's id, its
/// author, its message and its files, each length-prefixed, a file's content by its
/// kind and parts (a text's own bytes, not its JSON), so that a commit of a state of
/// megabytes takes milliseconds.
fn commit_id(parent: Option<&str>, author: &str, message: &str, files: &Files) -> String {
    let mut hash = Xxh64::new(0);
    for part in [parent.unwrap_or(""), author, message] {
        feed_str(&mut hash, part);
    }
    feed_len(&mut hash, files.len());
    for (path, content) in files {
        feed_str(&mut hash, path);
        feed_value(&mut hash, content);
    }
    format!("{:016x}", hash.digest())[..7].to_string()
}

/// The id earlier builds of the playground gave a commit: the first seven hex digits
/// of SHA-256 over its parent's (legacy) id, its author, its message and its files'
/// compact JSON, which took a fifth of a second for a state of 10,000 objects. Links
/// made with those builds name commits by it (a revert), so `find` still knows it.
fn legacy_commit_id(parent: Option<&str>, author: &str, message: &str, files: &Files) -> String {
    let mut hash = Sha256::new();
    for part in [parent.unwrap_or(""), author, message] {
        hash.update(part.as_bytes());
        hash.update(b"\0");
    }
    // Written into memory first: a legacy id is worked out only for an old link's revert.
    hash.update(serde_json::to_vec(files).unwrap_or_default());
    hash.finalize()
        .iter()
        .take(4)
        .map(|byte| format!("{byte:02x}"))
        .collect::<String>()[..7]
        .to_string()
}

#[cfg(test)]
mod tests;
