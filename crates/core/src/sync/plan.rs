//! The plan: what the reconciler would do to make actual equal desired, in
//! the order a sync runs it.

use crate::collect::sort_by_key;
use crate::diff::changes::Change;
use crate::diff::compare::{compare, mode_of, Difference};
use crate::diff::ignore::kept_live;
use crate::diff::normalize::Mode;
use crate::options::{Agent, Options};
use crate::state::namespace::namespace_of;
use crate::state::protection::{argo_prune_protection, prunes_last, requires_prune_confirmation};
use crate::state::{Object, State};
use crate::sync::hook_tasks::runs_in_sync_phase;
use crate::sync::merge::{created_by, updated};
use crate::sync::order::{sort_key, wave};
use crate::sync::replace::{self, replaced, replaces};
use crate::value::ValueRef;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// One step of a plan, in its sync wave. `object` is what the key will hold
/// afterwards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", deny_unknown_fields)]
pub enum Operation {
    Create {
        key: String,
        wave: i64,
        object: Arc<Value>,
    },
    Update {
        key: String,
        wave: i64,
        /// Each field that differs, live value to desired value.
        changes: Vec<Change>,
        object: Arc<Value>,
        /// Argo CD's `Replace=true`: written whole with `kubectl replace`
        /// (`sync::replace`), what only the cluster set gone. Written out for
        /// the reader; a plan read back writes its objects alike without it.
        #[serde(skip_deserializing, skip_serializing_if = "std::ops::Not::not")]
        replace: bool,
    },
    Delete {
        key: String,
        wave: i64,
        /// Argo CD's `Prune=confirm`: a sync holds this wave, and every later
        /// one, until a person confirms the deletion.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        confirm: bool,
    },
    /// A deletion that prune would make but the object's protection
    /// prevents, or a write Flux does not make (`flux_skips_apply`).
    Skip {
        key: String,
        wave: i64,
        reason: String,
    },
}

impl Operation {
    pub fn key(&self) -> &str {
        match self {
            Operation::Create { key, .. }
            | Operation::Update { key, .. }
            | Operation::Delete { key, .. }
            | Operation::Skip { key, .. } => key,
        }
    }

    pub fn wave(&self) -> i64 {
        match self {
            Operation::Create { wave, .. }
            | Operation::Update { wave, .. }
            | Operation::Delete { wave, .. }
            | Operation::Skip { wave, .. } => *wave,
        }
    }

    pub fn verb(&self) -> &'static str {
        match self {
            Operation::Create { .. } => "create",
            Operation::Update { .. } => "update",
            Operation::Delete { .. } => "delete",
            Operation::Skip { .. } => "skip",
        }
    }

    /// Whether it is a deletion that waits for a person to confirm it.
    pub fn waits_for_confirmation(&self) -> bool {
        matches!(self, Operation::Delete { confirm: true, .. })
    }

    /// Whether applying it changes the cluster (a skip does not).
    pub fn changes_cluster(&self) -> bool {
        !matches!(self, Operation::Skip { .. })
    }
}

pub type Plan = Vec<Operation>;

/// Whether a plan has anything to apply.
pub fn has_work(plan: &[Operation]) -> bool {
    plan.iter().any(Operation::changes_cluster)
}

/// The plan that makes `actual` equal `desired`, in the order a sync runs
/// it (gitops-engine's `getSyncTasks`, `syncTasks.Less` and `runTasks`):
/// wave by wave; within a wave the deletions first, then the creates and
/// updates; within each, by kind and name (a Namespace before what it
/// holds). A create or update runs in its object's wave. With
/// `options.prune`, the waves of the deletions are mirrored (the lowest
/// wave among them swaps with the highest, and so on), so that objects go
/// in the reverse of the order they came in; a `PruneLast` deletion runs in
/// a wave after every other, and a protected object is skipped, with the
/// reason, where its deletion would be.
pub fn plan(desired: &State, actual: &State, options: &Options) -> Plan {
    plan_for(
        &compare(
            desired,
            actual,
            &options.ignore,
            options.owner(),
        ),
        desired,
        options,
    )
}

pub(crate) fn plan_for(differences: &[Difference], desired: &State, options: &Options) -> Plan {
    let writes = writes(differences, mode_of(desired), options);
    if !options.prune {
        return writes;
    }
    let prunes = prunes(differences, desired, options.acting_agent());
    if prunes.is_empty() {
        return writes;
    }
    // Both are sorted by wave: merge them, the prunes of a wave first
    // ("prune first", then "finally create resources").
    let mut plan = Vec::with_capacity(writes.len() + prunes.len());
    let mut writes = writes.into_iter().peekable();
    for prune in prunes {
        while let Some(write) = writes.next_if(|write| write.wave() < prune.wave()) {
            plan.push(write);
        }
        plan.push(prune);
    }
    plan.extend(writes);
    plan
}

fn writes(differences: &[Difference], mode: Mode, options: &Options) -> Plan {
    let written: Vec<(&str, ValueRef)> = differences
        .iter()
        .filter_map(|difference| match difference {
            Difference::Missing { key, desired } => Some((*key, desired.view())),
            Difference::Changed { key, desired, .. } => Some((*key, desired.view())),
            Difference::Extra { .. }
            | Difference::Unmanaged { .. }
            | Difference::Excluded { .. }
            | Difference::Hook { .. } => None,
        })
        .collect();
    let dependency_waves = earliest_wave_per_dependency(written.iter().map(|&(_, object)| object), |object| wave_under(options.acting_agent(), object));
    let wave_of = |object: ValueRef| moved_by_dependents(&dependency_waves, object, wave_under(options.acting_agent(), object));
    // Each operation's sort key is read from its object once, not at every comparison.
    let mut ordered: Vec<_> = differences
        .iter()
        .filter_map(|difference| match difference {
            Difference::Missing { desired, .. } => Some((wave_of(desired.view()), difference)),
            Difference::Changed { desired, .. } => Some((wave_of(desired.view()), difference)),
            Difference::Excluded { desired, .. } => Some((wave_of(desired.view()), difference)),
            Difference::Extra { .. } | Difference::Unmanaged { .. } | Difference::Hook { .. } => {
                None
            }
        })
        .map(|(wave, difference)| {
            let order = sort_key(wave, desired_of(difference), difference.key());
            (order, wave, difference)
        })
        .collect();
    sort_by_key(&mut ordered, |&(order, ..)| order);
    ordered
        .into_iter()
        .map(|(_, wave, difference)| match difference {
            Difference::Missing { key, desired } => Operation::Create {
                key: key.to_string(),
                wave,
                object: Arc::new(match mode == Mode::Kubernetes && replaces(options, desired.value(), None) {
                    true => replace::created(desired.value()),
                    false => created_by(options.owner(), desired.view(), mode),
                }),
            },
            Difference::Changed {
                key,
                desired,
                actual,
                changes,
                last_applied,
                written,
            } => {
                let respect = options.respect_ignore_differences;
                let replace = mode == Mode::Kubernetes && replaces(options, desired.value(), Some(actual.value()));
                let object = match replace {
                    true => Arc::new(replaced(desired.value(), actual.value(), &kept_live(&options.ignore, respect, key, desired.view()))),
                    false => written[usize::from(respect)].get_or_init(|| {
                        let kept = kept_live(&options.ignore, respect, key, desired.view());
                        Arc::new(updated(
                            desired.value(),
                            actual.value(),
                            last_applied.as_deref(),
                            mode,
                            &kept,
                        ))
                    })
                    .clone(),
                };
                Operation::Update {
                    key: key.to_string(),
                    wave,
                    changes: changes.to_vec(),
                    object,
                    replace,
                }
            }
            Difference::Excluded { key, reason, .. } => Operation::Skip {
                key: key.to_string(),
                wave,
                reason: reason.clone(),
            },
            Difference::Extra { .. } | Difference::Unmanaged { .. } | Difference::Hook { .. } => {
                unreachable!("only writes were kept")
            }
        })
        .collect()
}

fn desired_of<'d>(difference: &'d Difference) -> ValueRef<'d> {
    match difference {
        Difference::Missing { desired, .. } => desired.view(),
        Difference::Changed { desired, .. } => desired.view(),
        Difference::Excluded { desired, .. } => desired.view(),
        Difference::Extra { actual, .. } => actual.view(),
        Difference::Unmanaged { .. } | Difference::Hook { .. } => ValueRef::Built(&Value::Null),
    }
}

/// The wave a Namespace or a CRD (`object`, its own wave `own`) runs in when every
/// object of `desired` takes part in the sync, as Argo CD syncs them all by default:
/// the earliest of its own and those of the objects that depend on it. So
/// gitops-engine's `syncTasks.Sort` does: its `adjustDeps` gives a Namespace the
/// wave of the first task in it, and a CRD the wave of the first of its custom
/// resources. The plan moves them by the objects it writes.
pub fn dependency_wave(desired: &State, object: ValueRef, own: i64) -> i64 {
    let waves = earliest_wave_per_dependency(desired.objects().values().map(|object| object.view()), wave);
    moved_by_dependents(&waves, object, own)
}

/// What the sync must create before the objects that need it, as `adjustDeps`
/// keys it: a Namespace by its name, a CRD by the group and kind it defines.
#[derive(PartialEq)]
enum Need<'v> {
    Namespace(&'v str),
    Kind(&'v str, &'v str),
}

/// What `object` is a dependency of others as, if it is one.
fn dependency_of(object: ValueRef) -> Option<Need> {
    let text = |path: &[&str]| object.at(path).and_then(ValueRef::as_str);
    match (text(&["apiVersion"])?, text(&["kind"])?) {
        ("v1", "Namespace") => Some(Need::Namespace(text(&["metadata", "name"])?)),
        (version, "CustomResourceDefinition") if version.starts_with("apiextensions.k8s.io/") => {
            Some(Need::Kind(text(&["spec", "group"])?, text(&["spec", "names", "kind"])?))
        }
        _ => None,
    }
}

/// For each dependency among `objects` (`dependency_of`: few, most often none),
/// the earliest wave of an object that needs it, one in the namespace or one of
/// the kind (`i64::MAX` when none does).
fn earliest_wave_per_dependency<'v>(objects: impl Iterator<Item = ValueRef<'v>> + Clone, wave_of: impl Fn(ValueRef<'v>) -> i64) -> Vec<(Need<'v>, i64)> {
    let mut earliest: Vec<(Need, i64)> = objects.clone().filter_map(dependency_of).map(|need| (need, i64::MAX)).collect();
    if earliest.is_empty() {
        return earliest;
    }
    for object in objects {
        let wave = wave_of(object);
        let text = |name: &str| object.get(name).and_then(ValueRef::as_str).unwrap_or("");
        let group = text("apiVersion").rsplit_once('/').map_or("", |(group, _)| group);
        for need in [namespace_of(object).map(Need::Namespace), Some(Need::Kind(group, text("kind")))].into_iter().flatten() {
            if let Some((_, earlier)) = earliest.iter_mut().find(|(dependency, _)| *dependency == need) {
                *earlier = (*earlier).min(wave);
            }
        }
    }
    earliest
}

/// The wave of `object` (its own wave `own`), moved to the earliest of what needs it.
fn moved_by_dependents(earliest: &[(Need, i64)], object: ValueRef, own: i64) -> i64 {
    let Some(need) = dependency_of(object) else {
        return own;
    };
    earliest.iter().find(|(dependency, _)| *dependency == need).map_or(own, |(_, dependents)| own.min(*dependents))
}

/// The deletions of extra objects (skips for protected ones), each in the
/// wave it runs in, in sync order. As gitops-engine's `getSyncTasks` does:
/// the distinct waves of the objects to prune are swapped symmetrically
/// (the lowest with the highest, the second lowest with the second highest,
/// ...), and a `PruneLast=true` one then runs in the wave after the last
/// of the sync phase (every resource Git declares, every Sync hook and
/// every object to prune, never below wave 0). Within a wave: by kind,
/// then name.
fn prunes(differences: &[Difference], desired: &State, agent: Agent) -> Plan {
    let extras: Vec<(&str, &Object)> = differences
        .iter()
        .filter_map(|difference| match difference {
            Difference::Extra { key, actual } => Some((*key, *actual)),
            _ => None,
        })
        .collect();
    let wave = |object: &Object| wave_under(agent, object);
    let prunes_last = |object: &Object| agent == Agent::ArgoCd && prunes_last(object);
    let mut waves: Vec<i64> = extras.iter().map(|(_, actual)| wave(actual)).collect();
    sort_by_key(&mut waves, |&wave| wave);
    waves.dedup();
    let mirrored = |own: i64| match waves.binary_search(&own) {
        Ok(index) => waves[waves.len() - 1 - index],
        Err(_) => own,
    };
    let after_the_last = if extras.iter().any(|(_, actual)| prunes_last(actual)) {
        let declared = desired
            .objects()
            .values()
            .filter(|object| runs_in_sync_phase(desired, object))
            .map(|object| wave(object));
        let last = declared.chain(waves.last().copied()).fold(0, i64::max);
        last.saturating_add(1)
    } else {
        0
    };
    let mut ordered: Vec<_> = extras
        .into_iter()
        .map(|(key, actual)| {
            let runs_in = if prunes_last(actual) {
                after_the_last
            } else {
                mirrored(wave(actual))
            };
            (sort_key(runs_in, actual, key), runs_in, key, actual)
        })
        .collect();
    sort_by_key(&mut ordered, |&(order, ..)| order);
    ordered
        .into_iter()
        // Argo CD's sync options do nothing under Flux, whose own protection
        // (`prune: disabled`) leaves the object out of its inventory (`flux_releases`).
        .map(|(_, wave, key, actual)| match argo_prune_protection(actual).filter(|_| agent == Agent::ArgoCd) {
            Some(reason) => Operation::Skip {
                key: key.to_string(),
                wave,
                reason,
            },
            None => Operation::Delete {
                key: key.to_string(),
                wave,
                confirm: agent == Agent::ArgoCd && requires_prune_confirmation(actual),
            },
        })
        .collect()
}

/// An object's sync wave under `agent`: Argo CD's annotation (`order::wave`);
/// Flux has no waves, and applies in one stage ordered by kind (fluxcd/pkg
/// `ApplyAllStaged`: Namespaces and definitions before what they hold).
fn wave_under<'a>(agent: Agent, object: impl Into<ValueRef<'a>>) -> i64 {
    match agent {
        Agent::ArgoCd => wave(object),
        Agent::Flux => 0,
    }
}
