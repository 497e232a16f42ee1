//! A script's step read: `{"at": 3, "do": "commit", "author": "alice", ...}`.
//!
//! Each action takes its fields, each read by `serde` as its type, and says
//! which it lacks or does not know in `serde`'s words (`missing field`,
//! `unknown field`, `unknown variant`). A derived reader of the enum writes a
//! reader of each action's fields: 4 KB more of the page's packed wasm
//! (docs/benchmarks.md).

use super::{FieldEdit, ScriptStep, ScriptedAction};
use crate::repository::Files;
use gitops_core::text::typed::fields::{any_value, only_known, optional, required};
use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The actions as a script names them (`reconcile` is also `sync`), and the
/// fields each takes.
const ACTIONS: &[(&str, &[&str])] = &[
    ("commit", &["author", "message", "branch", "write", "remove", "set"]),
    ("revert", &["author", "commit"]),
    ("open-pull-request", &["author", "title", "write", "remove", "set"]),
    ("promote", &["author", "key", "from", "to"]),
    ("merge-branch", &["by", "from", "to"]),
    ("approve", &["by", "pullRequest"]),
    ("merge", &["by", "pullRequest"]),
    ("push-image", &["by", "tag", "crashes", "malicious"]),
    ("edit-cluster", &["by", "environment", "key", "path", "value"]),
    ("ci-apply", &["environment", "key", "path", "value"]),
    ("restart", &["environment", "key"]),
    ("sync", &["by", "environment"]),
    ("stop-agent", &[]),
    ("start-agent", &[]),
    ("revoke-access", &[]),
    ("restore-access", &[]),
    ("set-cluster", &["by", "environment", "state"]),
    ("apply-next", &["by", "environment"]),
    ("confirm-prune", &["by", "environment"]),
    ("lose-cluster", &["environment"]),
    ("update-image", &["by", "tag", "environment", "key"]),
    ("set-controller", &["name", "value", "reason"]),
];

impl<'de> Deserialize<'de> for ScriptStep {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut entries = Map::<String, Value>::deserialize(deserializer)?;
        let at = match entries.remove("at") {
            Some(Value::Number(number)) => number
                .as_u64()
                .and_then(|at| u32::try_from(at).ok())
                .ok_or_else(|| D::Error::custom(format!("`at` is a step number (0 or more); found {number}")))?,
            Some(other) => return Err(D::Error::custom(format!("`at` is a step number; found {other}"))),
            None => return Err(D::Error::custom("each action needs `at`, the step it happens at")),
        };
        let name = match entries.remove("do") {
            Some(Value::String(name)) => name,
            Some(other) => return Err(D::Error::custom(format!("`do` names an action; found {other}"))),
            None => return Err(D::Error::custom("each action needs `do`, what happens")),
        };
        let action = action_of(&name, entries).map_err(|error| D::Error::custom(error.message()))?;
        Ok(ScriptStep { at, action })
    }
}

type Mismatch = gitops_core::text::typed::Mismatch;

/// The action `name` with the fields of `entries`.
fn action_of(name: &str, mut entries: Map<String, Value>) -> Result<ScriptedAction, Mismatch> {
    let name = if name == "reconcile" { "sync" } else { name };
    let Some((_, known)) = ACTIONS.iter().find(|(action, _)| *action == name) else {
        let names: Vec<String> = ACTIONS.iter().map(|(action, _)| format!("`{action}`")).collect();
        return Err(Mismatch::custom(format!("unknown variant `{name}`, expected one of {}", names.join(", "))));
    };
    only_known(&entries, known)?;
    let entries = &mut entries;
    let environment = optional(entries, "environment")?.unwrap_or_else(super::default_environment);
    Ok(match name {
        "commit" => {
            let (write, remove, set) = file_changes(entries)?;
            ScriptedAction::Commit { author: required(entries, "author")?, message: required(entries, "message")?, branch: optional(entries, "branch")?, write, remove, set }
        }
        "revert" => ScriptedAction::Revert { author: required(entries, "author")?, commit: required(entries, "commit")? },
        "open-pull-request" => {
            let (write, remove, set) = file_changes(entries)?;
            ScriptedAction::OpenPullRequest { author: required(entries, "author")?, title: required(entries, "title")?, write, remove, set }
        }
        "promote" => ScriptedAction::Promote {
            author: required(entries, "author")?,
            key: required(entries, "key")?,
            from: required(entries, "from")?,
            to: required(entries, "to")?,
        },
        "merge-branch" => ScriptedAction::MergeBranch { by: required(entries, "by")?, from: required(entries, "from")?, to: required(entries, "to")? },
        "approve" => ScriptedAction::Approve { by: required(entries, "by")?, pull_request: required(entries, "pullRequest")? },
        "merge" => ScriptedAction::Merge { by: required(entries, "by")?, pull_request: required(entries, "pullRequest")? },
        "push-image" => ScriptedAction::PushImage {
            by: required(entries, "by")?,
            tag: required(entries, "tag")?,
            crashes: optional(entries, "crashes")?.unwrap_or_default(),
            malicious: optional(entries, "malicious")?.unwrap_or_default(),
        },
        "edit-cluster" => ScriptedAction::EditCluster {
            by: required(entries, "by")?,
            environment,
            key: required(entries, "key")?,
            path: required(entries, "path")?,
            value: any_value(entries, "value")?,
        },
        "ci-apply" => ScriptedAction::CiApply { environment, key: required(entries, "key")?, path: required(entries, "path")?, value: any_value(entries, "value")? },
        "restart" => ScriptedAction::Restart { environment, key: required(entries, "key")? },
        "sync" => ScriptedAction::Sync { by: required(entries, "by")?, environment },
        "stop-agent" => ScriptedAction::StopAgent,
        "start-agent" => ScriptedAction::StartAgent,
        "revoke-access" => ScriptedAction::RevokeAccess,
        "restore-access" => ScriptedAction::RestoreAccess,
        "set-cluster" => ScriptedAction::SetCluster { by: required(entries, "by")?, environment, state: any_value(entries, "state")? },
        "apply-next" => ScriptedAction::ApplyNext { by: required(entries, "by")?, environment },
        "confirm-prune" => ScriptedAction::ConfirmPrune { by: required(entries, "by")?, environment },
        "lose-cluster" => ScriptedAction::LoseCluster { environment },
        "update-image" => ScriptedAction::UpdateImage { by: required(entries, "by")?, tag: required(entries, "tag")?, environment, key: required(entries, "key")? },
        _ => ScriptedAction::SetController { name: required(entries, "name")?, value: any_value(entries, "value")?, reason: optional(entries, "reason")?.unwrap_or_default() },
    })
}

/// What a commit or a pull request changes: files written whole, files removed, fields set.
fn file_changes(entries: &mut Map<String, Value>) -> Result<(Files, Vec<String>, Vec<FieldEdit>), Mismatch> {
    Ok((
        optional(entries, "write")?.unwrap_or_default(),
        optional(entries, "remove")?.unwrap_or_default(),
        optional(entries, "set")?.unwrap_or_default(),
    ))
}
