//! The lesson's checklist as warnings: what in the desired state (and in what
//! a prune is about to delete) breaks a rule of the lesson, and what to do.
//!
//! One function per rule. Objects are read loosely: a field of an unexpected
//! type counts as absent, and nothing here panics, whatever the input.

use crate::diff::ignore::patterns_for;
use crate::image::{image_fields, ImageReference};
use crate::memo::Memo;
use crate::options::Options;
use crate::pointer::Step;
use crate::state::meta::metadata_map;
use crate::state::{Form, State};
use crate::sync::apply::{is_in, namespace_at};
use crate::sync::protection::{misspelt_sync_option, prune_protection};
use serde::Serialize;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// A finding of the lesson's checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub key: String,
    pub rule: &'static str,
    pub message: String,
}

pub const MUTABLE_IMAGE_TAG: &str = "mutable-image-tag";
pub const PLAINTEXT_SECRET: &str = "plaintext-secret";
pub const UNPROTECTED_PRUNE: &str = "unprotected-prune";
pub const PRUNED_NAMESPACE: &str = "pruned-namespace";
pub const FIELD_OWNED_BY_CONTROLLER: &str = "field-owned-by-controller";

/// Every rule of the checklist.
pub const RULES: [&str; 5] = [
    MUTABLE_IMAGE_TAG,
    PLAINTEXT_SECRET,
    UNPROTECTED_PRUNE,
    PRUNED_NAMESPACE,
    FIELD_OWNED_BY_CONTROLLER,
];

const REPLICAS: [Step<'static>; 2] = [Step::Field("spec"), Step::Field("replicas")];

/// Every finding about `desired` (and about `actual` objects a prune would delete), ordered by key, then rule.
pub fn warnings(desired: &State, actual: &State, options: &Options) -> Vec<Warning> {
    let mut found = Vec::new();
    mutable_image_tags(desired, &mut found);
    plaintext_secrets(desired, &mut found);
    unprotected_prunes(desired, actual, options, &mut found);
    pruned_namespaces(desired, actual, options, &mut found);
    fields_owned_by_controllers(desired, actual, options, &mut found);
    // A stable sort: several findings of one rule about one object keep the
    // order in which they were found (the object's field order).
    found.sort_by(|a, b| (a.key.as_str(), a.rule).cmp(&(b.key.as_str(), b.rule)));
    found
}

fn warning(key: &str, rule: &'static str, message: String) -> Warning {
    Warning {
        key: key.to_string(),
        rule,
        message,
    }
}

// --- mutable-image-tag ------------------------------------------------------

/// What an image reference pins.
#[derive(Debug, PartialEq, Eq)]
enum ImageRef<'a> {
    /// `web@sha256:...` or `web:1.4@sha256:...`: one exact image.
    Digest,
    /// `web` or `web:latest`; `repository` is the reference without its tag.
    Latest { repository: &'a str, tagged: bool },
    /// `web:1.4`: a tag someone can push again.
    Tag { tag: &'a str },
}

fn parse_image(reference: &str) -> ImageRef<'_> {
    let parsed = ImageReference::parse(reference);
    match (parsed.digest, parsed.tag) {
        (Some(_), _) => ImageRef::Digest,
        (None, None) => ImageRef::Latest {
            repository: parsed.repository,
            tagged: false,
        },
        (None, Some("latest")) => ImageRef::Latest {
            repository: parsed.repository,
            tagged: true,
        },
        (None, Some(tag)) => ImageRef::Tag { tag },
    }
}

fn mutable_image_tags(desired: &State, found: &mut Vec<Warning>) {
    // The cluster writes `status` of a Kubernetes object (a Pod's
    // `status.containerStatuses[].image`): it is not what Git asks for.
    let skip_status = desired.form() != &Form::Named;
    IMAGE_WARNINGS.with_borrow_mut(|memo| {
        memo.pass(skip_status, desired.len(), |remembered| {
            for (key, object) in desired.objects() {
                found.extend(remembered.get_or(key, [Some(object), None], || {
                    image_warnings(key, object, skip_status)
                }));
            }
        })
    });
}

thread_local! {
    /// What `image_warnings` found for each object, by key.
    static IMAGE_WARNINGS: RefCell<Memo<bool, Vec<Warning>>> = const { RefCell::new(Memo::new()) };
}

fn image_warnings(key: &str, object: &Value, skip_status: bool) -> Vec<Warning> {
    if watches_a_repository(object) {
        return Vec::new();
    }
    image_fields(object, skip_status)
        .into_iter()
        .filter_map(|(pointer, image)| image_message(key, &pointer, image))
        .map(|message| warning(key, MUTABLE_IMAGE_TAG, message))
        .collect()
}

/// Flux's image automation (`image.toolkit.fluxcd.io`): an `ImageRepository`
/// names a repository to watch for new tags, not an image to run; it is the
/// image-updater bot this rule recommends.
fn watches_a_repository(object: &Value) -> bool {
    object
        .get("apiVersion")
        .and_then(Value::as_str)
        .is_some_and(|version| version.starts_with("image.toolkit.fluxcd.io/"))
}

fn image_message(key: &str, pointer: &str, image: &str) -> Option<String> {
    const BOT: &str = "an image-updater bot can open the pull request that changes it";
    match parse_image(image) {
        ImageRef::Digest => None,
        _ if image.trim().is_empty() => None,
        ImageRef::Latest { repository, tagged } => {
            let which = if tagged {
                "the tag `latest`".to_string()
            } else {
                format!("no tag, which means `{repository}:latest`")
            };
            Some(format!(
                "`{key}` runs the image `{image}` (at {pointer}) with {which}. This is the \
                 worst case: `latest` moves with every push, so Git does not record which \
                 code runs and the reconciler never sees a change. Pin a digest \
                 (`{repository}@sha256:...`) or an immutable version tag; {BOT}."
            ))
        }
        ImageRef::Tag { tag } => Some(format!(
            "`{key}` runs the image `{image}` (at {pointer}): the tag `{tag}` can be pushed \
             again, and then the cluster runs new code while Git stays the same, so Git \
             does not record what runs. Pin a digest (`{image}@sha256:...`) or use an \
             immutable tag (one the registry refuses to overwrite); {BOT}."
        )),
    }
}

// --- plaintext-secret -------------------------------------------------------

fn plaintext_secrets(desired: &State, found: &mut Vec<Warning>) {
    for (key, object) in desired.objects() {
        if kind(object) != Some("Secret") || encrypted_with_sops(object) {
            continue;
        }
        let stored: Vec<String> = ["data", "stringData"]
            .into_iter()
            .filter_map(|field| {
                let names = object.get(field)?.as_object()?.keys();
                let names: Vec<String> = names.map(|name| format!("`{name}`")).collect();
                (!names.is_empty()).then(|| format!("`{field}` holds {}", names.join(", ")))
            })
            .collect();
        if stored.is_empty() {
            continue;
        }
        found.push(warning(
            key,
            PLAINTEXT_SECRET,
            format!(
                "`{key}` is a Secret whose values are in Git ({}). Base64 is an encoding, \
                 not encryption: anyone who can read the repository can read them. Keep \
                 only a reference in Git: a SealedSecret (encrypted so that only the cluster \
                 can open it) or an ExternalSecret (External Secrets Operator) that points \
                 at a secret store.",
                stored.join("; ")
            ),
        ));
    }
}

/// A Secret encrypted with SOPS (Flux decrypts it): its values in Git are
/// ciphertext, and its `sops` field holds the encryption's metadata.
fn encrypted_with_sops(object: &Value) -> bool {
    object
        .get("sops")
        .and_then(Value::as_object)
        .is_some_and(|sops| !sops.is_empty())
}

// --- unprotected-prune ------------------------------------------------------

const PROTECT: &str = "`argocd.argoproj.io/sync-options: Prune=false` (Argo CD) or \
                       `kustomize.toolkit.fluxcd.io/prune: disabled` (Flux)";

fn unprotected_prunes(
    desired: &State,
    actual: &State,
    options: &Options,
    found: &mut Vec<Warning>,
) {
    if !options.prune {
        return;
    }
    let unprotected_desired = UNPROTECTED.with_borrow_mut(|memo| {
        memo.pass((), desired.len(), |remembered| {
            let objects = desired.objects().iter();
            objects
                .filter_map(|(key, object)| {
                    let what = remembered.get_or(key, [Some(object), None], || unprotected(object));
                    Some((key, what?))
                })
                .collect::<Vec<_>>()
        })
    });
    for (key, what) in unprotected_desired {
        found.push(warning(
            key,
            UNPROTECTED_PRUNE,
            format!(
                "`{key}` is {what} and prune is on, but nothing protects it: if its manifest \
                 leaves Git by mistake (a deleted file, a moved directory), the next sync \
                 deletes it and its data. Annotate it with {PROTECT}."
            ),
        ));
    }
    let extra = actual
        .objects()
        .iter()
        .filter(|(key, _)| desired.get(key).is_none());
    for (key, what) in extra.filter_map(|(key, object)| Some((key, unprotected(object)?))) {
        found.push(warning(
            key,
            UNPROTECTED_PRUNE,
            format!(
                "`{key}` is {what} that Git no longer declares, and prune is on: this sync \
                 will delete it, and its data with it. If it left Git by mistake, put its \
                 manifest back; to keep it anyway, annotate the live object with {PROTECT}, \
                 or turn prune off."
            ),
        ));
    }
}

// --- pruned-namespace -------------------------------------------------------

/// A Namespace that a prune deletes, with objects in it that were meant to
/// stay: protected from a prune, or in Git.
fn pruned_namespaces(desired: &State, actual: &State, options: &Options, found: &mut Vec<Warning>) {
    if !options.prune {
        return;
    }
    let pruned = actual
        .objects()
        .iter()
        .filter(|(key, object)| desired.get(key).is_none() && !prune_protected(object));
    for (key, namespace) in pruned.filter_map(|(key, _)| Some((key, namespace_at(actual, key)?))) {
        let protected = actual
            .objects()
            .iter()
            .filter(|(inside, object)| {
                is_in(object, namespace) && prune_protected(object) && desired.get(inside).is_none()
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
}

thread_local! {
    /// What `unprotected` found for each desired object, by key.
    static UNPROTECTED: RefCell<Memo<(), Option<String>>> = const { RefCell::new(Memo::new()) };
}

/// What makes the object stateful, when no annotation protects it from a
/// prune, followed by why an annotation meant to protect it does not.
fn unprotected(object: &Value) -> Option<String> {
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

/// What makes the object stateful, in words; None when it is not.
fn stateful(object: &Value) -> Option<String> {
    match kind(object) {
        Some(kind @ ("StatefulSet" | "PersistentVolumeClaim")) => Some(format!("a {kind}")),
        _ => {
            let labels = metadata_map(object, "labels")?;
            let (label, _) = labels
                .iter()
                .find(|(_, value)| value.as_str() == Some("database"))?;
            Some(format!("a database (its label `{label}` is `database`)"))
        }
    }
}

/// Whether an annotation keeps a prune from deleting the object.
fn prune_protected(object: &Value) -> bool {
    prune_protection(object).is_some()
}

// --- field-owned-by-controller ----------------------------------------------

fn fields_owned_by_controllers(
    desired: &State,
    actual: &State,
    options: &Options,
    found: &mut Vec<Warning>,
) {
    let targets = autoscaler_targets(desired, actual);
    if targets.is_empty() {
        return;
    }
    for (key, object) in desired.objects() {
        let Some(replicas) = object
            .pointer("/spec/replicas")
            .filter(|value| value.is_number())
        else {
            continue;
        };
        let (Some(object_kind), Some(object_name)) = (kind(object), name(key, object)) else {
            continue;
        };
        let Some(autoscalers) = targets.get(&(object_kind, object_name, namespace(object))) else {
            continue;
        };
        let covered = patterns_for(&options.ignore, key, object)
            .iter()
            .any(|pattern| pattern.matches(&REPLICAS));
        if covered {
            continue;
        }
        let autoscalers: Vec<String> = autoscalers
            .iter()
            .map(|autoscaler| format!("`{autoscaler}`"))
            .collect();
        found.push(warning(
            key,
            FIELD_OWNED_BY_CONTROLLER,
            format!(
                "`{key}` sets `spec.replicas` to {replicas} in Git, but the autoscaler {} \
                 owns that field: the autoscaler and the reconciler will fight, each sync \
                 resetting the count the autoscaler chose (flapping). Remove `replicas` \
                 from the manifest in Git, or add an ignore rule for `/spec/replicas` of \
                 this object.",
                autoscalers.join(" and ")
            ),
        ));
    }
}

/// What a scale target is: kind, name and namespace.
type Target<'a> = (&'a str, &'a str, Option<&'a str>);

/// The keys of the HorizontalPodAutoscalers, desired or actual, by the
/// object each scales (same kind and name, in the autoscaler's namespace).
fn autoscaler_targets<'a>(
    desired: &'a State,
    actual: &'a State,
) -> BTreeMap<Target<'a>, BTreeSet<&'a str>> {
    let mut targets: BTreeMap<Target, BTreeSet<&str>> = BTreeMap::new();
    let autoscalers = desired
        .objects()
        .iter()
        .chain(actual.objects())
        .filter(|(_, hpa)| kind(hpa) == Some("HorizontalPodAutoscaler"));
    for (hpa_key, hpa) in autoscalers {
        let target = |field: &str| {
            hpa.pointer("/spec/scaleTargetRef")
                .and_then(|target| target.get(field))
                .and_then(Value::as_str)
        };
        if let (Some(target_kind), Some(target_name)) = (target("kind"), target("name")) {
            targets
                .entry((target_kind, target_name, namespace(hpa)))
                .or_default()
                .insert(&**hpa_key);
        }
    }
    targets
}

// --- reading objects --------------------------------------------------------

/// `kind`, found by a walk over the object's few top-level fields (faster than
/// the map's hashed lookup, and the checks ask it of every object).
fn kind(object: &Value) -> Option<&str> {
    let (_, kind) = object
        .as_object()?
        .iter()
        .find(|(name, _)| *name == "kind")?;
    kind.as_str()
}

/// `metadata.name`, or the key for an object of the lesson's form.
fn name<'a>(key: &'a str, object: &'a Value) -> Option<&'a str> {
    match object.get("metadata") {
        Some(Value::Object(metadata)) => metadata.get("name").and_then(Value::as_str),
        _ => Some(key),
    }
}

/// `metadata.namespace`; none when absent or empty.
fn namespace(object: &Value) -> Option<&str> {
    object
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .filter(|namespace| !namespace.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn image_references_parse() {
        assert_eq!(parse_image("web@sha256:00ff"), ImageRef::Digest);
        assert_eq!(parse_image("web:1.4@sha256:00ff"), ImageRef::Digest);
        assert_eq!(
            parse_image("registry.example:5000/team/web@sha256:00ff"),
            ImageRef::Digest
        );
        assert_eq!(parse_image("web:1.4"), ImageRef::Tag { tag: "1.4" });
        assert_eq!(
            parse_image("registry.example:5000/web:2.0"),
            ImageRef::Tag { tag: "2.0" }
        );
        let untagged = |repository| ImageRef::Latest {
            repository,
            tagged: false,
        };
        assert_eq!(parse_image("web"), untagged("web"));
        assert_eq!(
            parse_image("registry.example:5000/web"),
            untagged("registry.example:5000/web")
        );
        assert_eq!(parse_image("web:"), untagged("web"));
        assert_eq!(
            parse_image("web:latest"),
            ImageRef::Latest {
                repository: "web",
                tagged: true
            }
        );
        assert_eq!(
            parse_image("web@sha256:"),
            untagged("web"),
            "an empty digest pins nothing"
        );
        assert_eq!(parse_image("web:1.4@"), ImageRef::Tag { tag: "1.4" });
    }

    #[test]
    fn images_are_found_anywhere_in_an_object() {
        let object = json!({"spec": {"template": {"spec": {
            "initContainers": [{"image": "init:1"}],
            "containers": [{"name": "a", "image": "web"}, {"image": 7}],
        }}}});
        assert_eq!(
            image_fields(&object, true),
            [
                (
                    "/spec/template/spec/initContainers/0/image".to_string(),
                    "init:1"
                ),
                ("/spec/template/spec/containers/0/image".to_string(), "web"),
            ]
        );
    }

    #[test]
    fn odd_input_does_not_panic() {
        for object in [
            json!({"kind": 3, "metadata": "x", "spec": {"replicas": "3"}}),
            json!({"kind": "Secret", "data": "c2VjcmV0", "stringData": []}),
            json!({"kind": "HorizontalPodAutoscaler", "spec": {"scaleTargetRef": 1}}),
            json!({"labels": ["database"], "annotations": null, "image": {"image": ""}}),
            json!({"kind": "StatefulSet", "metadata": {"labels": 1, "annotations": [1]}}),
        ] {
            let state = State::from_value("test", json!({ "odd": object })).unwrap();
            let _ = warnings(&state, &state, &Options::pruning(true));
        }
    }
}
