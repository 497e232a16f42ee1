//! A scenario's `options` read field by field, each field by `serde` as its
//! type, and what does not fit placed at its field (`/options/retry/limit`):
//! a derived reader of `WorldOptions` is its own walk over twenty fields,
//! which costs the page's packed wasm more than these few lines
//! (docs/benchmarks.md).

use super::{IgnoreRules, WorldOptions};
use gitops_core::text::typed::{read, Mismatch};
use serde::de::{DeserializeOwned, Error as _};
use serde_json::{Map, Value};

const KNOWN: &[&str] = &[
    "agent", "mode", "prune", "allowEmpty", "ignore", "respectIgnoreDifferences", "application", "namespace",
    "applicationHealthCheck", "serverSideApply", "force", "retry", "autoSync", "selfHeal", "pollEvery",
    "retryInterval", "webhook", "protectedEnvironments", "requirePullRequests", "trigger", "layout",
];

/// The options a scenario writes, over the defaults; what is wrong says where,
/// below `/options`.
pub(super) fn read_options(written: Value) -> Result<WorldOptions, Mismatch> {
    let mut entries: Map<String, Value> = read(written)?;
    if let Some(unknown) = entries.keys().find(|name| !KNOWN.contains(&name.as_str())) {
        return Err(Mismatch::unknown_field(unknown, KNOWN).under(unknown));
    }
    let mut options = WorldOptions::default();
    let entries = &mut entries;
    set(entries, "agent", &mut options.agent)?;
    set(entries, "mode", &mut options.mode)?;
    set(entries, "prune", &mut options.prune)?;
    set(entries, "allowEmpty", &mut options.allow_empty)?;
    if let Some(IgnoreRules(rules)) = take(entries, "ignore")? {
        options.ignore = rules;
    }
    set(entries, "respectIgnoreDifferences", &mut options.respect_ignore_differences)?;
    set(entries, "application", &mut options.application)?;
    set(entries, "namespace", &mut options.namespace)?;
    set(entries, "applicationHealthCheck", &mut options.application_health_check)?;
    set(entries, "serverSideApply", &mut options.server_side_apply)?;
    set(entries, "force", &mut options.force)?;
    set(entries, "retry", &mut options.retry)?;
    set(entries, "autoSync", &mut options.auto_sync)?;
    set(entries, "selfHeal", &mut options.self_heal)?;
    set(entries, "pollEvery", &mut options.poll_every)?;
    set(entries, "retryInterval", &mut options.retry_interval)?;
    set(entries, "webhook", &mut options.webhook)?;
    set(entries, "protectedEnvironments", &mut options.protected_environments)?;
    set(entries, "requirePullRequests", &mut options.require_pull_requests)?;
    set(entries, "trigger", &mut options.trigger)?;
    set(entries, "layout", &mut options.layout)?;
    Ok(options)
}

/// The entry `name` read as a `T` (null too, as `serde` reads it), placed at
/// `/name` when it does not fit; none when it is absent.
fn take<T: DeserializeOwned>(entries: &mut Map<String, Value>, name: &str) -> Result<Option<T>, Mismatch> {
    entries.remove(name).map(|value| read(value).map_err(|mismatch| mismatch.under(name))).transpose()
}

/// `option` takes the entry `name`, when it is there.
fn set<T: DeserializeOwned>(entries: &mut Map<String, Value>, name: &str, option: &mut T) -> Result<(), Mismatch> {
    if let Some(value) = take(entries, name)? {
        *option = value;
    }
    Ok(())
}
