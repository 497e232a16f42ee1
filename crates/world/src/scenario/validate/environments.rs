//! Where a scenario's environments live in Git: the paths `environments`
//! declares, and the branches `layout: branches` goes with.

use crate::scenario::{InitialRepository, Layout, Paths};
use gitops_core::error::InputError;
use serde_json::Value;
use std::collections::BTreeMap;

/// The paths `environments` declares, each a directory of the repository;
/// with a branch per environment, each is its branch's `app/` instead.
pub(super) fn environment_paths(
    source: &str,
    environments: &BTreeMap<String, Value>,
    layout: Layout,
) -> Result<Paths, InputError> {
    if layout == Layout::Branches && !environments.is_empty() {
        return Err(InputError::shape(
            source,
            "/environments",
            "with `layout: branches` each environment is its branch's `app/`; declare environments by their branches",
        ));
    }
    let mut declared = BTreeMap::new();
    for (environment, spec) in environments {
        let at = format!(
            "/environments/{}",
            gitops_core::pointer::escape(environment)
        );
        let refuse = |at: String, why: String| InputError::shape(source, at, why);
        let fields = match spec {
            Value::Null => Default::default(),
            Value::Object(fields) => fields.clone(),
            other => {
                let why = format!(
                    "an environment is `{{path: apps/{environment}}}`; found {}",
                    gitops_core::state::describe(other)
                );
                return Err(refuse(at, why));
            }
        };
        if let Some(field) = fields.keys().find(|field| *field != "path") {
            let why = format!("unknown field `{field}`; an environment has a `path`");
            return Err(refuse(
                format!("{at}/{}", gitops_core::pointer::escape(field)),
                why,
            ));
        }
        let path = match fields.get("path") {
            None | Some(Value::Null) => crate::repository::paths::default_path(environment),
            Some(Value::String(path)) => crate::repository::paths::normalized(path)
                .map_err(|why| refuse(format!("{at}/path"), why))?,
            Some(other) => {
                let why = format!(
                    "a path is text, found {}",
                    gitops_core::state::describe(other)
                );
                return Err(refuse(format!("{at}/path"), why));
            }
        };
        declared.insert(environment.clone(), path);
    }
    Ok(Paths::declared(declared))
}

/// Branches go with `layout: branches`, and their files live under `app/`.
pub(super) fn check_layout(
    source: &str,
    repository: &InitialRepository,
    layout: Layout,
) -> Result<(), InputError> {
    if layout == Layout::Directories && !repository.branches.is_empty() {
        return Err(InputError::shape(
            source,
            "/repository/branches",
            "branches per environment need `options.layout: branches`",
        ));
    }
    for (branch, files) in &repository.branches {
        if let Some(path) = files.keys().find(|path| !path.starts_with("app/")) {
            let pointer = format!(
                "/repository/branches/{branch}/{}",
                gitops_core::pointer::escape(path)
            );
            return Err(InputError::shape(
                source,
                pointer,
                format!("a branch holds its environment's files under `app/` (`app/{path}`)"),
            ));
        }
    }
    Ok(())
}
