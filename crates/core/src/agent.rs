//! Whose agent reconciles: the tool that compares and applies, and the
//! application (Argo CD's) or Kustomization (Flux's) that owns the objects.

use serde::{Deserialize, Serialize};

/// The GitOps tool whose agent reconciles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Agent {
    /// Argo CD: a client-side apply with its last-applied record, objects
    /// tracked by `argocd.argoproj.io/tracking-id` (`diff/tracking.rs`).
    #[default]
    #[serde(rename = "argocd")]
    ArgoCd,
    /// Flux's kustomize-controller: a forced server-side apply as
    /// `kustomize-controller` after its cleanup of field managers (`ssa`),
    /// objects labelled with its Kustomization's name and namespace.
    #[serde(rename = "flux")]
    Flux,
}

impl Agent {
    pub fn is_argo_cd(&self) -> bool {
        *self == Agent::ArgoCd
    }

    /// The tool's name, as people write it.
    pub fn tool(self) -> &'static str {
        match self {
            Agent::ArgoCd => "Argo CD",
            Agent::Flux => "Flux",
        }
    }
}

/// Whose the Kubernetes objects are: the application (Argo CD's) or the
/// Kustomization (Flux's) that applies them, and which tool that is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Owner<'a> {
    pub application: &'a str,
    pub agent: Agent,
    /// Argo CD's `syncOptions: [ServerSideApply=true]` for the whole
    /// application (an object may say so, or say `ServerSideApply=false`, itself).
    pub server_side_apply: bool,
}
