//! The person's working copies of Git's files, one file at a time: what they
//! typed into a file of the repository and have not committed, the desired state
//! the environment renders to with them, and their commit, which writes those
//! files and no other (as `git commit` of the files a person edited).

use crate::person::YOU;
use crate::repository::{FileChanges, Files};
use crate::World;
use gitops_core::text::edit::SharedText;
use gitops_core::{InputError, State};
use serde_json::Value;

impl World {
    /// The person's working copy of the file at `path` (as `desired_files`
    /// names it) in `environment`, while it says what Git's does not.
    pub fn file_draft(&self, environment: &str, path: &str) -> Option<&SharedText> {
        self.file_drafts
            .iter()
            .find(|(edited, at, _)| edited == environment && at == path)
            .map(|(.., text)| text)
    }

    /// Whether the person's working copy of `environment` is in its files.
    pub fn has_file_drafts(&self, environment: &str) -> bool {
        self.drafts_of(environment).next().is_some()
    }

    /// The files `environment` renders from with the person's working copies
    /// in place of Git's: Git's at the commit it follows, or the person's open
    /// pull request's where one waits.
    pub fn working_files(&self, environment: &str) -> Files {
        let mut files = self.files_in_git(environment);
        self.write_drafts(environment, &mut files);
        files
    }

    /// The files the person has a working copy of in `environment`, each with
    /// its text in Git (or in their open pull request).
    pub fn drafted_files_in_git(&self, environment: &str) -> Vec<(String, String)> {
        let in_git = self.files_in_git(environment);
        self.drafts_of(environment)
            .filter_map(|(path, _)| Some((path.clone(), file_text(path, in_git.get(path)?))))
            .collect()
    }

    /// Git's files at the commit `environment` follows, with the person's open
    /// pull request's changes where one waits.
    pub(crate) fn files_in_git(&self, environment: &str) -> Files {
        let files = self.desired_files(environment).1;
        match self.open_proposal(environment) {
            Some(pull) => pull.changes.applied_to(&files),
            None => Files::clone(&files),
        }
    }

    /// What `environment` renders to with the person's working copies of its
    /// files, while there are any; why not where one does not read.
    pub fn working_state(&self, environment: &str) -> Option<Result<State, InputError>> {
        if !self.has_file_drafts(environment) {
            return None;
        }
        let (files, directory) = (self.working_files(environment), self.desired_path(environment));
        Some(self.rendered(environment, &files, &directory))
    }

    /// Keeps `text` as the working copy of the file at `path`, or none where it
    /// is the file's text in Git (a change typed and typed back). `None` where
    /// `environment` has no such file.
    pub(crate) fn keep_file_draft(&mut self, environment: &str, path: &str, text: &SharedText) -> Option<bool> {
        self.forget_file_drafts(environment, Some(path));
        let in_git = self.files_in_git(environment).get(path).cloned()?;
        if file_text(path, &in_git) != **text {
            self.file_drafts.push((environment.to_string(), path.to_string(), text.clone()));
        }
        Some(true)
    }

    /// Commits the working copies of `environment`'s files with `message`
    /// (empty: the page's own), each as typed and no other file; or, where
    /// edits are reviewed, pushes them to the person's pull request. `None`
    /// while there are none, or they do not render (the agent could not read
    /// the commit).
    pub(crate) fn commit_files(&mut self, environment: &str, message: &str) -> Option<bool> {
        self.working_state(environment)?.ok()?;
        let mut write = Files::new();
        self.write_drafts(environment, &mut write);
        self.forget_file_drafts(environment, None);
        if self.edits_are_reviewed(environment) {
            let changes = self.working_files_changes(environment, write);
            self.propose_changes(environment, changes, message);
            return Some(true);
        }
        self.forget_applied();
        let (branch, changes) = self.on_its_branch(environment, FileChanges { write, remove: Vec::new() });
        self.commit_changes(YOU, environment, branch, changes, message);
        Some(true)
    }

    /// The changes of the person's open pull request with `write` written over
    /// them: a push to it keeps what it changed already.
    fn working_files_changes(&self, environment: &str, write: Files) -> FileChanges {
        let mut changes = self.open_proposal(environment).map(|pull| pull.changes.clone()).unwrap_or_default();
        changes.remove.retain(|path| !write.contains_key(path));
        changes.write.extend(write);
        changes
    }

    /// Forgets the working copy of the file at `path` in `environment`, or of all its files.
    fn forget_file_drafts(&mut self, environment: &str, path: Option<&str>) {
        self.file_drafts.retain(|(edited, at, _)| !(edited == environment && path.is_none_or(|path| at == path)));
    }

    /// The person's working copies of `environment`'s files, by path.
    fn drafts_of<'a>(&'a self, environment: &'a str) -> impl Iterator<Item = (&'a String, &'a SharedText)> {
        self.file_drafts.iter().filter(move |(edited, ..)| edited == environment).map(|(_, path, text)| (path, text))
    }

    /// Writes the working copies of `environment`'s files into `files`.
    fn write_drafts(&self, environment: &str, files: &mut Files) {
        for (path, text) in self.drafts_of(environment) {
            files.insert(path.clone(), Value::String(text.to_string()));
        }
    }
}

/// A file's content as its text: a text as written, values as its extension says.
pub fn file_text(path: &str, content: &Value) -> String {
    use gitops_core::state::render::{render_value, Format};
    match content {
        Value::String(text) => text.clone(),
        values if path.ends_with(".json") => render_value(values, Format::Json),
        values => render_value(values, Format::Yaml),
    }
}
