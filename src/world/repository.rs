//! The state repository: commits of files, where `envs/<environment>/`
//! holds the desired state of each environment; its log, reverts, diffs and
//! pull requests.

use super::scenario::{Files, Layout};
use crate::core::changes::{changes, Change, Rules};
use crate::core::error::InputError;
use crate::core::normalize::Mode;
use crate::core::state::{Key, State};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

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
    pub files: Files,
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
        let mut next = files.clone();
        for path in &self.remove {
            next.remove(path);
        }
        next.extend(self.write.clone());
        next
    }

    fn paths(&self) -> impl Iterator<Item = &String> {
        self.write.keys().chain(&self.remove)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PullRequestStatus {
    Open,
    Merged,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PullRequest {
    pub number: u32,
    pub author: String,
    pub title: String,
    pub step: u32,
    pub changes: FileChanges,
    pub approvals: Vec<String>,
    pub status: PullRequestStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_as: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Repository {
    /// Oldest first.
    commits: Vec<Commit>,
    /// Branches other than `main`, each oldest first.
    branches: BTreeMap<String, Vec<Commit>>,
    pull_requests: Vec<PullRequest>,
    protected: Vec<String>,
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
        };
        repository.add_commit(author, message, files, 0);
        repository
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
        all.sort_by_key(|commit| commit.step);
        all.into_iter().rev()
    }

    pub fn pull_requests(&self) -> &[PullRequest] {
        &self.pull_requests
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
            files,
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
    pub fn environment_files(&self, environment: &str, layout: Layout) -> (&Commit, Files) {
        match (layout, self.head_of(environment)) {
            (Layout::Branches, Some(head)) => (head, branch_view(environment, &head.files)),
            (Layout::Branches, None) => (self.head(), Files::new()),
            (Layout::Directories, _) => (self.head(), self.head().files.clone()),
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
            files,
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
        let mut merged = ours.clone();
        for path in theirs.keys().chain(base.keys()).collect::<BTreeSet<_>>() {
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

    /// Replaces the files of the newest commit (`git commit --amend`); the
    /// first commit is never amended. Returns the new id.
    pub fn amend(&mut self, files: Files) -> Option<&Commit> {
        if self.commits.len() < 2 {
            return None;
        }
        let last = self.commits.pop()?;
        Some(self.add_commit(&last.author, &last.message, files, last.step))
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
                .commits
                .iter()
                .chain(self.branches.values().flatten())
                .find(|commit| commit.id.starts_with(name)),
        }
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
        let mut files = self.head().files.clone();
        let touched: BTreeSet<&String> = target.files.keys().chain(parent.files.keys()).collect();
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

    pub fn open_pull_request(
        &mut self,
        author: &str,
        title: &str,
        changes: FileChanges,
        step: u32,
    ) -> u32 {
        let number = self.pull_requests.len() as u32 + 1;
        self.pull_requests.push(PullRequest {
            number,
            author: author.into(),
            title: title.into(),
            step,
            changes,
            approvals: Vec::new(),
            status: PullRequestStatus::Open,
            merged_as: None,
        });
        number
    }

    fn pull_request_mut(&mut self, number: u32) -> Result<&mut PullRequest, String> {
        let pull_request = self
            .pull_requests
            .iter_mut()
            .find(|pull_request| pull_request.number == number)
            .ok_or_else(|| format!("there is no pull request #{number}"))?;
        match pull_request.status {
            PullRequestStatus::Open => Ok(pull_request),
            PullRequestStatus::Merged => Err(format!("pull request #{number} is already merged")),
        }
    }

    /// Replaces what an open pull request changes (a new push to its branch);
    /// approvals given to the earlier changes no longer count.
    pub fn revise_pull_request(&mut self, number: u32, changes: FileChanges) -> bool {
        match self.pull_request_mut(number) {
            Ok(pull_request) => {
                pull_request.changes = changes;
                pull_request.approvals.clear();
                true
            }
            Err(_) => false,
        }
    }

    pub fn approve(&mut self, number: u32, by: &str) -> Result<(), String> {
        let pull_request = self.pull_request_mut(number)?;
        if pull_request.author == by {
            return Err(format!(
                "{by} wrote pull request #{number} and cannot approve it"
            ));
        }
        if !pull_request.approvals.iter().any(|approver| approver == by) {
            pull_request.approvals.push(by.into());
        }
        Ok(())
    }

    /// The environments a pull request changes that need a review.
    fn protected_environments_of(&self, changes: &FileChanges) -> BTreeSet<String> {
        changes
            .paths()
            .filter_map(|path| environment_of(path))
            .filter(|environment| {
                self.protected
                    .iter()
                    .any(|protected| protected == environment)
            })
            .map(str::to_string)
            .collect()
    }

    pub fn merge(&mut self, number: u32, by: &str, step: u32) -> Result<&Commit, String> {
        let pull_request = self.pull_request_mut(number)?.clone();
        let protected = self.protected_environments_of(&pull_request.changes);
        let reviewed = pull_request
            .approvals
            .iter()
            .any(|approver| *approver != pull_request.author);
        if !protected.is_empty() && !reviewed {
            let environments: Vec<String> = protected.into_iter().collect();
            return Err(format!(
                "pull request #{number} changes {} and needs an approval by someone other than {}",
                environments.join(", "),
                pull_request.author
            ));
        }
        let message = format!("Merge pull request #{number}: {}", pull_request.title);
        let id = self
            .commit(by, &message, &pull_request.changes, step)
            .id
            .clone();
        let merged = self.pull_request_mut(number)?;
        merged.status = PullRequestStatus::Merged;
        merged.merged_as = Some(id);
        Ok(self.head())
    }
}

/// Feeds what is written straight to the hash, so that a large file is
/// not first copied into one more string.
struct HashWriter<'a>(&'a mut Sha256);

impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn commit_id(parent: Option<&str>, author: &str, message: &str, files: &Files) -> String {
    let mut hash = Sha256::new();
    hash.update(parent.unwrap_or("").as_bytes());
    hash.update(b"\0");
    hash.update(author.as_bytes());
    hash.update(b"\0");
    hash.update(message.as_bytes());
    hash.update(b"\0");
    let mut writer = std::io::BufWriter::with_capacity(64 * 1024, HashWriter(&mut hash));
    let _ = serde_json::to_writer(&mut writer, files);
    let _ = std::io::Write::flush(&mut writer);
    drop(writer);
    hash.finalize()
        .iter()
        .take(4)
        .map(|byte| format!("{byte:02x}"))
        .collect::<String>()[..7]
        .to_string()
}

/// A branch's files as an environment's directory: `app/web.yaml` on branch
/// `prod` is `envs/prod/web.yaml`.
pub fn branch_view(environment: &str, files: &Files) -> Files {
    files
        .iter()
        .filter_map(|(path, content)| {
            Some((
                format!("envs/{environment}/{}", path.strip_prefix("app/")?),
                content.clone(),
            ))
        })
        .collect()
}

/// Changes to an environment's directory as changes to its branch's `app/`.
pub fn on_branch(environment: &str, changes: &FileChanges) -> FileChanges {
    let prefix = format!("envs/{environment}/");
    let move_path = |path: &String| path.strip_prefix(&prefix).map(|rest| format!("app/{rest}"));
    FileChanges {
        write: changes
            .write
            .iter()
            .filter_map(|(path, content)| Some((move_path(path)?, content.clone())))
            .collect(),
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
            for name in theirs.keys().chain(base.keys()).collect::<BTreeSet<_>>() {
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

/// The environment a path belongs to: `envs/prod/web.yaml` is in `prod`.
pub fn environment_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("envs/")?;
    let (environment, file) = rest.split_once('/')?;
    (!environment.is_empty() && !file.is_empty()).then_some(environment)
}

/// The environments that have files.
pub fn environments_of(files: &Files) -> BTreeSet<String> {
    files
        .keys()
        .filter_map(|path| environment_of(path))
        .map(str::to_string)
        .collect()
}

/// The desired state of an environment: every file under its directory,
/// read and put together. A file that does not read, files in different
/// forms, or one key in two files are errors, named by file.
pub fn desired_state(files: &Files, environment: &str) -> Result<State, InputError> {
    let mut merged: Option<(State, BTreeMap<String, String>)> = None;
    for (path, content) in files
        .iter()
        .filter(|(path, _)| environment_of(path) == Some(environment))
    {
        let state = match content {
            Value::String(text) => State::parse(path, text)?,
            other => State::from_value(path, other.clone())?,
        };
        let Some((combined, origins)) = merged.as_mut() else {
            let origins = state
                .objects()
                .keys()
                .map(|key| (key.to_string(), path.clone()))
                .collect();
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
        .unwrap_or_else(|| State::empty(crate::core::state::Form::Named)))
}

/// The object differences of every environment between two trees; an
/// environment whose files do not read is compared as empty.
pub fn diff_trees(before: &Files, after: &Files) -> BTreeMap<String, Vec<ObjectDiff>> {
    let environments: BTreeSet<String> = environments_of(before)
        .into_iter()
        .chain(environments_of(after))
        .collect();
    environments
        .into_iter()
        .map(|environment| {
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
        })
        .filter(|(_, diff)| !diff.is_empty())
        .collect()
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
    let keys: BTreeSet<&Key> = before
        .objects()
        .keys()
        .chain(after.objects().keys())
        .collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn files(entries: &[(&str, Value)]) -> Files {
        entries
            .iter()
            .map(|(path, value)| (path.to_string(), value.clone()))
            .collect()
    }

    fn repository() -> Repository {
        Repository::new(
            "alice",
            "Initial state",
            files(&[
                ("envs/prod/web.json", json!({"web": {"image": "web:1"}})),
                ("envs/staging/web.json", json!({"web": {"image": "web:2"}})),
            ]),
            vec!["prod".into()],
        )
    }

    fn branches() -> Repository {
        let mut repo = repository();
        let web = |replicas: u32| {
            files(&[(
                "app/web.json",
                json!({"web": {"image": "web:1", "replicas": replicas}}),
            )])
        };
        repo.create_branch("prod", "alice", "Initial state", web(3), 0);
        repo.create_branch("staging", "alice", "Initial state", web(1), 0);
        repo
    }

    fn set(path: &str, value: Value) -> FileChanges {
        FileChanges {
            write: files(&[(path, value)]),
            remove: Vec::new(),
        }
    }

    #[test]
    fn a_merge_keeps_both_sides_changes_and_carries_what_differs() {
        let mut repo = branches();
        repo.commit_on(
            "staging",
            "alice",
            "Release",
            &set(
                "app/web.json",
                json!({"web": {"image": "web:2", "replicas": 1}}),
            ),
            1,
        );
        repo.commit_on(
            "prod",
            "bob",
            "Label",
            &set(
                "app/web.json",
                json!({"web": {"image": "web:1", "replicas": 3, "team": "shop"}}),
            ),
            2,
        );
        repo.merge_branch("staging", "prod", "alice", 3).unwrap();
        let (head, prod) = repo.environment_files("prod", Layout::Branches);
        assert_eq!(head.message, "Merge branch staging into prod");
        assert_eq!(
            prod["envs/prod/web.json"],
            json!({"web": {"image": "web:2", "replicas": 1, "team": "shop"}})
        );
        assert_eq!(
            repo.log().next().map(|commit| commit.branch.as_deref()),
            Some(Some("prod"))
        );
    }

    #[test]
    fn a_second_merge_brings_only_what_changed_since_the_first() {
        let mut repo = branches();
        repo.merge_branch("staging", "prod", "alice", 1).unwrap();
        repo.commit_on(
            "prod",
            "bob",
            "Scale prod back",
            &set(
                "app/web.json",
                json!({"web": {"image": "web:1", "replicas": 3}}),
            ),
            2,
        );
        repo.commit_on(
            "staging",
            "alice",
            "Release",
            &set(
                "app/web.json",
                json!({"web": {"image": "web:2", "replicas": 1}}),
            ),
            3,
        );
        repo.merge_branch("staging", "prod", "alice", 4).unwrap();
        let (_, prod) = repo.environment_files("prod", Layout::Branches);
        assert_eq!(
            prod["envs/prod/web.json"],
            json!({"web": {"image": "web:2", "replicas": 3}})
        );
        assert!(repo
            .merge_branch("nowhere", "prod", "alice", 5)
            .unwrap_err()
            .contains("no branch nowhere"));
    }

    #[test]
    fn an_environment_without_a_branch_declares_nothing() {
        let repo = branches();
        assert!(repo.environment_files("qa", Layout::Branches).1.is_empty());
        assert_eq!(
            repo.environment_files("prod", Layout::Directories).1,
            repo.head().files
        );
    }

    #[test]
    fn commits_have_stable_ids_and_a_log() {
        let mut repo = repository();
        let first = repo.head().id.clone();
        assert_eq!(
            first,
            repository().head().id,
            "the same content gives the same id"
        );
        let change = FileChanges {
            write: files(&[("envs/prod/web.json", json!({"web": {"image": "web:3"}}))]),
            ..FileChanges::default()
        };
        repo.commit("bob", "Bump web", &change, 2);
        let log: Vec<&str> = repo.log().map(|commit| commit.message.as_str()).collect();
        assert_eq!(log, ["Bump web", "Initial state"]);
        assert_eq!(repo.find("HEAD~1").unwrap().id, first);
        assert_eq!(repo.find(&first[..4]).unwrap().id, first);
    }

    #[test]
    fn a_revert_puts_back_what_the_commit_changed() {
        let mut repo = repository();
        let before = repo.head().files.clone();
        let change = FileChanges {
            write: files(&[("envs/prod/web.json", json!({"web": {"image": "bad"}}))]),
            remove: vec!["envs/staging/web.json".into()],
        };
        repo.commit("bob", "Break things", &change, 1);
        let reverted = repo.revert("HEAD", "carol", 2).unwrap();
        assert_eq!(reverted.files, before);
        assert_eq!(reverted.message, "Revert \"Break things\"");
        assert!(repo
            .revert("HEAD~2", "carol", 3)
            .unwrap_err()
            .contains("first commit"));
    }

    #[test]
    fn production_needs_a_review_by_someone_else() {
        let mut repo = repository();
        let change = FileChanges {
            write: files(&[("envs/prod/web.json", json!({"web": {"image": "web:2"}}))]),
            ..FileChanges::default()
        };
        let number = repo.open_pull_request("alice", "Promote web", change, 1);
        assert!(repo
            .merge(number, "alice", 2)
            .unwrap_err()
            .contains("approval by someone other than alice"));
        assert!(repo
            .approve(number, "alice")
            .unwrap_err()
            .contains("cannot approve"));
        repo.approve(number, "bob").unwrap();
        let merged = repo.merge(number, "alice", 3).unwrap().id.clone();
        assert_eq!(
            repo.pull_requests()[0].merged_as.as_deref(),
            Some(merged.as_str())
        );
        assert!(repo.merge(number, "alice", 4).is_err(), "merged once");
    }

    #[test]
    fn staging_needs_no_review() {
        let mut repo = repository();
        let change = FileChanges {
            write: files(&[("envs/staging/web.json", json!({"web": {"image": "web:4"}}))]),
            ..FileChanges::default()
        };
        let number = repo.open_pull_request("alice", "Try web 4", change, 1);
        assert!(repo.merge(number, "alice", 2).is_ok());
    }

    #[test]
    fn an_environment_is_its_directory() {
        let tree = files(&[
            (
                "envs/prod/a.json",
                json!([{"kind": "Service", "metadata": {"name": "a"}}]),
            ),
            (
                "envs/prod/b.yaml",
                json!("kind: Service\nmetadata:\n  name: b\n"),
            ),
            ("README.md", json!("# state")),
        ]);
        let keys: Vec<String> = desired_state(&tree, "prod")
            .unwrap()
            .objects()
            .keys()
            .map(|key| key.to_string())
            .collect();
        assert_eq!(keys, ["Service/a", "Service/b"]);
        assert_eq!(
            environments_of(&tree).into_iter().collect::<Vec<_>>(),
            ["prod"]
        );
        let twice = files(&[
            ("envs/prod/a.json", json!({"web": {}})),
            ("envs/prod/b.json", json!({"web": {}})),
        ]);
        assert!(desired_state(&twice, "prod")
            .unwrap_err()
            .to_string()
            .contains("declared in envs/prod/a.json and again in envs/prod/b.json"));
        let broken = files(&[("envs/prod/a.yaml", json!("web: [1,"))]);
        assert_eq!(
            desired_state(&broken, "prod").unwrap_err().source,
            "envs/prod/a.yaml"
        );
    }

    #[test]
    fn diffs_between_commits_and_environments() {
        let mut repo = repository();
        let change = FileChanges {
            write: files(&[(
                "envs/prod/web.json",
                json!({"web": {"image": "web:2"}, "db": {"image": "pg"}}),
            )]),
            ..FileChanges::default()
        };
        repo.commit("bob", "Promote", &change, 1);
        let diff = repo.diff_commits("HEAD~1", "HEAD").unwrap();
        assert_eq!(diff.keys().collect::<Vec<_>>(), ["prod"]);
        let kinds: Vec<(&str, &str)> = diff["prod"]
            .iter()
            .map(|d| (d.key.as_str(), d.change))
            .collect();
        assert_eq!(kinds, [("db", "added"), ("web", "changed")]);
        let between = repo.diff_environments("HEAD", "staging", "prod").unwrap();
        assert_eq!(
            between.iter().map(|d| d.key.as_str()).collect::<Vec<_>>(),
            ["db"],
            "staging and prod now run the same web"
        );
        assert!(repo.diff_commits("nope", "HEAD").is_err());
    }

    #[test]
    fn diffs_show_each_object_field_by_field() {
        let repo = repository();
        let prod = desired_state(&repo.head().files, "prod").unwrap();
        let staging = desired_state(&repo.head().files, "staging").unwrap();
        let diff = diff_states(&prod, &staging);
        assert_eq!(diff.len(), 1);
        assert_eq!(diff[0].changes[0].path, "/image");
        assert_eq!(diff[0].changes[0].from, Some(json!("web:1")));
        assert_eq!(diff[0].changes[0].to, Some(json!("web:2")));
    }
}
