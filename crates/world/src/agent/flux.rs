//! Flux's kustomize-controller as the agent (`KustomizationReconciler.reconcile`
//! in fluxcd/kustomize-controller's `kustomization_controller.go`). Each
//! environment is one Kustomization, named after the scenario's
//! `application`, in `flux-system`.
//!
//! It has no watch on what it applied, and no self-heal switch: it reconciles
//! when its interval has passed since the last reconcile (`RequeueAfter:
//! GetRequeueAfter()`), at once when its source's revision moves (the
//! controller watches its GitRepository), or when a person runs `flux
//! reconcile`; a failed reconcile is tried again after `retryInterval`
//! (`RequeueAfter: GetRetryInterval()`), for ever, whatever the revision. Each
//! reconcile applies the whole build in one server-side apply staged by kind
//! (`ApplyAllStaged`, in the core's plan), refused whole when one object's dry
//! run fails, then prunes what it no longer declares when `prune` is on, and
//! reports its `Ready` condition, `lastAttemptedRevision`,
//! `lastAppliedRevision` and inventory. The playground's simpler: one
//! interval for the GitRepository and the Kustomization, and no `wait` (Ready
//! does not wait for the health of what was applied).

use super::*;
use crate::cluster::{comparable, Cluster};
use crate::event::Event;
use crate::scenario::WorldOptions;
use gitops_core::diff::flux_labels::with_owner_labels;
use gitops_core::diff::ssa::{flux_apply, readable, KUSTOMIZE_CONTROLLER};
use gitops_core::sync::immutable::{outcome, Outcome};
use gitops_core::sync::plan::Operation;
use gitops_core::Workspace;

/// The status of an environment's Kustomization, as `flux get kustomizations`
/// shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Kustomization {
    pub ready: Ready,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_attempted_revision: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_applied_revision: Option<String>,
    /// The keys of what its last successful reconcile applied.
    pub inventory: Vec<String>,
    /// The step of its next reconcile (its interval, or its retry interval,
    /// after the last one).
    pub next_at: u32,
}

/// The `Ready` condition: its status (`True`, `False` or `Unknown`), reason and message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ready {
    pub status: &'static str,
    pub reason: &'static str,
    pub message: String,
}

impl Default for Ready {
    fn default() -> Self {
        Ready {
            status: "Unknown",
            reason: "Progressing",
            message: "Reconciliation in progress".into(),
        }
    }
}

impl Ready {
    fn succeeded(revision: &str) -> Self {
        Ready {
            status: "True",
            reason: "ReconciliationSucceeded",
            message: format!("Applied revision: {revision}"),
        }
    }

    fn failed(reason: &'static str, message: String) -> Self {
        Ready { status: "False", reason, message }
    }
}

impl std::fmt::Display for Ready {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ready={} ({}: {})", self.status, self.reason, self.message)
    }
}

/// How Flux names a revision of the state repository: the branch and the commit.
pub fn flux_revision(revision: &str) -> String {
    format!("main@sha1:{revision}")
}

impl Agent {
    /// One pass of Flux's agent over `environment`: a reconcile when one is due.
    pub(super) fn reconcile_flux(
        &mut self,
        workspace: &mut Workspace,
        step: u32,
        environment: &str,
        cluster: &mut Cluster,
        options: &WorldOptions,
        manual: bool,
        events: &mut Vec<Event>,
    ) {
        let Some(application) = self.applications.get_mut(environment) else {
            return;
        };
        let name = options.application.as_str();
        let revision = application.target_revision.clone().unwrap_or_default();
        let status = application.kustomization.get_or_insert_with(Kustomization::default);
        let first = status.last_attempted_revision.is_none();
        let source_moved = status.last_attempted_revision.as_deref() != Some(flux_revision(&revision).as_str());
        let due = step >= status.next_at;
        if !(first || manual || source_moved || due) {
            return;
        }
        if !options.auto_sync {
            // `spec.suspend: true` (the playground's Auto-sync off): the
            // reconciler returns before anything (`obj.Spec.Suspend`), and `flux
            // reconcile` refuses a suspended resource.
            if manual {
                events.push(
                    Event::new(step, "agent", format!("{environment}: Kustomization flux-system/{name} is suspended: nothing reconciles"))
                        .because("spec.suspend is true (Auto-sync off): `flux resume kustomization` resumes it")
                        .refused(),
                );
            }
            return;
        }
        let why = if manual {
            "a person ran `flux reconcile kustomization`".to_string()
        } else if first || source_moved {
            format!("its source moved to {}", flux_revision(&revision))
        } else {
            format!(
                "its interval of {} min has passed: Flux corrects drift only when a Kustomization reconciles",
                options.poll_every
            )
        };
        let interval = options.poll_every;
        let retry_interval = options.retry_interval.unwrap_or(interval);
        status.last_attempted_revision = Some(flux_revision(&revision));
        let following_git = first || source_moved;
        let has_access = self.has_access;
        let result = match (&application.last_error, &application.target) {
            (Some(error), _) if !has_access => Err(Ready::failed("ArtifactFailed", error.clone())),
            (Some(error), _) => Err(Ready::failed("BuildFailed", error.clone())),
            (None, None) => return,
            (None, Some(target)) => match comparable(target, cluster.actual()) {
                Err(why) => Err(Ready::failed("ReconciliationFailed", why)),
                Ok(()) => apply_all(workspace, step, environment, target, cluster, options, (&why, following_git), events)
                    .map(|inventory| {
                        status.inventory = inventory;
                        status.last_applied_revision = Some(flux_revision(&revision));
                        Ready::succeeded(&flux_revision(&revision))
                    }),
            },
        };
        let (ready, wait) = match result {
            Ok(ready) => {
                application.synced_revision = Some(revision.clone());
                (ready, interval)
            }
            Err(ready) => (ready, retry_interval),
        };
        status.next_at = step.saturating_add(wait.max(1));
        if status.ready != ready {
            let failed = ready.status == "False";
            let next = if failed {
                format!("; it tries again in {wait} min (retryInterval)")
            } else {
                format!("; next reconcile in {wait} min (interval)")
            };
            let mut event = Event::new(
                step,
                "agent",
                format!("{environment}: Kustomization flux-system/{name} is {ready}"),
            )
            .because(format!("{why}{next}"));
            if failed {
                event = event.refused();
            }
            events.push(event);
            status.ready = ready;
        }
    }
}

/// The fields an update takes from other managers: Flux applies with
/// `client.ForceOwnership`, so a field Git sets that another manager owns (an
/// autoscaler's `replicas`) becomes kustomize-controller's, an event each.
fn takeovers(step: u32, environment: &str, operation: &Operation, target: &State, actual: &State, name: &str) -> Vec<Event> {
    let (Operation::Update { key, .. }, Some(desired), Some(live)) = (operation, target.get(operation.key()), actual.get(operation.key())) else {
        return Vec::new();
    };
    let config = with_owner_labels(desired, name);
    flux_apply(Some(live), &config.into_owned())
        .taken
        .iter()
        .map(|taken| {
            Event::new(
                step,
                "agent",
                format!("{KUSTOMIZE_CONTROLLER} took {} of {key} from {}", readable(&taken.path), taken.from),
            )
            .because("Flux applies with force: a field Git sets that another manager owns changes owner (client.ForceOwnership)")
            .in_cluster(environment)
            .on(key)
        })
        .collect()
}

/// Applies the whole build at once, then prunes; the inventory it leaves, or
/// the `Ready` condition of its failure. Flux's dry run of every object
/// comes first (`ApplyAllStaged` validates a stage before it applies it): an
/// update the API server refuses fails the reconcile before anything is
/// written, unless `force` recreates the object.
#[allow(clippy::too_many_arguments)]
fn apply_all(
    workspace: &mut Workspace,
    step: u32,
    environment: &str,
    target: &State,
    cluster: &mut Cluster,
    options: &WorldOptions,
    (why, following_git): (&str, bool),
    events: &mut Vec<Event>,
) -> Result<Vec<String>, Ready> {
    let reconcile = options.reconcile();
    let found = workspace.report(target, cluster.actual(), &reconcile);
    let refusals: Vec<String> = found
        .plan
        .iter()
        .filter_map(|operation| match outcome(operation, target, cluster.actual(), &reconcile) {
            Outcome::Refused(refusal) => Some(format!("{} dry-run failed: {}", operation.key(), refusal.message)),
            _ => None,
        })
        .collect();
    if !refusals.is_empty() {
        return Err(Ready::failed("ReconciliationFailed", refusals.join("\n")));
    }
    // kustomize-controller applies, then collects the garbage (`r.prune`
    // after `r.apply`).
    let (prunes, writes): (Vec<&Operation>, Vec<&Operation>) = found
        .plan
        .iter()
        .filter(|operation| operation.changes_cluster())
        .partition(|operation| matches!(operation, Operation::Delete { .. }));
    for operation in writes.into_iter().chain(prunes) {
        if cluster.actual().get(operation.key()).is_none() && matches!(operation, Operation::Delete { .. }) {
            continue;
        }
        let applied = operation_event(step, environment, operation, why, following_git, cluster.actual());
        let takeovers = takeovers(step, environment, operation, target, cluster.actual(), &options.application);
        match cluster.carry_out(operation, target, &reconcile) {
            Outcome::Recreated { why: option, refusal, .. } => events.push(super::waves::recreated_event(
                step,
                environment,
                operation.key(),
                &option,
                refusal.as_ref().map(|refusal| refusal.message.as_str()),
            )),
            _ => events.push(applied),
        }
        events.extend(takeovers);
    }
    Ok(target.objects().keys().map(|key| key.to_string()).collect())
}
