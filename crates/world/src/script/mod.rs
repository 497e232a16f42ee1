//! The timed actions of a scenario: `{"at": 3, "do": "commit", ...}`.

use crate::event::Place;
use crate::repository::Files;
use serde::ser::{self, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod read;

/// One action at one step.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptStep {
    pub at: u32,
    pub action: ScriptedAction,
}

/// What someone does. Written as its derive says; read by `read.rs`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum ScriptedAction {
    /// A commit to the state repository: to `main`, or, with `layout:
    /// branches`, to an environment's branch (whose paths start `app/`).
    Commit {
        author: String,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        branch: Option<String>,
        #[serde(skip_serializing_if = "Files::is_empty")]
        write: Files,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        remove: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        set: Vec<FieldEdit>,
    },
    /// A commit that undoes an earlier one: `HEAD`, `HEAD~1`, or an id.
    Revert {
        author: String,
        commit: String,
    },
    /// A pull request with changes to the repository.
    OpenPullRequest {
        author: String,
        title: String,
        #[serde(skip_serializing_if = "Files::is_empty")]
        write: Files,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        remove: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        set: Vec<FieldEdit>,
    },
    /// A pull request that copies the image references of one object from an
    /// environment to the next.
    Promote {
        author: String,
        key: String,
        from: String,
        to: String,
    },
    /// With `layout: branches`: merges one environment's branch into
    /// another's, which deploys what it carries.
    MergeBranch {
        by: String,
        from: String,
        to: String,
    },
    Approve {
        by: String,
        pull_request: u32,
    },
    Merge {
        by: String,
        pull_request: u32,
    },
    /// A push of an image to the registry: a new tag, or the same tag again.
    PushImage {
        by: String,
        tag: String,
        crashes: bool,
        malicious: bool,
    },
    /// A change made to a cluster outside Git, by a person or with stolen credentials.
    EditCluster {
        by: String,
        environment: String,
        key: String,
        path: String,
        value: Value,
    },
    /// CI applying a change to a cluster itself (push mode; refused in pull mode).
    CiApply {
        environment: String,
        key: String,
        path: String,
        value: Value,
    },
    /// The pods of a workload restart and pull their images again.
    Restart {
        environment: String,
        key: String,
    },
    /// A person asks the agent to sync now (Argo CD's `argocd app sync`;
    /// `flux reconcile` under Flux's agent, which scripts may call `reconcile`).
    Sync {
        by: String,
        environment: String,
    },
    /// The agent stops (crashes) or starts again.
    StopAgent,
    StartAgent,
    /// The agent loses, or gets back, read access to the repository.
    RevokeAccess,
    RestoreAccess,
    /// A person replaces an environment's whole actual state by hand.
    SetCluster {
        by: String,
        environment: String,
        state: Value,
    },
    /// A person applies the first operation of the current plan, and only it.
    ApplyNext {
        by: String,
        environment: String,
    },
    /// A person confirms the deletions that wait for one (`Prune=confirm`).
    ConfirmPrune {
        by: String,
        environment: String,
    },
    /// The cluster is lost; a new, empty one takes its place with a new agent
    /// pointed at the same repository.
    LoseCluster {
        environment: String,
    },
    /// An image-updater bot sees the tag's image and opens a pull request
    /// that pins its digest in the object's image references.
    UpdateImage {
        by: String,
        tag: String,
        environment: String,
        key: String,
    },
    /// A controller changes the value it writes (an autoscaler under new load).
    SetController {
        name: String,
        value: Value,
        #[serde(skip_serializing_if = "String::is_empty")]
        reason: String,
    },
}

impl ScriptedAction {
    /// The part of the world the action works on.
    pub fn place(&self) -> Option<Place> {
        match self {
            ScriptedAction::Commit { .. }
            | ScriptedAction::Revert { .. }
            | ScriptedAction::OpenPullRequest { .. }
            | ScriptedAction::Promote { .. }
            | ScriptedAction::MergeBranch { .. }
            | ScriptedAction::Approve { .. }
            | ScriptedAction::Merge { .. }
            | ScriptedAction::UpdateImage { .. } => Some(Place::Git),
            ScriptedAction::PushImage { .. } => Some(Place::Registry),
            ScriptedAction::EditCluster { environment, .. }
            | ScriptedAction::CiApply { environment, .. }
            | ScriptedAction::Restart { environment, .. }
            | ScriptedAction::SetCluster { environment, .. }
            | ScriptedAction::ApplyNext { environment, .. }
            | ScriptedAction::ConfirmPrune { environment, .. }
            | ScriptedAction::LoseCluster { environment } => Some(Place::Cluster(environment.clone())),
            ScriptedAction::Sync { .. }
            | ScriptedAction::StopAgent
            | ScriptedAction::StartAgent
            | ScriptedAction::RevokeAccess
            | ScriptedAction::RestoreAccess
            | ScriptedAction::SetController { .. } => None,
        }
    }
}

/// One field of one file: `{"file": "envs/prod/web.yaml", "path": "/spec/replicas", "value": 3}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldEdit {
    pub file: String,
    pub path: String,
    pub value: Value,
}

fn default_environment() -> String {
    crate::repository::DEFAULT_ENVIRONMENT.into()
}

impl Serialize for ScriptStep {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = Map::new();
        fields.insert("at".into(), Value::from(self.at));
        match serde_json::to_value(&self.action).map_err(ser::Error::custom)? {
            Value::String(name) => {
                fields.insert("do".into(), Value::String(name));
            }
            Value::Object(tagged) => {
                for (name, content) in tagged {
                    fields.insert("do".into(), Value::String(name));
                    if let Value::Object(content) = content {
                        fields.extend(content);
                    }
                }
            }
            _ => {
                return Err(ser::Error::custom(
                    "an action is a name or a name with fields",
                ))
            }
        }
        fields.serialize(serializer)
    }
}
