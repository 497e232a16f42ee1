//! Argo CD's `Replace=true` (gitops-engine `syncContext.applyObject`): on the
//! object in Git or in the cluster, its sync writes the object with
//! `kubectl replace` instead of `kubectl apply`: the object as Git has it,
//! whole, so what only the cluster set (a label a person added with
//! `kubectl edit`, a field no one declares) is gone after the sync, and what
//! the API server defaults comes back. A CustomResourceDefinition or a
//! Namespace is updated alike, whole (`UpdateResource`), never deleted. No
//! last-applied record is written (`kubectl replace` and `kubectl create`
//! without `--save-config`). It takes precedence over `ServerSideApply=true`;
//! the field managers the cluster recorded are kept as they were, a
//! simplification. Flux reads none of Argo CD's sync options.

use crate::agent::Agent;
use crate::diff::ignore::with_live_at;
use crate::options::Options;
use crate::pointer::Pattern;
use crate::state::defaults::with_api_server_defaults;
use crate::state::protection::has_sync_option;
use crate::sync::merge::with_what_the_cluster_writes;
use serde_json::Value;

const REPLACE: &str = "Replace=true";

/// Whether the agent writes the object with `kubectl replace` (or, when it is
/// not live yet, `kubectl create`).
pub fn replaces(options: &Options, desired: &Value, live: Option<&Value>) -> bool {
    options.acting_agent() == Agent::ArgoCd
        && (has_sync_option(desired, REPLACE) || live.is_some_and(|live| has_sync_option(live, REPLACE)))
}

/// The object `kubectl replace` leaves: `desired` whole, with the live values
/// the cluster writes itself and those the ignore rules keep (`kept`).
pub(crate) fn replaced(desired: &Value, live: &Value, kept: &[&Pattern]) -> Value {
    with_what_the_cluster_writes(with_live_at(desired.clone(), live, kept), live)
}

/// The object `kubectl create` leaves.
pub(crate) fn created(desired: &Value) -> Value {
    let mut object = desired.clone();
    with_api_server_defaults(&mut object);
    object
}
