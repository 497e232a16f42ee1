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
use crate::repository::flux::{applied_by, with_kustomization_ignore, KustomizationSpec};
use gitops_core::health::{health, Health};
use gitops_core::options::Options;
use gitops_core::state::protection::flux_releases;
use gitops_core::sync::immutable::{outcome, Outcome};
use gitops_core::sync::plan::Operation;
use gitops_core::Workspace;

/// The status of an environment's Kustomization, as `flux get kustomizations`
/// shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Kustomization {
    /// Its name, in `flux-system`.
    pub name: String,
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
    /// While Ready waits for health (`wait`, `healthChecks`): the step its
    /// `timeout` ends at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health_deadline: Option<u32>,
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

/// The Kustomization an environment is without Kustomization objects in Git:
/// named after `application`, with the scenario's options (`pollEvery` its
/// interval, Auto-sync off its `suspend`).
pub fn root_kustomization(options: &WorldOptions) -> KustomizationSpec {
    let interval = options.poll_every.max(1);
    KustomizationSpec {
        name: options.application.clone(),
        path: String::new(),
        interval,
        retry_interval: options.retry_interval.unwrap_or(interval).max(1),
        timeout: interval,
        prune: options.prune,
        force: options.force,
        wait: false,
        health_checks: Vec::new(),
        depends_on: Vec::new(),
        suspend: !options.auto_sync,
        target_namespace: None,
        // The Options panel's rules are the root's: `kustomization_options` adds them.
        ignore: Vec::new(),
    }
}

/// The status of the Kustomization `name`, if it has one.
pub fn status_of<'a>(statuses: &'a [Kustomization], name: &str) -> Option<&'a Kustomization> {
    statuses.iter().find(|status| status.name == name)
}

/// The status of the Kustomization `name`, a new one if it has none.
fn status_mut<'a>(statuses: &'a mut Vec<Kustomization>, name: &str) -> &'a mut Kustomization {
    let at = match statuses.iter().position(|status| status.name == name) {
        Some(at) => at,
        None => {
            statuses.push(Kustomization { name: name.to_string(), ..Kustomization::default() });
            statuses.len() - 1
        }
    };
    &mut statuses[at]
}

/// Why a Kustomization reconciles now.
struct Trigger {
    why: String,
    following_git: bool,
}

impl Agent {
    /// One pass of Flux's agent over `environment`: each of its Kustomizations
    /// (the root, then those Git declares, each after those it depends on)
    /// reconciles when one is due.
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
        let has_access = self.has_access;
        let Some(application) = self.applications.get_mut(environment) else {
            return;
        };
        let mut specs = vec![root_kustomization(options)];
        specs.extend(dependencies_first(&application.flux_layout));
        for spec in &specs {
            reconcile_one(workspace, step, environment, cluster, options, application, spec, manual, has_access, events);
        }
        application.kustomizations.retain(|status| specs.iter().any(|spec| spec.name == status.name));
        let revision = application.target_revision.as_deref().map(flux_revision);
        let applied = application.kustomizations.len() == specs.len()
            && application.kustomizations.iter().all(|status| status.last_applied_revision == revision);
        if applied {
            application.synced_revision = application.target_revision.clone();
        }
    }
}

/// The Kustomizations in an order where each comes after those it depends on
/// (then by name), so that a pass reads as Flux's reconciles settle: Flux runs
/// them at once and requeues a dependent until its dependencies are Ready. A
/// cycle keeps its members in name order.
fn dependencies_first(specs: &[KustomizationSpec]) -> Vec<KustomizationSpec> {
    let mut left: Vec<&KustomizationSpec> = specs.iter().collect();
    let mut ordered: Vec<KustomizationSpec> = Vec::with_capacity(specs.len());
    while !left.is_empty() {
        let placed = |name: &String| ordered.iter().any(|spec| spec.name == *name) || !specs.iter().any(|spec| spec.name == *name);
        let next = left.iter().position(|spec| spec.depends_on.iter().all(placed)).unwrap_or(0);
        ordered.push(left.remove(next).clone());
    }
    ordered
}

/// One Kustomization's reconcile, when one is due: its dependencies first,
/// then its build applied, then the health it waits for.
#[allow(clippy::too_many_arguments)]
fn reconcile_one(
    workspace: &mut Workspace,
    step: u32,
    environment: &str,
    cluster: &mut Cluster,
    options: &WorldOptions,
    application: &mut Application,
    spec: &KustomizationSpec,
    manual: bool,
    has_access: bool,
    events: &mut Vec<Event>,
) {
    let name = spec.name.as_str();
    let revision = flux_revision(application.target_revision.as_deref().unwrap_or_default());
    let dependencies: Vec<(String, bool)> = spec
        .depends_on
        .iter()
        .map(|dependency| {
            let ready = status_of(&application.kustomizations, dependency).is_some_and(|status| {
                status.ready.status == "True" && status.last_applied_revision.as_deref() == Some(revision.as_str())
            });
            (dependency.clone(), ready)
        })
        .collect();
    let own = application.target.as_ref().map(|target| match application.flux_layout.is_empty() {
        true => target.clone(),
        false => applied_by(target, name),
    });
    let status = status_mut(&mut application.kustomizations, name);
    if let Some(deadline) = status.health_deadline {
        let ready = health_wait(spec, own.as_ref(), cluster, &revision, step >= deadline);
        let status = status_mut(&mut application.kustomizations, name);
        return settle(step, environment, spec, status, ready, (&format!("it waits for the health of what it applied, within {} min (timeout)", spec.timeout), &revision), events);
    }
    let first = status.last_attempted_revision.is_none();
    let source_moved = status.last_attempted_revision.as_deref() != Some(revision.as_str());
    if !(first || manual || source_moved || step >= status.next_at) {
        return;
    }
    if spec.suspend {
        // `spec.suspend: true`: the reconciler returns before anything
        // (`obj.Spec.Suspend`), and `flux reconcile` refuses a suspended resource.
        if manual {
            events.push(
                Event::new(step, "agent", format!("{environment}: Kustomization flux-system/{name} is suspended: nothing reconciles"))
                    .because("spec.suspend is true (Auto-sync off): `flux resume kustomization` resumes it")
                    .refused(),
            );
        }
        return;
    }
    let trigger = if manual {
        Trigger { why: "a person ran `flux reconcile kustomization`".into(), following_git: source_moved }
    } else if first || source_moved {
        Trigger { why: format!("its source moved to {revision}"), following_git: true }
    } else if status.ready.reason == "DependencyNotReady" {
        Trigger { why: "it checks its dependencies again".into(), following_git: true }
    } else {
        Trigger {
            why: format!("its interval of {} min has passed: Flux corrects drift only when a Kustomization reconciles", spec.interval),
            following_git: false,
        }
    };
    status.last_attempted_revision = Some(revision.clone());
    if let Some((dependency, _)) = dependencies.iter().find(|(_, ready)| !ready) {
        // `checkDependencies`: requeued after `--requeue-dependency` (30 s).
        let ready = Ready::failed("DependencyNotReady", format!("dependency 'flux-system/{dependency}' is not ready"));
        status.next_at = step.saturating_add(1);
        return report(step, environment, name, status, ready, &trigger.why, "; it checks again in 1 min (--requeue-dependency 30s)", events);
    }
    let ready = match (&application.last_error, own) {
        (Some(error), _) if !has_access => Ready::failed("ArtifactFailed", error.clone()),
        (Some(error), _) => Ready::failed("BuildFailed", error.clone()),
        (None, None) => return,
        (None, Some(own)) => {
            match comparable(&own, cluster.actual()) {
                Err(why) => Ready::failed("ReconciliationFailed", why),
                Ok(()) => match apply_all(workspace, step, environment, &own, cluster, &kustomization_options(options, spec, application), (&trigger.why, trigger.following_git), events) {
                    Err(failed) => failed,
                    Ok(inventory) => {
                        let status = status_mut(&mut application.kustomizations, name);
                        if spec.prune {
                            skipped_by_garbage_collection(step, environment, &status.inventory, &inventory, cluster.actual(), events);
                        }
                        status.inventory = inventory;
                        match spec.wait || !spec.health_checks.is_empty() {
                            true => {
                                status.health_deadline = Some(step.saturating_add(spec.timeout));
                                health_wait(spec, Some(&own), cluster, &revision, spec.timeout == 0)
                            }
                            false => Ready::succeeded(&revision),
                        }
                    }
                },
            }
        }
    };
    let status = status_mut(&mut application.kustomizations, name);
    settle(step, environment, spec, status, ready, (&trigger.why, &revision), events)
}

/// Where a reconcile leaves a Kustomization: applied (its revision, and the
/// next reconcile an interval on), waiting for health, or failed (tried again
/// after `retryInterval`).
fn settle(
    step: u32,
    environment: &str,
    spec: &KustomizationSpec,
    status: &mut Kustomization,
    ready: Ready,
    (why, revision): (&str, &str),
    events: &mut Vec<Event>,
) {
    let next = match ready.status {
        "True" => {
            status.health_deadline = None;
            status.last_applied_revision = Some(revision.to_string());
            status.next_at = step.saturating_add(spec.interval.max(1));
            format!("; next reconcile in {} min (interval)", spec.interval)
        }
        "False" => {
            status.health_deadline = None;
            status.next_at = step.saturating_add(spec.retry_interval.max(1));
            format!("; it tries again in {} min (retryInterval)", spec.retry_interval)
        }
        _ => String::new(),
    };
    report(step, environment, &spec.name, status, ready, why, &next, events)
}

/// Tells a change of the `Ready` condition.
#[allow(clippy::too_many_arguments)]
fn report(step: u32, environment: &str, name: &str, status: &mut Kustomization, ready: Ready, why: &str, next: &str, events: &mut Vec<Event>) {
    if status.ready == ready {
        return;
    }
    let mut event = Event::new(step, "agent", format!("{environment}: Kustomization flux-system/{name} is {ready}")).because(format!("{why}{next}"));
    if ready.status == "False" {
        event = event.refused();
    }
    events.push(event);
    status.ready = ready;
}

/// The health Ready waits for (`checkHealth`, kstatus read as the core's
/// health): every object applied with `wait`, else those `healthChecks`
/// names. Ready once all are Healthy; failed when one is Degraded, or when
/// the `timeout` has passed.
fn health_wait(spec: &KustomizationSpec, applied: Option<&State>, cluster: &Cluster, revision: &str, timed_out: bool) -> Ready {
    let keys: Vec<String> = match (spec.wait, applied) {
        (true, Some(applied)) => applied.objects().keys().map(|key| key.to_string()).collect(),
        _ => spec.health_checks.clone(),
    };
    let mut waiting = Vec::new();
    for key in &keys {
        match cluster.actual().get(key).map(|object| health(object).unwrap_or(Health::Healthy)) {
            Some(Health::Healthy) => {}
            Some(Health::Degraded) => {
                return Ready::failed("HealthCheckFailed", format!("{key} status: 'Failed'"));
            }
            Some(other) => waiting.push(format!("{key} status: '{}'", if other == Health::Progressing { "InProgress" } else { "Unknown" })),
            None => waiting.push(format!("{key} status: 'NotFound'")),
        }
    }
    match (waiting.is_empty(), timed_out) {
        (true, _) => Ready::succeeded(revision),
        (false, true) => Ready::failed(
            "HealthCheckFailed",
            format!("health check failed after {} min: timeout waiting for: [{}]", spec.timeout, waiting.join(", ")),
        ),
        (false, false) => Ready {
            status: "Unknown",
            reason: "Progressing",
            message: format!("Running health checks for revision {revision} with a timeout of {} min", spec.timeout),
        },
    }
}

/// The objects that left a Kustomization's inventory and that its garbage
/// collection skips, marked `prune: disabled` (or `reconcile: disabled`, `ssa:
/// Ignore`) in the cluster: kustomize-controller's `prune` tells them as its
/// `DeleteAll` change set does ("skipped"), and no longer manages them.
fn skipped_by_garbage_collection(step: u32, environment: &str, before: &[String], after: &[String], actual: &State, events: &mut Vec<Event>) {
    for key in before.iter().filter(|key| !after.contains(key)) {
        if let Some(mark) = actual.object(key).and_then(|object| flux_releases(&**object)) {
            events.push(
                Event::new(step, "agent", format!("{key} in {environment} skipped: garbage collection leaves it ({mark})"))
                    .because("it left the Kustomization's inventory: Flux no longer manages it, and the Kustomization stays Ready")
                    .in_cluster(environment)
                    .on(key),
            );
        }
    }
}

/// The core's options for one Kustomization's apply. The ignore rules are the
/// Options panel's and every Kustomization's `spec.ignore`: a rule's `target`
/// selects the objects (where Flux keeps each Kustomization's rules to what it
/// applies), so that the page compares as the agent does.
fn kustomization_options(options: &WorldOptions, spec: &KustomizationSpec, application: &Application) -> Options {
    let mut reconcile = options.reconcile();
    with_kustomization_ignore(&mut reconcile, &application.flux_layout);
    Options {
        prune: spec.prune,
        force: spec.force,
        application: Some(spec.name.clone()),
        ..reconcile
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
    reconcile: &Options,
    (why, following_git): (&str, bool),
    events: &mut Vec<Event>,
) -> Result<Vec<String>, Ready> {
    let found = workspace.report(target, cluster.actual(), reconcile);
    let refusals: Vec<String> = found
        .plan
        .iter()
        .filter_map(|operation| match outcome(operation, target, cluster.actual(), reconcile) {
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
        let takeovers = takeovers(step, environment, operation, target, cluster.actual(), reconcile.application.as_deref().unwrap_or_default());
        match cluster.carry_out(operation, target, reconcile) {
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
