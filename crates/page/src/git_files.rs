//! The files of Git the environment on screen is rendered from: those under its
//! directory, and those its kustomization reads from elsewhere (a base), each as
//! its text, or the person's working copy of it, so that a student sees and edits
//! what Git holds and not only what it renders to.

use crate::model::Model;
use gitops_world::repository::{paths::is_under, render};
use gitops_world::{file_text, World};
use std::collections::BTreeSet;

/// A file of Git, as its text.
#[derive(Debug, Clone, PartialEq)]
pub struct GitFile {
    /// Its path in the repository.
    pub path: String,
    /// Whether it is under the environment's own directory, rather than read from
    /// elsewhere (a base of its kustomization).
    pub in_directory: bool,
    /// The person's working copy of it where they have typed one, else Git's text.
    pub text: String,
    /// Whether `text` is the person's working copy.
    pub edited: bool,
}

/// The files of Git the environment on screen renders from.
#[derive(Debug, Clone, PartialEq)]
pub struct GitFiles {
    /// The commit they are read at, short.
    pub commit: String,
    /// Where Git keeps the environment (`envs/prod`, or `branch prod, app/`).
    pub source: String,
    /// Whether the files take typing: not while the Desired pane holds a working
    /// copy of the whole render (one working copy at a time).
    pub editable: bool,
    /// The directory's files first, then those read from elsewhere, each in path order.
    pub files: Vec<GitFile>,
}

impl Model {
    /// The files of Git the environment on screen renders from, at the commit it follows.
    pub fn git_files(&self) -> GitFiles {
        git_files(&self.world, &self.environment)
    }
}

/// The files of Git `environment` renders from, at the commit it follows, with
/// the person's working copies in place of Git's texts.
pub fn git_files(world: &World, environment: &str) -> GitFiles {
    let commit = world.desired_files(environment).0.id.clone();
    let files = world.working_files(environment);
    let directory = world.desired_path(environment);
    let mut read = BTreeSet::new();
    let _ = world.workspace.with(|workspace| render(workspace, &files, &directory, &mut read));
    // A file typed broken stays in the list, though the render stopped before reading it.
    read.extend(files.keys().filter(|path| world.file_draft(environment, path).is_some()).cloned());
    let under: BTreeSet<&String> = files.keys().filter(|path| is_under(path, &directory)).collect();
    let elsewhere = read.iter().filter(|path| !under.contains(path));
    let listed = under.iter().map(|path| (*path, true)).chain(elsewhere.map(|path| (path, false)));
    GitFiles {
        commit,
        source: world.source_of(environment),
        editable: world.draft(environment).is_none(),
        files: listed
            .filter_map(|(path, in_directory)| {
                Some(GitFile {
                    path: path.clone(),
                    in_directory,
                    text: file_text(path, files.get(path)?),
                    edited: world.file_draft(environment, path).is_some(),
                })
            })
            .collect(),
    }
}
