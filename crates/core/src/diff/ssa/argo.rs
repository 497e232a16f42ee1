//! Argo CD's server-side apply (`ServerSideApply=true`): gitops-engine's
//! `applyObject` applies with `--server-side --force-conflicts` as
//! `argocd-controller` (`shouldUseServerSideApply`: the application's sync
//! option, or the object's own, which `ServerSideApply=false` turns off), and
//! the controller then compares by the structured merge of that apply
//! (`controller/state.go` `WithStructuredMergeDiff`, gitops-engine's
//! `StructuredMergeDiff`). Unlike Flux, nothing hands `kubectl`'s fields over
//! first: a label `kubectl edit` added stays.

use super::apply::{apply, Applied};
use crate::agent::{Agent, Owner};
use crate::state::protection::has_sync_option;
use crate::value::ValueRef;
use serde_json::Value;

/// The field manager of Argo CD's server-side apply (`common.ArgoCDSSAManager`).
pub const ARGOCD_CONTROLLER: &str = "argocd-controller";

/// Whether Argo CD applies `desired` server-side for `owner`.
pub fn argo_applies_server_side<'a>(owner: Option<Owner>, desired: impl Into<ValueRef<'a>>) -> bool {
    let desired = desired.into();
    match owner {
        Some(owner) if owner.agent == Agent::ArgoCd => {
            !has_sync_option(desired, "ServerSideApply=false")
                && (owner.server_side_apply || has_sync_option(desired, "ServerSideApply=true"))
        }
        _ => false,
    }
}

/// `config` as Argo CD's server-side apply writes it over `live` (none: a create).
pub fn argo_apply(live: Option<&Value>, config: &Value) -> Applied {
    match apply(live, config, ARGOCD_CONTROLLER, true) {
        Ok(applied) => applied,
        // A forced apply takes every conflict; this is never reached.
        Err(_) => Applied { object: config.clone(), taken: Vec::new(), removed: Vec::new() },
    }
}
