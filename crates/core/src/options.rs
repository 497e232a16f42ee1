pub use crate::agent::{Agent, Owner};
use crate::diff::ignore::IgnoreRule;
use serde::{Deserialize, Serialize};

/// How the reconciler treats the difference between desired and actual.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Options {
    /// Delete objects that are in the actual state but not in the desired one.
    /// Off by default, as in Argo CD (Flux's `prune` has no default).
    pub prune: bool,
    /// Fields that another controller owns: not drift; whether a sync keeps
    /// their live value depends on the rule's dialect (`IgnoreRule::keeps_live`).
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::diff::ignore::deserialize_rules"
    )]
    pub ignore: Vec<IgnoreRule>,
    /// Argo CD's sync option `RespectIgnoreDifferences=true`: a sync keeps the
    /// live value of the fields Argo CD's rules ignore. Off by default, as in
    /// Argo CD, where a sync then writes Git's value of an ignored field.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub respect_ignore_differences: bool,
    /// The Argo CD Application the Kubernetes objects belong to: a sync
    /// stamps its tracking id on what it applies, and only live objects
    /// carrying theirs are extra (`diff/tracking.rs`). None: every live
    /// object Git does not declare is extra, the playground's simpler rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub application: Option<String>,
    /// Flux's `spec.force` (as Argo CD's `argocd app sync --force`): an
    /// update the API server refuses deletes and creates the object instead
    /// (`sync::immutable`). Off by default, as in both.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub force: bool,
    /// The tool whose agent applies and compares: Argo CD (the default) or Flux.
    #[serde(skip_serializing_if = "Agent::is_argo_cd")]
    pub agent: Agent,
    /// Argo CD's sync option `ServerSideApply=true` for the whole application:
    /// its sync applies server-side as `argocd-controller` and compares as that
    /// apply would merge (`diff::ssa::argo`). Off by default, as in Argo CD;
    /// Flux always applies server-side.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub server_side_apply: bool,
}

impl Options {
    /// No ignore rules; prune as given.
    pub const fn pruning(prune: bool) -> Self {
        Options {
            prune,
            ignore: Vec::new(),
            respect_ignore_differences: false,
            application: None,
            force: false,
            agent: Agent::ArgoCd,
            server_side_apply: false,
        }
    }

    /// The agent whose rules compare and apply: Flux's need the Kustomization's
    /// name (`application`); without one, the playground's simpler rule, which
    /// is Argo CD's otherwise.
    pub fn acting_agent(&self) -> Agent {
        self.owner().map_or(Agent::ArgoCd, |owner| owner.agent)
    }

    /// The owner of the objects, when there is an application.
    pub fn owner(&self) -> Option<Owner<'_>> {
        self.application.as_deref().map(|application| Owner {
            application,
            agent: self.agent,
            server_side_apply: self.server_side_apply,
        })
    }
}
