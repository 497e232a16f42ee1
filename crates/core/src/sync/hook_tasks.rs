//! A sync's hooks, as gitops-engine's pkg/sync runs them: `splitHooks`
//! (reconcile.go) takes them out of the application's resources, so the plan
//! never writes one; `getSyncTasks` (sync_context.go) makes a task of each
//! hook in each of its phases, naming an object written with only a
//! `metadata.generateName` when the sync runs it; `syncTasks.Less`
//! (sync_tasks.go) orders the tasks by phase, wave, kind and name; and
//! `getOperationPhase` says how a hook's object is doing. When a phase
//! starts and what deletes a hook's object is the sync's, over time (the
//! world's agent); which objects are hooks is read in `state::hook_annotations`.

use crate::diff::compare::mode_of;
use crate::diff::normalize::{desired_as_stored, Mode};
use crate::diff::tracking::with_tracking;
use crate::health::{health, Health};
use crate::memo::Memo;
use crate::options::Options;
use crate::state::hook_annotations::{delete_policies, is_hook, phases};
use crate::state::{key_of, Key, Object, State};
use crate::value::ValueRef;
use crate::sync::merge::created;
use crate::sync::order::{sort_key, wave};
use serde_json::Value;
use std::sync::Arc;

pub use crate::state::hook_annotations::{DeletePolicy, Phase};

/// One hook of a desired state in one of its phases: gitops-engine's hook
/// task.
#[derive(Debug, Clone, PartialEq)]
pub struct HookTask {
    pub phase: Phase,
    /// Its wave within its phase (`syncwaves.Wave`).
    pub wave: i64,
    /// Where Git declares it: its key in the desired state, which names it
    /// by its generateName when it has no name.
    pub declared: Key,
    /// The key of the object it creates.
    pub key: String,
    /// The object it creates, named, as a create writes it (with the
    /// application's tracking id when there is one).
    pub object: Arc<Value>,
    /// When its object is deleted.
    pub delete: Vec<DeletePolicy>,
}

impl HookTask {
    pub fn deletes(&self, policy: DeletePolicy) -> bool {
        self.delete.contains(&policy)
    }
}

/// What the names a sync makes for its hooks carry: the revision it syncs,
/// and when it started (Argo CD's start time in seconds; any number that
/// differs from one sync to the next).
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    pub revision: &'a str,
    pub started: u64,
}

/// Whether `object` of `desired` is a hook: a Kubernetes object that
/// `is_hook`; in the lesson's form no object is.
pub fn is_hook_of<'a>(desired: &State, object: impl Into<ValueRef<'a>>) -> bool {
    mode_of(desired) == Mode::Kubernetes && is_hook(object)
}

/// The application's resources: the objects of `desired` that are not
/// hooks (the first half of `splitHooks`).
pub fn resources(desired: &State) -> impl Iterator<Item = (&Key, &Arc<Object>)> {
    desired
        .objects()
        .iter()
        .filter(move |(_, object)| !is_hook_of(desired, object))
}

/// The application's resources in waves before `before`, in key order: what a wave
/// waits for.
pub fn resources_before(desired: &State, before: i64) -> Vec<(&Key, &Arc<Object>)> {
    resources_before_in(&mut Places::off(), desired, before)
}

/// Whether each object is a hook, and its wave, by object.
pub(crate) type Places = Memo<Mode, (bool, i64)>;

/// `resources_before`, with whether each object is a hook, and its wave, remembered
/// in `places` by object, so that a look after a keystroke reads the annotations of
/// the edited object alone.
pub(crate) fn resources_before_in<'s>(
    places: &mut Places,
    desired: &'s State,
    before: i64,
) -> Vec<(&'s Key, &'s Arc<Object>)> {
    let mode = mode_of(desired);
    places.pass(mode, desired.len(), |places| {
        desired
            .objects()
            .iter()
            .filter(|(key, object)| {
                let (hook, own) = places.get_or(key, [Some(object), None], || {
                    (mode == Mode::Kubernetes && is_hook(object), wave(object))
                });
                !hook && own < before
            })
            .collect()
    })
}

/// Whether `object` of `desired` runs in the Sync phase: a resource, or a
/// hook with Sync among its phases (what gitops-engine's `getSyncTasks`
/// counts for the last wave of the Sync phase, after which a `PruneLast`
/// deletion runs).
pub fn runs_in_sync_phase<'a>(desired: &State, object: impl Into<ValueRef<'a>>) -> bool {
    let object = object.into();
    !is_hook_of(desired, object) || phases(object).contains(&Phase::Sync)
}

/// The tasks of the hooks of `desired` (none in the lesson's form), in the
/// order a sync runs them: by phase, then wave, kind and name
/// (`syncTasks.Less`). A hook with a name creates an object of that name in
/// every run; one with only a generateName, an object named as
/// `getSyncTasks` names it: the generateName followed by the first seven
/// characters of the revision, the phase and the start, lowercased
/// (`migrate-` becomes `migrate-1a2b3c4-presync-7`), so each run and each
/// phase creates its own.
pub fn hook_tasks(desired: &State, run: Run, options: &Options) -> Vec<HookTask> {
    let mut tasks: Vec<HookTask> = desired
        .objects()
        .iter()
        .filter(|(_, object)| is_hook_of(desired, object))
        .flat_map(|(declared, object)| {
            phases(object)
                .into_iter()
                .filter_map(move |phase| task(declared, object.value(), phase, run, options))
        })
        .collect();
    crate::collect::sort_by(&mut tasks, |a, b| order(a).cmp(&order(b)));
    tasks
}

/// Where a task sorts: by phase, then as an operation in its wave.
fn order(task: &HookTask) -> (Phase, (i64, usize, &str, &str)) {
    (task.phase, sort_key(task.wave, &task.object, &task.key))
}

fn task(
    declared: &Key,
    object: &Value,
    phase: Phase,
    run: Run,
    options: &Options,
) -> Option<HookTask> {
    let mut named = object.clone();
    if !has_name(object) {
        let name = generated_name(object, phase, run)?;
        named
            .get_mut("metadata")?
            .as_object_mut()?
            .insert("name".into(), Value::String(name));
    }
    let key = key_of(&named)?;
    let stored = desired_as_stored(&named);
    let stored = match options.application.as_deref() {
        Some(application) => with_tracking(stored, application),
        None => stored,
    };
    Some(HookTask {
        phase,
        wave: wave(object),
        declared: declared.clone(),
        key,
        object: Arc::new(created(stored.view(), Mode::Kubernetes)),
        delete: delete_policies(object),
    })
}

fn has_name(object: &Value) -> bool {
    object
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .is_some_and(|name| !name.is_empty())
}

/// `<generateName><revision's first 7>-<phase>-<start>`, the part after
/// the generateName lowercased, as `getSyncTasks` names a hook.
fn generated_name(object: &Value, phase: Phase, run: Run) -> Option<String> {
    let prefix = crate::state::hook_annotations::generate_name(object)?;
    let revision = match run.revision.char_indices().nth(7) {
        Some((end, _)) => &run.revision[..end],
        None => run.revision,
    };
    let suffix = format!("{revision}-{phase}-{}", run.started).to_ascii_lowercase();
    Some(format!("{prefix}{suffix}"))
}

/// How a hook's object is doing (`getOperationPhase`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Still running: its health, Progressing or Suspended.
    Running(Health),
    /// Done: Healthy, or of a kind without a health check.
    Succeeded,
    /// Failed: why.
    Failed(String),
}

/// How the hook object `live` is doing: a kind without a health check is
/// done once it is created; Healthy is done; Progressing and Suspended
/// still run; Degraded and Unknown failed. An object that is gone failed
/// (gitops-engine: "it might have been deleted").
pub fn outcome(live: Option<&Value>) -> Outcome {
    let Some(live) = live else {
        return Outcome::Failed("it is missing: it might have been deleted".into());
    };
    match health(live) {
        Some(running @ (Health::Progressing | Health::Suspended)) => Outcome::Running(running),
        Some(failed @ (Health::Degraded | Health::Unknown)) => {
            Outcome::Failed(format!("it is {failed}"))
        }
        None | Some(Health::Healthy | Health::Missing) => Outcome::Succeeded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn job(metadata: Value) -> Value {
        json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata})
    }

    #[test]
    fn a_generate_name_is_completed_as_get_sync_tasks_completes_it() {
        let run = Run {
            revision: "1A2B3C4D5E",
            started: 7,
        };
        let hook = job(
            json!({"generateName": "Migrate-", "annotations": {"argocd.argoproj.io/hook": "PreSync"}}),
        );
        assert_eq!(
            generated_name(&hook, Phase::PreSync, run).as_deref(),
            Some("Migrate-1a2b3c4-presync-7"),
            "only the part Argo CD adds is lowercased"
        );
        let short = Run {
            revision: "ab",
            started: 0,
        };
        assert_eq!(
            generated_name(&hook, Phase::PostSync, short).as_deref(),
            Some("Migrate-ab-postsync-0")
        );
    }

    #[test]
    fn an_outcome_follows_get_operation_phase() {
        let status = |status: Value| {
            let mut job = job(json!({"name": "migrate"}));
            job["status"] = status;
            Some(job)
        };
        let complete = status(json!({"conditions": [{"type": "Complete", "status": "True"}]}));
        assert_eq!(outcome(complete.as_ref()), Outcome::Succeeded);
        let active = status(json!({"active": 1}));
        assert_eq!(
            outcome(active.as_ref()),
            Outcome::Running(Health::Progressing)
        );
        let failed = status(json!({"conditions": [{"type": "Failed", "status": "True"}]}));
        assert_eq!(
            outcome(failed.as_ref()),
            Outcome::Failed("it is Degraded".into())
        );
        let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}});
        assert_eq!(
            outcome(Some(&config)),
            Outcome::Succeeded,
            "no health check: done once created"
        );
        assert!(matches!(outcome(None), Outcome::Failed(_)));
    }
}
