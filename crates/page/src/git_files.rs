//! The files of Git the environment on screen is rendered from: those under its
//! directory, and those its kustomization reads from elsewhere (a base), each as
//! its text, so that a student sees what Git holds and not only what it renders to.

use crate::model::Model;
use gitops_core::state::render::{render_value, Format};
use gitops_world::repository::{kustomize, paths::is_under, render};
use gitops_world::World;
use serde_json::Value;
use std::collections::BTreeSet;

/// A file of Git, as its text.
#[derive(Debug, Clone, PartialEq)]
pub struct GitFile {
    /// Its path in the repository.
    pub path: String,
    /// Whether it is under the environment's own directory, rather than read from
    /// elsewhere (a base of its kustomization).
    pub in_directory: bool,
    pub text: String,
}

/// The files of Git the environment on screen renders from.
#[derive(Debug, Clone, PartialEq)]
pub struct GitFiles {
    /// The commit they are read at, short.
    pub commit: String,
    /// Where Git keeps the environment (`envs/prod`, or `branch prod, app/`).
    pub source: String,
    /// Whether a kustomization builds the environment: a commit from the Desired
    /// pane cannot be written back into its files.
    pub kustomized: bool,
    /// The directory's files first, then those read from elsewhere, each in path order.
    pub files: Vec<GitFile>,
}

impl Model {
    /// The files of Git the environment on screen renders from, at the commit it follows.
    pub fn git_files(&self) -> GitFiles {
        git_files(&self.world, &self.environment)
    }
}

/// The files of Git `environment` renders from, at the commit it follows.
pub fn git_files(world: &World, environment: &str) -> GitFiles {
    let (commit, files) = world.desired_files(environment);
    let directory = world.desired_path(environment);
    let mut read = BTreeSet::new();
    let _ = world.workspace.with(|workspace| render(workspace, &files, &directory, &mut read));
    let under: BTreeSet<&String> = files.keys().filter(|path| is_under(path, &directory)).collect();
    let elsewhere = read.iter().filter(|path| !under.contains(path));
    let listed = under.iter().map(|path| (*path, true)).chain(elsewhere.map(|path| (path, false)));
    GitFiles {
        commit: commit.id.clone(),
        source: world.source_of(environment),
        kustomized: matches!(kustomize::kustomization_file(&files, &directory), Ok(Some(_))),
        files: listed
            .filter_map(|(path, in_directory)| {
                Some(GitFile { path: path.clone(), in_directory, text: text_of(path, files.get(path)?) })
            })
            .collect(),
    }
}

/// A file's content as its text: a text as written, values as its extension says.
fn text_of(path: &str, content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        values if path.ends_with(".json") => render_value(values, Format::Json),
        values => render_value(values, Format::Yaml),
    }
}
