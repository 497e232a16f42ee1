//! Where each environment's desired state is on the one branch: the
//! directory an Argo CD Application's `source.path` or a Flux
//! Kustomization's `spec.path` names. A scenario's top-level
//! `environments: {staging: {path: apps/staging}}` declares them; without
//! it, each `envs/<environment>/` that has files is an environment.

use super::Files;
use gitops_core::collect::set_of;
use std::collections::{BTreeMap, BTreeSet};

/// The environments a scenario declares, each with its directory (none:
/// they are found under `envs/`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Paths {
    declared: BTreeMap<String, String>,
}

/// The directory of an environment nobody declared: `envs/<environment>`.
pub fn default_path(environment: &str) -> String {
    format!("envs/{environment}")
}

/// Whether `path` is a file in `directory` or below it.
pub fn is_under(path: &str, directory: &str) -> bool {
    path.strip_prefix(directory)
        .is_some_and(|rest| rest.starts_with('/') && rest.len() > 1)
}

/// Whether any file is in `directory` or below it: Git keeps no empty
/// directories, so a directory with no file does not exist.
pub fn exists(files: &Files, directory: &str) -> bool {
    let prefix = format!("{directory}/");
    files
        .range(prefix.clone()..)
        .next()
        .is_some_and(|(path, _)| path.starts_with(&prefix))
}

impl Paths {
    /// These environments, each at its directory.
    pub fn declared(declared: BTreeMap<String, String>) -> Self {
        Paths { declared }
    }

    pub fn is_declared(&self) -> bool {
        !self.declared.is_empty()
    }

    /// The directory `environment`'s desired state is read from.
    pub fn of(&self, environment: &str) -> String {
        self.declared
            .get(environment)
            .cloned()
            .unwrap_or_else(|| default_path(environment))
    }

    /// The environment whose directory holds `path`: the deepest declared
    /// one, or `prod` for `envs/prod/web.yaml` when none is declared.
    pub fn environment_of(&self, path: &str) -> Option<String> {
        if self.is_declared() {
            return self
                .declared
                .iter()
                .filter(|(_, directory)| is_under(path, directory))
                .max_by_key(|(_, directory)| directory.len())
                .map(|(environment, _)| environment.clone());
        }
        let rest = path.strip_prefix("envs/")?;
        let (environment, file) = rest.split_once('/')?;
        (!environment.is_empty() && !file.is_empty()).then(|| environment.to_string())
    }

    /// The environments of a tree: the declared ones, or those with files
    /// under `envs/`.
    pub fn environments(&self, files: &Files) -> BTreeSet<String> {
        if self.is_declared() {
            return set_of(self.declared.keys().cloned());
        }
        set_of(files.keys().filter_map(|path| self.environment_of(path)))
    }
}

/// What is wrong with a declared path, if anything; `./apps/prod/` is read
/// as `apps/prod`.
pub fn normalized(path: &str) -> Result<String, String> {
    let trimmed = path.trim_start_matches("./").trim_end_matches('/');
    if trimmed.starts_with('/') {
        return Err(format!(
            "`{path}` is absolute; a path is a directory of the repository, written from its root (`apps/prod`)"
        ));
    }
    if trimmed
        .split('/')
        .any(|segment| segment.is_empty() || segment == "." || segment == "..")
    {
        return Err(format!(
            "`{path}` is not a directory of the repository; write one from its root, such as `apps/prod`"
        ));
    }
    Ok(trimmed.to_string())
}
