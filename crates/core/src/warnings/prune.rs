//! `unprotected-prune` (prune is on and a stateful object has no protection)
//! and `pruned-namespace` (a prune deletes a Namespace holding objects meant to stay).

use super::{kind, warning, Warning};
use super::{PRUNED_NAMESPACE, UNPROTECTED_PRUNE};
use crate::diff::compare::mode_of;
use crate::diff::normalize::Mode;
use crate::diff::tracking::is_tracked_by;
use crate::memo::Memo;
use crate::options::Options;
use crate::state::hook_annotations::is_hook;
use crate::state::meta::metadata_map;
use crate::state::pairs::Pair;
use crate::state::protection::{
    flux_releases, misspelt_sync_option, prune_protection, requires_prune_confirmation,
};
use crate::state::{Key, Object, State};
use crate::sync::apply::{is_in, namespace_at};
use crate::value::ValueRef;
use std::sync::Arc;

const PROTECT: &str = "`argocd.argoproj.io/sync-options: Prune=false` (Argo CD) or \
                       `kustomize.toolkit.fluxcd.io/prune: disabled` (Flux)";

pub(super) fn unprotected_prunes(
    stateful: &mut Stateful,
    desired: &State,
    pairs: &[Pair],
    options: &Options,
    found: &mut Vec<Warning>,
) {
    if !options.prune {
        return;
    }
    let unprotected_desired = stateful.pass((), desired.len(), |remembered| {
        let objects = desired.objects().iter();
        objects
            .filter_map(|(key, object)| {
                let what = remembered.get_or(key, [Some(object), None], || {
                    unprotected_declared(desired, object)
                });
                Some((key, object, what?))
            })
            .collect::<Vec<_>>()
    });
    for (key, object, what) in unprotected_desired {
        found.push(declared_warning(key, object, &what));
    }
    for (key, object) in not_in_git(pairs) {
        found.extend(unprotected_prune_of_live(desired, options, key, object));
    }
}

/// `unprotected-prune` at `key`, which `desired` declares or the cluster holds
/// alone: the finding about one object, either way.
pub(super) fn unprotected_prune_at(
    desired: &State,
    actual: &State,
    options: &Options,
    key: &str,
) -> Option<Warning> {
    if !options.prune {
        return None;
    }
    match (desired.object(key), actual.object(key)) {
        (Some(object), _) => {
            let what = unprotected_declared(desired, object)?;
            Some(declared_warning(key, object, &what))
        }
        (None, Some(object)) => unprotected_prune_of_live(desired, options, key, object),
        (None, None) => None,
    }
}

/// What makes an object Git declares stateful with nothing protecting it; a hook
/// never is one (its delete policy removes it, no prune).
fn unprotected_declared(desired: &State, object: &Object) -> Option<String> {
    let exact = mode_of(desired) == Mode::Exact;
    (exact || !is_hook(object))
        .then(|| unprotected(object.into()))
        .flatten()
}

/// The `unprotected-prune` finding about the object Git declares at `key`, which
/// `what` says is stateful.
fn declared_warning(key: &str, object: &Object, what: &str) -> Warning {
    let loss = what_a_prune_loses(Some(object.into()));
    warning(
        key,
        UNPROTECTED_PRUNE,
        format!(
            "`{key}` is {what} and prune is on, but nothing protects it: if its manifest \
             leaves Git by mistake (a deleted file, a moved directory), the next sync \
             deletes it{loss}. Annotate it with {PROTECT}."
        ),
    )
}

/// `unprotected-prune` for the live `object` at `key`, which Git does not declare.
fn unprotected_prune_of_live(
    desired: &State,
    options: &Options,
    key: &str,
    object: &Object,
) -> Option<Warning> {
    if !prunable(desired, options, object) {
        return None;
    }
    let what = unprotected(object.into())?;
    let loss = what_a_prune_loses(Some(object.into()));
    Some(warning(
        key,
        UNPROTECTED_PRUNE,
        format!(
            "`{key}` is {what} that Git no longer declares, and prune is on: this sync \
             will delete it{loss}. If it left Git by mistake, put its \
             manifest back; to keep it anyway, annotate the live object with {PROTECT}, \
             or turn prune off."
        ),
    ))
}

// --- pruned-namespace -------------------------------------------------------

/// A Namespace that a prune deletes, with objects in it that were meant to
/// stay: protected from a prune, or in Git. Gives the names of the namespaces a
/// prune deletes, whether or not they hold such objects.
pub(super) fn pruned_namespaces<'a>(
    desired: &State,
    actual: &'a State,
    pairs: &[Pair],
    options: &Options,
    found: &mut Vec<Warning>,
) -> Vec<&'a str> {
    if !options.prune {
        return Vec::new();
    }
    let pruned = not_in_git(pairs)
        .filter(|(_, object)| !prune_protected(object.into()) && prunable(desired, options, object));
    let mut namespaces = Vec::new();
    for (key, namespace) in pruned.filter_map(|(key, _)| Some((key, namespace_at(actual, key)?))) {
        namespaces.push(namespace);
        let protected = actual
            .objects()
            .iter()
            .filter(|(inside, object)| {
                is_in(object, namespace) && prune_protected(object.into()) && desired.object(inside).is_none()
            })
            .map(|(inside, _)| format!("`{inside}` (protected from a prune, not from this)"));
        let declared = desired
            .objects()
            .iter()
            .filter(|(_, object)| is_in(object, namespace))
            .map(|(inside, _)| {
                format!("`{inside}` (in Git: the next sync creates it again, empty)")
            });
        let kept: Vec<String> = protected.chain(declared).collect();
        if kept.is_empty() {
            continue;
        }
        found.push(warning(
            key,
            PRUNED_NAMESPACE,
            format!(
                "`{key}` is not in Git and prune is on: this sync deletes it, and Kubernetes \
                 deletes everything in it along with it: {}. Put the Namespace back in Git, \
                 or annotate it with {PROTECT}.",
                kept.join(", ")
            ),
        ));
    }
    namespaces
}

/// The live objects Git does not declare, found in the walk over both sorted
/// states (`aligned`) rather than a lookup each.
fn not_in_git<'p, 'a>(pairs: &'p [Pair<'a>]) -> impl Iterator<Item = (&'a Key, &'a Arc<Object>)> + 'p {
    pairs.iter().filter_map(|pair| match *pair {
        Pair::Actual(key, object) => Some((key, object)),
        Pair::Desired(..) | Pair::Both(..) => None,
    })
}

/// What `unprotected` found for each desired object, by key.
pub(super) type Stateful = Memo<(), Option<String>>;

/// Whether a prune may delete the live `object` Git does not declare: not
/// a hook's object (its delete policy removes it), not what Flux releases,
/// and with an application only what carries its tracking id
/// (`diff/tracking.rs`).
fn prunable(desired: &State, options: &Options, object: &Object) -> bool {
    let application = options.application.as_deref();
    flux_releases(object).is_none()
        && (mode_of(desired) == Mode::Exact
            || (!is_hook(object)
                && application.is_none_or(|application| is_tracked_by(object, application))))
}

/// What makes the object stateful, when no annotation protects it from a
/// prune, followed by why an annotation meant to protect it does not.
fn unprotected(object: ValueRef) -> Option<String> {
    if prune_protected(object) {
        return None;
    }
    let what = stateful(object)?;
    Some(match misspelt_sync_option(object) {
        Some((written, meant)) => format!(
            "{what} (its sync option `{written}` does not protect it: Argo CD reads \
             `{meant}` exactly, letter case included)"
        ),
        None => what,
    })
}

/// What goes with a stateful object when it is deleted, in words. Deleting a
/// StatefulSet keeps the PersistentVolumeClaims its `volumeClaimTemplates`
/// made unless its `persistentVolumeClaimRetentionPolicy.whenDeleted` is
/// `Delete` (Kubernetes' default is `Retain`); deleting a claim releases its
/// volume, which a dynamically provisioned one (reclaim policy `Delete`, the
/// default of a StorageClass) takes with its data.
fn what_a_prune_loses(object: Option<ValueRef>) -> &'static str {
    let when_deleted = object
        .and_then(|object| object.at(&["spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted"]))
        .and_then(ValueRef::as_str);
    match (object.and_then(kind), when_deleted) {
        (Some("StatefulSet"), Some("Delete")) => {
            " and, by its `whenDeleted: Delete`, its PersistentVolumeClaims and their data"
        }
        (Some("StatefulSet"), _) => {
            " and the database stops; its PersistentVolumeClaims stay (Kubernetes' default \
             `whenDeleted: Retain`)"
        }
        (Some("PersistentVolumeClaim"), _) => {
            " and, with a provisioned volume (reclaim policy `Delete`), its data"
        }
        _ => " and whatever it holds",
    }
}

/// What makes the object stateful, in words; None when it is not.
fn stateful(object: ValueRef) -> Option<String> {
    match kind(object) {
        Some(kind @ ("StatefulSet" | "PersistentVolumeClaim")) => Some(format!("a {kind}")),
        _ => {
            let labels = metadata_map(object, "labels")?;
            let (label, _) = labels
                .fields()
                .find(|(_, value)| value.as_str() == Some("database"))?;
            Some(format!("a database (its label `{label}` is `database`)"))
        }
    }
}

/// Whether an annotation keeps a prune from deleting the object, or from
/// deleting it before a person confirms.
fn prune_protected(object: ValueRef) -> bool {
    prune_protection(object).is_some() || requires_prune_confirmation(object)
}
