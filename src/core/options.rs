use serde::{Deserialize, Serialize};

/// How the reconciler treats the difference between desired and actual.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Options {
    /// Delete objects that are in the actual state but not in the desired one.
    /// Off by default, as in Argo CD and Flux.
    pub prune: bool,
}
