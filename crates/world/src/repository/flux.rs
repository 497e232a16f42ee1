//! Flux's `Kustomization` objects in Git (`kustomize.toolkit.fluxcd.io/v1`), as
//! `flux bootstrap` lays out `clusters/<environment>/`: under Flux's agent they
//! are its settings, not workloads. Each names a `spec.path`, built as any
//! environment's directory is (a `kustomization.yaml`, or the files there), and
//! what it builds is applied by that Kustomization, with its owner labels
//! (`SetOwnerLabels`) and in its `targetNamespace`. The directory's other
//! objects are its root Kustomization's (the one `flux bootstrap` names
//! `flux-system`: the scenario's `application`).

use super::trees::desired_state;
use super::Files;
use crate::durations::{seconds, steps_for};
use gitops_core::diff::flux_labels::{labelled_by, with_owner_labels, NAMESPACE_LABEL, NAME_LABEL};
use gitops_core::diff::ignore::{Dialect, IgnoreRule};
use gitops_core::diff::tracking::tracking_error;
use gitops_core::error::InputError;
use gitops_core::options::Agent;
use gitops_core::state::kinds::{scope, Scope};
use gitops_core::state::namespace::placed_in;
use gitops_core::state::{key_of, State};
use gitops_core::Workspace;
use serde_json::Value;

/// The group of Flux's Kustomization (`kustomize.toolkit.fluxcd.io/v1`, or an older version).
const GROUP: &str = "kustomize.toolkit.fluxcd.io/";

/// One Kustomization's settings (`KustomizationSpec`), its durations in the
/// world's minutes (a shorter one is a minute).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KustomizationSpec {
    pub name: String,
    /// The directory it builds.
    pub path: String,
    pub interval: u32,
    pub retry_interval: u32,
    pub timeout: u32,
    pub prune: bool,
    pub force: bool,
    /// Ready waits for the health of everything applied.
    pub wait: bool,
    /// The objects whose health Ready waits for (`healthChecks`), by key.
    pub health_checks: Vec<String>,
    pub depends_on: Vec<String>,
    pub suspend: bool,
    pub target_namespace: Option<String>,
    /// The fields no reconcile compares or applies (`spec.ignore`: `paths`
    /// and a `target`, fluxcd/pkg `ssa/jsondiff`).
    pub ignore: Vec<IgnoreRule>,
}

/// What an environment's directory declares under Flux's agent: its
/// Kustomizations, and the objects each applies, labelled with its name.
#[derive(Debug, Clone, PartialEq)]
pub struct FluxLayout {
    pub kustomizations: Vec<KustomizationSpec>,
    /// Every object any of them applies, the root's own objects included.
    pub state: State,
}

/// `options` with the ignore rules of `kustomizations` (`spec.ignore`) after its own.
pub fn with_kustomization_ignore(options: &mut gitops_core::Options, kustomizations: &[KustomizationSpec]) {
    for spec in kustomizations {
        options.ignore.extend_from_slice(&spec.ignore);
    }
}

/// Whether `object` is a Flux Kustomization.
pub fn is_kustomization(object: &Value) -> bool {
    object.get("kind").and_then(Value::as_str) == Some("Kustomization")
        && object.get("apiVersion").and_then(Value::as_str).is_some_and(|version| version.starts_with(GROUP))
}

/// The Kustomizations `directory_state` (an environment's directory, read)
/// declares, with what each builds from `files`; none when it declares none.
pub fn flux_layout(
    workspace: &mut Workspace,
    files: &Files,
    directory_state: &State,
    root: &str,
) -> Result<Option<FluxLayout>, InputError> {
    let mut kustomizations = Vec::new();
    for (key, object) in directory_state.objects() {
        if is_kustomization(object.value()) {
            let spec = spec_of(key, object.value()).map_err(|(pointer, message)| InputError::shape("Git", pointer, message))?;
            kustomizations.push(spec);
        }
    }
    if kustomizations.is_empty() {
        return Ok(None);
    }
    let mut state = State::empty(directory_state.form().clone());
    let root_objects = directory_state
        .objects()
        .iter()
        .filter(|(_, object)| !is_kustomization(object.value()))
        .map(|(key, object)| (key.to_string(), object.value().clone()));
    let mut add = |name: &str, key: String, object: Value| -> Result<(), InputError> {
        if let Some(other) = state.get(&key).and_then(labelled_by) {
            return Err(InputError::shape(
                "Git",
                "",
                format!("{key} is applied by two Kustomizations, {other} and {name}: Flux's would take it from each other at every reconcile"),
            ));
        }
        state.insert(key, owned_by(object, name));
        Ok(())
    };
    for (key, object) in root_objects {
        add(root, key, object)?;
    }
    for spec in &kustomizations {
        let path = &spec.path;
        let built = desired_state(workspace, files, path).map_err(|error| {
            InputError::shape("Git", "", format!("Kustomization flux-system/{} builds {path}: {error}", spec.name))
        })?;
        for (key, object) in built.objects() {
            let (key, object) = match &spec.target_namespace {
                Some(namespace) => in_namespace(object.value(), namespace).unwrap_or_else(|| (key.to_string(), object.value().clone())),
                None => (key.to_string(), object.value().clone()),
            };
            add(&spec.name, key, object)?;
        }
    }
    Ok(Some(FluxLayout { kustomizations, state }))
}

/// An environment's desired state as `agent` reads its `directory`: under
/// Flux's, what its Kustomizations apply when Git declares some there, with
/// them; else the directory's objects, which Argo CD's repo server refuses
/// whole when it cannot stamp its tracking id on one (`tracking_error`), and
/// which Argo CD places in the application's `destination` namespace
/// (`placed_in`). Flux's root Kustomization has no such namespace.
pub fn desired_under(
    workspace: &mut Workspace,
    files: &Files,
    directory: &str,
    agent: Agent,
    (root, destination): (&str, Option<&str>),
) -> Result<(State, Vec<KustomizationSpec>), InputError> {
    let state = desired_state(workspace, files, directory)?;
    if agent != Agent::Flux {
        if let Some((key, (pointer, message))) = state.objects().iter().find_map(|(key, object)| Some((key, tracking_error(object.value())?))) {
            return Err(InputError::shape(key, pointer, message));
        }
        let state = match destination {
            Some(destination) => placed(&state, destination),
            None => state,
        };
        return Ok((state, Vec::new()));
    }
    Ok(match flux_layout(workspace, files, &state, root)? {
        Some(layout) => (layout.state, layout.kustomizations),
        None => (state, Vec::new()),
    })
}

/// `state` with each namespaced object that names no namespace in `destination`.
pub(crate) fn placed(state: &State, destination: &str) -> State {
    let mut placed = State::empty(state.form().clone());
    for (key, object) in state.objects() {
        match placed_in(object.value(), destination).and_then(|object| Some((key_of(&object)?, object))) {
            Some((key, object)) => placed.insert(key, object),
            None => placed.insert_shared(key.clone(), object.clone()),
        }
    }
    placed
}

/// The objects of `layout` that the Kustomization `name` applies.
pub fn applied_by(state: &State, name: &str) -> State {
    let mut own = State::empty(state.form().clone());
    for (key, object) in state.objects() {
        let label = object.value().pointer(&format!("/metadata/labels/{}", NAME_LABEL.replace('/', "~1")));
        if label.and_then(Value::as_str) == Some(name) {
            own.insert_shared(key.clone(), object.clone());
        }
    }
    own
}

/// `object` with the owner labels of the Kustomization `name`, whatever
/// labels of another Git gave it (`SetOwnerLabels` sets them).
fn owned_by(mut object: Value, name: &str) -> Value {
    if let Some(labels) = object.pointer_mut("/metadata/labels").and_then(Value::as_object_mut) {
        labels.remove(NAME_LABEL);
        labels.remove(NAMESPACE_LABEL);
    }
    with_owner_labels(&object, name).into_owned()
}

/// A namespaced object moved to `namespace` (kustomize's `namespace`, which
/// `targetNamespace` sets), with its new key; none for a cluster-scoped one.
fn in_namespace(object: &Value, namespace: &str) -> Option<(String, Value)> {
    if scope(object) == Scope::Cluster {
        return None;
    }
    let mut moved = object.clone();
    moved.get_mut("metadata")?.as_object_mut()?.insert("namespace".into(), Value::from(namespace));
    Some((key_of(&moved)?, moved))
}

/// A Kustomization's settings, with Flux's defaults where it says nothing; else
/// what is wrong, and where (`/<key>/spec/<field>`).
fn spec_of(key: &str, object: &Value) -> Result<KustomizationSpec, (String, String)> {
    let name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
    let spec = object.get("spec").unwrap_or(&Value::Null);
    let wrong = |field: &str, message: String| (format!("/{key}/spec/{field}"), format!("Kustomization {name}: {message}"));
    let given = |field: &str| spec.get(field).filter(|value| !value.is_null());
    let text = |field: &str| match given(field) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(wrong(field, format!("{field} is text, found {other}"))),
    };
    let flag = |field: &str| match given(field) {
        None => Ok(false),
        Some(Value::Bool(on)) => Ok(*on),
        Some(other) => Err(wrong(field, format!("{field} is true or false, found {other}"))),
    };
    let minutes = |field: &str| match text(field)? {
        None => Ok(None),
        Some(duration) => seconds(&duration).map(|seconds| Some(steps_for(seconds).max(1))).map_err(|error| wrong(field, error)),
    };
    // Each item of `dependsOn` or `healthChecks` by what names it: a Kustomization's
    // name, an object's key (`Kind/namespace/name`).
    let references = |field: &str| -> Result<Vec<String>, (String, String)> {
        let items = match given(field) {
            None => return Ok(Vec::new()),
            Some(Value::Array(items)) => items,
            Some(other) => return Err(wrong(field, format!("{field} is a list, found {other}"))),
        };
        let mut names = Vec::new();
        for item in items {
            let part = |name: &str| item.get(name).and_then(Value::as_str);
            let named = match (field, part("kind"), part("namespace"), part("name")) {
                ("dependsOn", _, _, Some(name)) => name.to_string(),
                (_, Some(kind), Some(namespace), Some(name)) => format!("{kind}/{namespace}/{name}"),
                (_, Some(kind), None, Some(name)) => format!("{kind}/{name}"),
                _ => return Err(wrong(field, format!("{field} holds {item}, which names nothing"))),
            };
            names.push(named);
        }
        Ok(names)
    };
    // `spec.ignore`: Flux's rules alone (`paths` and a `target`).
    let mut ignore = Vec::new();
    for (index, item) in given("ignore").map(|rules| rules.as_array().ok_or_else(|| wrong("ignore", format!("ignore is a list, found {rules}")))).transpose()?.into_iter().flatten().enumerate() {
        let at = || format!("/{key}/spec/ignore/{index}");
        match IgnoreRule::from_value(item) {
            Ok(rule) if rule.dialect == Dialect::Flux => ignore.push(rule),
            Ok(_) => return Err((at(), format!("Kustomization {name}: a rule of spec.ignore has `paths` and a `target`"))),
            Err(message) => return Err((at(), format!("Kustomization {name}: {message}"))),
        }
    }
    let interval = minutes("interval")?.ok_or_else(|| wrong("interval", "spec.interval is required (`interval: 10m`)".into()))?;
    // Flux builds the source's root without a path; the playground asks for one.
    let path = text("path")?.ok_or_else(|| wrong("path", "spec.path names the directory it builds (`./apps/prod`)".into()))?;
    Ok(KustomizationSpec {
        path: super::paths::normalized(&path).map_err(|error| wrong("path", error))?,
        interval,
        retry_interval: minutes("retryInterval")?.unwrap_or(interval),
        timeout: minutes("timeout")?.unwrap_or(interval),
        prune: flag("prune")?,
        force: flag("force")?,
        wait: flag("wait")?,
        health_checks: references("healthChecks")?,
        depends_on: references("dependsOn")?,
        suspend: flag("suspend")?,
        target_namespace: text("targetNamespace")?,
        ignore,
        name: name.clone(),
    })
}
