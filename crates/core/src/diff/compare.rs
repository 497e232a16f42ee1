//! The one comparison of desired against actual that both the plan and the
//! drift report are derived from, so the two always agree.

use crate::diff::changes::{changes, Change, Rules};
use crate::diff::ignore::{kept_live, patterns_for, IgnoreRule};
use crate::diff::normalize::{desired_as_stored, last_applied_beside, Mode};
use crate::diff::flux_labels::{is_labelled_by, with_owner_labels};
use crate::diff::tracking::{is_tracked_by, with_tracking};
use crate::agent::{Agent, Owner};
use crate::diff::ssa::{argo_applies_server_side, argo_apply, flux_apply};
use crate::diff::ignore::with_live_at;
use crate::memo::Memo;
use crate::state::hook_annotations::is_hook;
use crate::state::pairs::{aligned, Pair};
use crate::state::protection::{flux_releases, flux_skips_apply};
use crate::state::{Form, Key, Object, State};
use crate::value::{ValueCow, ValueRef};
use serde_json::Value;
use std::cell::OnceCell;
use std::rc::Rc;
use std::sync::Arc;

/// How one key differs between the desired and the actual state.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference<'a> {
    /// Desired but not in the actual state.
    Missing {
        key: &'a str,
        desired: AsStored<'a>,
    },
    /// In both, with different contents.
    Changed {
        key: &'a str,
        desired: AsStored<'a>,
        actual: &'a Object,
        /// Shared with what the comparison remembers of the pair.
        changes: Rc<[Change]>,
        /// What Git last applied (Kubernetes objects that record it).
        last_applied: Option<Arc<Value>>,
        /// The object an update writes, once a plan worked it out, without
        /// and with `RespectIgnoreDifferences`: the same pair of objects
        /// compared again finds it here.
        written: Rc<[OnceCell<Arc<Value>>; 2]>,
    },
    /// In the actual state but not desired, and the application's.
    Extra { key: &'a str, actual: &'a Object },
    /// In the actual state but not desired, and not the application's: no
    /// tracking id of its own (a pod started by hand, what Kubernetes puts
    /// in every namespace), or released by Flux (`flux_releases`). Neither
    /// drift nor pruned.
    Unmanaged { key: &'a str },
    /// Desired, but Flux does not apply it (`flux_skips_apply`): neither
    /// drift nor written; the plan says why.
    Excluded {
        key: &'a str,
        desired: &'a Object,
        reason: String,
    },
    /// A hook Git declares, or a hook's object the cluster holds (Kubernetes
    /// objects only; `state::hook_annotations::is_hook`): no resource of the
    /// application (gitops-engine's `splitHooks`), so neither drift nor
    /// written nor pruned, with no sync status or health of its own (Argo
    /// CD's controller/state.go and health.go pass hooks by). A sync runs
    /// Git's hooks in their phases (`sync::hook_tasks`); their delete policy,
    /// never a prune, removes their objects.
    Hook { key: &'a str },
}

/// Git's object as the API server stores it (`stored`): the declared object
/// itself when storing changes nothing, else the copy the comparison made
/// and remembers with what it found.
#[derive(Debug, Clone, PartialEq)]
pub enum AsStored<'a> {
    Declared(&'a Object),
    Copied(Arc<Value>),
}

impl AsStored<'_> {
    /// The object read where it lies.
    pub fn view(&self) -> ValueRef<'_> {
        match self {
            AsStored::Declared(object) => object.view(),
            AsStored::Copied(object) => ValueRef::Built(object),
        }
    }

    /// The object as a value (a declared one built, if it was read into a tape).
    pub fn value(&self) -> &Value {
        match self {
            AsStored::Declared(object) => object.value(),
            AsStored::Copied(object) => object,
        }
    }
}

impl Difference<'_> {
    pub fn key(&self) -> &str {
        match self {
            Difference::Missing { key, .. }
            | Difference::Changed { key, .. }
            | Difference::Extra { key, .. }
            | Difference::Unmanaged { key }
            | Difference::Excluded { key, .. }
            | Difference::Hook { key } => key,
        }
    }
}

/// How the objects of `desired` compare: exactly in the lesson's form,
/// as Kubernetes objects otherwise.
pub fn mode_of(desired: &State) -> Mode {
    match desired.form() {
        Form::Named => Mode::Exact,
        Form::List | Form::KubernetesList { .. } => Mode::Kubernetes,
    }
}

/// Every difference between `desired` and `actual`, in key order. One merge
/// over the two sorted states: linear in their sizes.
///
/// With an `owner`, Kubernetes objects are compared as its agent compares
/// them: Argo CD's, Git's carrying their tracking id, and a live object Git
/// does not declare is extra only when it carries its own (`tracking.rs`);
/// Flux's, Git's carrying the Kustomization's labels, each compared with what
/// its forced server-side apply would write (`flux_apply`, fluxcd/pkg's dry run
/// and `hasDriftedWithIgnore`), and only labelled live objects extra
/// (`flux_labels.rs`). Without one every such object is extra, the
/// playground's simpler rule.
pub fn compare<'a>(
    desired: &'a State,
    actual: &'a State,
    ignore: &[IgnoreRule],
    owner: Option<Owner>,
) -> Vec<Difference<'a>> {
    let pairs = aligned(desired, actual);
    compare_pairs(&mut Comparisons::off(), desired, actual, &pairs, ignore, owner)
}

/// `compare`, over the `pairs` of the two states (`aligned`), walked already. A
/// pair of objects `found` holds from a recent large comparison is not compared
/// again: what was found (in sync, or the changes) is remembered, and so is the
/// object the plan's update of it writes.
pub(crate) fn compare_pairs<'a>(
    found: &mut Comparisons,
    desired: &'a State,
    actual: &'a State,
    pairs: &[Pair<'a>],
    ignore: &[IgnoreRule],
    owner: Option<Owner>,
) -> Vec<Difference<'a>> {
    let how = How::of(desired, ignore, owner);
    let condition = (
        how.mode,
        ignore.to_vec(),
        how.owner.map(|owner| (owner.application.to_string(), owner.agent, owner.server_side_apply)),
    );
    let objects = desired.len() + actual.len();
    found.pass(condition, objects, |found| {
        pairs
            .iter()
            .filter_map(|&pair| {
                difference_of(pair, how, &mut |key, desired, actual| {
                    found.get_or(key, [Some(desired), Some(actual)], || {
                        judge(key, desired, actual, how)
                    })
                })
            })
            .collect()
    })
}

/// How one pair of `desired` and another state (`aligned`) differs, as `compare`
/// finds it, compared afresh: a report patched where a few objects changed asks it
/// of the pairs at their keys.
pub(crate) fn compare_pair<'a>(
    desired: &State,
    pair: Pair<'a>,
    ignore: &[IgnoreRule],
    owner: Option<Owner>,
) -> Option<Difference<'a>> {
    let how = How::of(desired, ignore, owner);
    difference_of(pair, how, &mut |key, desired, actual| {
        judge(key, desired, actual, how)
    })
}

/// What a comparison depends on besides the objects, for the functions below.
#[derive(Clone, Copy)]
struct How<'r> {
    ignore: &'r [IgnoreRule],
    mode: Mode,
    owner: Option<Owner<'r>>,
}

impl<'r> How<'r> {
    /// How the objects of `desired` compare under these rules: an owner
    /// counts for Kubernetes objects alone.
    fn of(desired: &State, ignore: &'r [IgnoreRule], owner: Option<Owner<'r>>) -> Self {
        let mode = mode_of(desired);
        How {
            ignore,
            mode,
            owner: owner.filter(|_| mode == Mode::Kubernetes),
        }
    }

    fn is_flux(&self) -> bool {
        self.owner.is_some_and(|owner| owner.agent == Agent::Flux)
    }

    /// Whether Flux's marks (`kustomize.toolkit.fluxcd.io/prune`, `/reconcile`,
    /// `/ssa`) count: not under Argo CD's agent, which reads none of them.
    fn reads_flux_marks(&self) -> bool {
        !self.owner.is_some_and(|owner| owner.agent == Agent::ArgoCd)
    }
}

/// How each pair of objects compared, by key.
pub(crate) type Comparisons = Memo<Condition, Verdict>;

/// How a pair of objects compares, as the memo keeps it.
#[derive(Clone)]
pub(crate) enum Verdict {
    InSync,
    /// Git declares a hook (`is_hook_here`), which is no resource.
    HookDeclared,
    Differs(Found),
    /// Flux does not apply Git's object, and why (`flux_skips_apply`).
    Excluded(String),
}

/// What a comparison depends on besides the objects, as the memo keeps it.
pub(crate) type Condition = (Mode, Vec<IgnoreRule>, Option<(String, Agent, bool)>);

/// How a desired and a live object differ.
#[derive(Clone)]
pub(crate) struct Found {
    /// Git's object as stored, when that is a copy.
    pub(crate) stored: Option<Arc<Value>>,
    pub(crate) changes: Rc<[Change]>,
    pub(crate) last_applied: Option<Arc<Value>>,
    pub(crate) written: Rc<[OnceCell<Arc<Value>>; 2]>,
}

/// How the objects of one pair differ, if they do; `verdict` judges a desired and
/// a live object at one key. One copy in the build for both of its callers.
fn difference_of<'a>(
    pair: Pair<'a>,
    how: How,
    verdict: &mut dyn FnMut(&'a Key, &'a Arc<Object>, &'a Arc<Object>) -> Verdict,
) -> Option<Difference<'a>> {
    match pair {
        Pair::Desired(key, desired) if is_hook_here(desired, how) => Some(Difference::Hook { key }),
        Pair::Desired(key, desired) => Some(match flux_skips_apply(desired, None).filter(|_| how.reads_flux_marks()) {
            Some(reason) => Difference::Excluded {
                key,
                desired,
                reason,
            },
            None => Difference::Missing {
                key,
                desired: stored(desired, how),
            },
        }),
        Pair::Actual(key, actual) => not_declared(key, actual, how),
        Pair::Both(key, desired, actual, _) => match verdict(key, desired, actual) {
            Verdict::InSync => None,
            // Git's hook is no resource, so a live object of its key
            // that is no hook is one Git does not declare.
            Verdict::HookDeclared => not_declared(key, actual, how),
            Verdict::Excluded(reason) => Some(Difference::Excluded {
                key,
                desired,
                reason,
            }),
            Verdict::Differs(Found {
                stored,
                changes,
                last_applied,
                written,
            }) => Some(Difference::Changed {
                key,
                desired: stored.map_or(AsStored::Declared(desired), AsStored::Copied),
                actual,
                changes,
                last_applied,
                written,
            }),
        },
    }
}

/// How a live object Git does not declare as a resource stands: a hook's
/// object, one another object owns (none), one the application does not
/// manage, or extra.
fn not_declared<'a>(key: &'a str, actual: &'a Object, how: How) -> Option<Difference<'a>> {
    match how.owner {
        _ if is_hook_here(actual, how) => Some(Difference::Hook { key }),
        _ if is_owned(actual) => None,
        _ if how.reads_flux_marks() && flux_releases(actual).is_some() => Some(Difference::Unmanaged { key }),
        Some(Owner { application, agent: Agent::ArgoCd, .. }) if !is_tracked_by(actual, application) => {
            Some(Difference::Unmanaged { key })
        }
        Some(Owner { application, agent: Agent::Flux, .. }) if !is_labelled_by(actual, application) => {
            Some(Difference::Unmanaged { key })
        }
        _ => Some(Difference::Extra { key, actual }),
    }
}

/// Whether an object is a hook: a Kubernetes object that `is_hook`, unless
/// Flux applies it (Flux runs no hooks: Argo CD's annotations do nothing);
/// in the lesson's form no object is.
fn is_hook_here(object: &Object, how: How) -> bool {
    how.mode == Mode::Kubernetes && !how.is_flux() && is_hook(object)
}

/// How the pair of objects at `key` compares: Git's is a hook, Flux leaves
/// it alone, or it is in sync or differs.
fn judge(key: &str, desired: &Object, actual: &Object, how: How) -> Verdict {
    if is_hook_here(desired, how) {
        return Verdict::HookDeclared;
    }
    if let Some(reason) = flux_skips_apply(desired, Some(actual.view())).filter(|_| how.reads_flux_marks()) {
        return Verdict::Excluded(reason);
    }
    find(key, desired, actual, how).map_or(Verdict::InSync, Verdict::Differs)
}

/// How the object at `key` differs from what is desired, if it does.
fn find(key: &str, desired: &Object, actual: &Object, how: How) -> Option<Found> {
    let How { ignore, mode, .. } = how;
    let desired = stored(desired, how);
    if how.is_flux() {
        return ssa_drift(key, desired, actual, ignore, Applier::Flux);
    }
    if mode == Mode::Kubernetes && argo_applies_server_side(how.owner, desired.view()) {
        return ssa_drift(key, desired, actual, ignore, Applier::ArgoCd);
    }
    let last_applied = match mode {
        Mode::Exact => None,
        Mode::Kubernetes => last_applied_beside(actual, desired.view()),
    };
    let ignored = patterns_for(ignore, key, desired.view());
    let rules = Rules {
        mode,
        ignored: &ignored,
    };
    let changes = changes(desired.view(), actual, last_applied.as_ref().map(ValueCow::view), rules);
    if changes.is_empty() {
        return None;
    }
    let last_applied = last_applied.map(|record| Arc::new(record.into_owned()));
    Some(Found {
        stored: match desired {
            AsStored::Declared(_) => None,
            AsStored::Copied(copy) => Some(copy),
        },
        changes: changes.into(),
        last_applied,
        written: Rc::default(),
    })
}

/// An object another object owns (`metadata.ownerReferences`), such as a
/// Secret an operator made: it belongs to its owner, not to Git, so it is
/// never extra (gitops-engine treats it as a child, not a managed object).
fn is_owned(object: &Object) -> bool {
    object
        .view()
        .at(&["metadata", "ownerReferences"])
        .is_some_and(|owners| owners.is_array() && owners.count() != Some(0))
}

/// Git's object as compared and written: in the lesson's form as it is; a
/// Kubernetes object as the API server stores it, with the application's
/// tracking id when there is an application.
fn stored<'v>(desired: &'v Object, how: How) -> AsStored<'v> {
    let stored = match (how.mode, how.owner) {
        (Mode::Exact, _) => return AsStored::Declared(desired),
        (Mode::Kubernetes, None) => desired_as_stored(desired),
        (Mode::Kubernetes, Some(Owner { application, agent: Agent::ArgoCd, .. })) => {
            with_tracking(desired_as_stored(desired), application)
        }
        (Mode::Kubernetes, Some(Owner { application, agent: Agent::Flux, .. })) => {
            with_owner_labels(desired_as_stored(desired), application)
        }
    };
    match stored {
        ValueCow::Same(_) => AsStored::Declared(desired),
        ValueCow::Changed(copy) => AsStored::Copied(Arc::new(copy)),
    }
}

/// How a live object differs from what Flux's apply of Git's would write
/// (fluxcd/pkg `ResourceManager.ApplyAll`: a server-side dry run, then
/// `hasDriftedWithIgnore` against the live object), who owns each field
/// aside: a field Flux's cleanup takes and its apply no longer sets is
/// drift, a field only another manager owns is not. An ignored field is
/// no drift and keeps its live value (`computeDriftedPaths` and
/// `applyDriftResult`: stripped from the apply, or the live value adopted).
/// The object it would write is kept for the plan's update.
///
/// Argo CD's server-side apply compares the same way (`StructuredMergeDiff`:
/// the merge of its apply as `argocd-controller` against the live object), with
/// no cleanup before it, and its ignore rules keep a live value only with
/// `RespectIgnoreDifferences=true`: the plan's update writes Git's otherwise
/// (the shorthand's and Flux's rules keep theirs, `IgnoreRule::keeps_live`).
fn ssa_drift(key: &str, desired: AsStored, actual: &Object, ignore: &[IgnoreRule], applier: Applier) -> Option<Found> {
    let ignored = patterns_for(ignore, key, desired.view());
    let applied = match applier {
        Applier::Flux => flux_apply(Some(actual.value()), desired.value()).object,
        Applier::ArgoCd => argo_apply(Some(actual.value()), desired.value()).object,
    };
    let gits = (applier == Applier::ArgoCd && !ignored.is_empty())
        .then(|| with_live_at(applied.clone(), actual.value(), &kept_live(ignore, false, key, desired.view())));
    let written = with_live_at(applied, actual.value(), &ignored);
    let rules = Rules {
        mode: Mode::Exact,
        ignored: &ignored,
    };
    let [after, before] = [&written, actual.value()].map(without_managed_fields);
    let changes = changes(after.view(), before.view(), None, rules);
    if changes.is_empty() {
        return None;
    }
    let written = Arc::new(written);
    let unkept = gits.map_or_else(|| written.clone(), Arc::new);
    let cells: [OnceCell<Arc<Value>>; 2] = [OnceCell::from(unkept), OnceCell::from(written)];
    Some(Found {
        stored: match desired {
            AsStored::Declared(_) => None,
            AsStored::Copied(copy) => Some(copy),
        },
        changes: changes.into(),
        last_applied: None,
        written: Rc::new(cells),
    })
}

/// Whose server-side apply `ssa_drift` compares with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Applier {
    Flux,
    ArgoCd,
}

fn without_managed_fields(object: &Value) -> ValueCow<'_> {
    match object.pointer("/metadata/managedFields") {
        None => ValueCow::Same(ValueRef::from(object)),
        Some(_) => {
            let mut copy = object.clone();
            if let Some(metadata) = copy.get_mut("metadata").and_then(Value::as_object_mut) {
                metadata.remove("managedFields");
            }
            ValueCow::Changed(copy)
        }
    }
}
