//! Which live objects are Flux's: kustomize-controller labels what it applies
//! with its Kustomization's name and namespace (`resourceManager.SetOwnerLabels`
//! in `kustomization_controller.go`), and its inventory and those labels decide
//! what it prunes. The playground's Kustomization lives where `flux bootstrap`
//! puts it, in `flux-system`.

use crate::state::meta::set_in_metadata;
use crate::value::{ValueCow, ValueRef};
use serde_json::Value;

pub const NAME_LABEL: &str = "kustomize.toolkit.fluxcd.io/name";
pub const NAMESPACE_LABEL: &str = "kustomize.toolkit.fluxcd.io/namespace";
pub const KUSTOMIZATION_NAMESPACE: &str = "flux-system";

/// `object` with the owner labels of the Kustomization `name`, unless it
/// carries a Kustomization's already: what a Kustomization of a repository's
/// layout applies comes labelled with that one's name (the world's
/// `repository::flux`), and an environment compared as a whole keeps it.
pub fn with_owner_labels<'a>(object: impl Into<ValueCow<'a>>, name: &str) -> ValueCow<'a> {
    let object = object.into();
    if labelled_by(object.view()).is_some() {
        return object;
    }
    let mut labelled = object.into_owned();
    set_in_metadata(&mut labelled, "labels", NAME_LABEL, Value::String(name.into()));
    set_in_metadata(&mut labelled, "labels", NAMESPACE_LABEL, Value::String(KUSTOMIZATION_NAMESPACE.into()));
    ValueCow::Changed(labelled)
}

/// The Kustomization whose owner labels `object` carries, if any.
pub fn labelled_by<'a>(object: impl Into<ValueRef<'a>>) -> Option<&'a str> {
    let object = object.into();
    let label = |label: &str| object.at(&["metadata", "labels", label]).and_then(ValueRef::as_str);
    label(NAMESPACE_LABEL).filter(|namespace| *namespace == KUSTOMIZATION_NAMESPACE)?;
    label(NAME_LABEL)
}

/// Whether `object` carries the owner labels of the Kustomization `name`.
pub fn is_labelled_by<'a>(object: impl Into<ValueRef<'a>>, name: &str) -> bool {
    let object = object.into();
    let label = |label: &str| object.at(&["metadata", "labels", label]).and_then(ValueRef::as_str);
    label(NAME_LABEL) == Some(name) && label(NAMESPACE_LABEL) == Some(KUSTOMIZATION_NAMESPACE)
}
