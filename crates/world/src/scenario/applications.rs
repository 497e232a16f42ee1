//! Argo CD's own objects in Git declaring the environments, as a repository
//! laid out for the app-of-apps pattern has them: the scenario's
//! `applications` is the path of the root Application (the one a person
//! creates with `argocd app create ... --path apps`), and each `Application`
//! there, or each one an `ApplicationSet` there generates from Git's
//! directories, is an environment: its name, its `source.path`, its
//! `destination.namespace`, its `syncPolicy` (`automated` with `prune`,
//! `selfHeal` and `allowEmpty`; the `syncOptions` `ServerSideApply=true` and
//! `RespectIgnoreDifferences=true`; `retry`) and its `ignoreDifferences`. The
//! scenario's `options` stay the shorthand for what an Application does not
//! say. Read at the start, then again each time the agent polls a new revision
//! (`crate::applications`); the environments and their clusters are those of
//! the start, a simplification.

use super::retry::RetryStrategy;
use super::IgnoreRules;
use crate::repository::paths::normalized;
use crate::repository::Files;
use gitops_core::diff::ignore::IgnoreRule;
use gitops_core::error::InputError;
use gitops_core::state::State;
use gitops_core::text::typed::read;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeSet;

/// What an Application in Git says of how its environment syncs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ApplicationSettings {
    /// `spec.destination.namespace`.
    pub namespace: Option<String>,
    /// `spec.syncPolicy.automated`: none is auto-sync off.
    pub automated: Option<Automated>,
    /// `spec.syncPolicy.syncOptions`.
    pub sync_options: Vec<String>,
    /// `spec.syncPolicy.retry`.
    pub retry: Option<RetryStrategy>,
    /// `spec.ignoreDifferences`, read as Argo CD's rules.
    pub ignore: Vec<IgnoreRule>,
    /// `metadata.finalizers` holds `resources-finalizer.argocd.argoproj.io`:
    /// deleting the Application deletes what it manages. An ApplicationSet
    /// adds it to a template that has no finalizers unless its
    /// `syncPolicy.preserveResourcesOnDeletion` is true (`RenderTemplateParams`).
    pub cascade: bool,
    /// Its `argocd.argoproj.io/sync-wave` in the root Application's sync
    /// (`gitops_core::sync::order::wave`).
    pub wave: i64,
}

/// The finalizer by which deleting an Application deletes its resources
/// (also with `/foreground` or `/background`).
const RESOURCES_FINALIZER: &str = "resources-finalizer.argocd.argoproj.io";

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Automated {
    pub prune: bool,
    pub self_heal: bool,
    pub allow_empty: bool,
}

/// An environment an Application declares: its name, its path and its settings.
pub type Declared = (String, String, ApplicationSettings);

const API_VERSION: &str = "argoproj.io/v1alpha1";

/// The Applications of `root` (the objects `state` holds, read from there), and
/// those its ApplicationSets generate from the directories of `files`, in name
/// order; what is wrong says where (`/<key>/spec/...`).
pub(crate) fn declared_applications(source: &str, state: &State, files: &Files) -> Result<Vec<Declared>, InputError> {
    let mut declared: Vec<Declared> = Vec::new();
    for (key, object) in state.objects() {
        let object = object.value();
        let refuse = |pointer: &str, message: String| InputError::shape(source, format!("/{key}{pointer}"), message);
        if object.get("apiVersion").and_then(Value::as_str) != Some(API_VERSION) {
            continue;
        }
        let kind = object.get("kind").and_then(Value::as_str);
        let generated = match kind {
            Some("Application") => vec![object.clone()],
            Some("ApplicationSet") => generated(object, files).map_err(|(pointer, message)| refuse(&pointer, message))?,
            _ => continue,
        };
        for application in &generated {
            let application = application_of(application).map_err(|(pointer, message)| match kind {
                Some("ApplicationSet") => refuse(&format!("/spec/template{pointer}"), message),
                _ => refuse(&pointer, message),
            })?;
            if declared.iter().any(|(name, ..)| *name == application.0) {
                return Err(refuse("/metadata/name", format!("two Applications are named {}", application.0)));
            }
            declared.push(application);
        }
    }
    Ok(declared)
}

type Wrong = (String, String);

/// An Application's name, path and settings: each field read by `serde` as its
/// type, where it is; what the playground does not read is Argo CD's alone
/// (`project`, `source.repoURL`, ...). A derived reader of the manifest is 4 KB
/// more of the page's packed wasm.
fn application_of(application: &Value) -> Result<Declared, Wrong> {
    let name: Option<String> = field(application, "/metadata/name")?;
    let name = name.ok_or(("/metadata/name".to_string(), "an Application needs a name".to_string()))?;
    if application.pointer("/spec/sources").is_some() {
        return Err(("/spec/sources".into(), "an Application of several sources is not modelled: give it one `source`".into()));
    }
    let path: Option<String> = field(application, "/spec/source/path")?;
    let path = path.ok_or(("/spec/source/path".to_string(), "the playground reads an Application's `source.path` in its one repository".to_string()))?;
    let path = normalized(&path).map_err(|why| ("/spec/source/path".to_string(), why))?;
    // Argo CD 3.x: `automated: {enabled: false}` turns it off, whatever it holds.
    let automated = match application.pointer("/spec/syncPolicy/automated") {
        None | Some(Value::Null) => None,
        Some(_) if field(application, "/spec/syncPolicy/automated/enabled")? == Some(false) => None,
        Some(_) => {
            let flag = |name: &str| field(application, &format!("/spec/syncPolicy/automated/{name}")).map(Option::unwrap_or_default);
            Some(Automated { prune: flag("prune")?, self_heal: flag("selfHeal")?, allow_empty: flag("allowEmpty")? })
        }
    };
    let ignore: Option<IgnoreRules> = field(application, "/spec/ignoreDifferences")?;
    let finalizers: Option<Vec<String>> = field(application, "/metadata/finalizers")?;
    let settings = ApplicationSettings {
        namespace: field(application, "/spec/destination/namespace")?,
        automated,
        sync_options: field(application, "/spec/syncPolicy/syncOptions")?.unwrap_or_default(),
        retry: field(application, "/spec/syncPolicy/retry")?,
        ignore: ignore.map(|rules| rules.0).unwrap_or_default(),
        cascade: finalizers.unwrap_or_default().iter().any(|finalizer| finalizer.starts_with(RESOURCES_FINALIZER)),
        wave: gitops_core::sync::order::wave(application),
    };
    Ok((name, path, settings))
}

/// The value at `pointer` read as a `T`, if it is there and not null; what does
/// not fit says where.
fn field<T: DeserializeOwned>(application: &Value, pointer: &str) -> Result<Option<T>, Wrong> {
    match application.pointer(pointer) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => read(value.clone()).map(Some).map_err(|mismatch| (format!("{pointer}{}", mismatch.pointer()), mismatch.message().to_string())),
    }
}


/// The Applications an ApplicationSet's Git directory generators make: one
/// for each directory of `files` that a `directories` path matches (a `*`
/// matches one directory's name) and no `exclude: true` one does, its
/// template filled in with `{{path}}` and `{{path.basename}}` (or, with
/// `goTemplate`, `{{.path.path}}` and `{{.path.basename}}`).
fn generated(set: &Value, files: &Files) -> Result<Vec<Value>, Wrong> {
    let generators = set.pointer("/spec/generators").and_then(Value::as_array).ok_or(("/spec/generators".to_string(), "an ApplicationSet needs a list of generators".to_string()))?;
    let mut template = set.pointer("/spec/template").cloned().ok_or(("/spec/template".to_string(), "an ApplicationSet needs a template".to_string()))?;
    let preserve = set.pointer("/spec/syncPolicy/preserveResourcesOnDeletion") == Some(&Value::Bool(true));
    // RenderTemplateParams: only a template without finalizers (none, or an empty list) gets it.
    let finalizers = template.pointer_mut("/metadata").and_then(Value::as_object_mut).map(|metadata| metadata.entry("finalizers").or_insert(Value::Null));
    if let (false, Some(finalizers)) = (preserve, finalizers) {
        if finalizers.as_array().is_none_or(Vec::is_empty) {
            *finalizers = Value::from(vec![RESOURCES_FINALIZER]);
        }
    }
    let mut directories = BTreeSet::new();
    for file in files.keys() {
        let mut rest = file.as_str();
        while let Some((parent, _)) = rest.rsplit_once('/') {
            directories.insert(parent.to_string());
            rest = parent;
        }
    }
    let mut made = Vec::new();
    for (at, generator) in generators.iter().enumerate() {
        let Some(paths) = generator.pointer("/git/directories").and_then(Value::as_array) else {
            return Err((format!("/spec/generators/{at}"), "the playground models the Git directory generator (`git.directories`) alone".into()));
        };
        let pattern = |path: &Value| path.get("path").and_then(Value::as_str).unwrap_or_default().to_string();
        let excluded = |path: &Value| path.get("exclude") == Some(&Value::Bool(true));
        let (out, into): (Vec<&Value>, Vec<&Value>) = paths.iter().partition(|path| excluded(path));
        for directory in &directories {
            let matches = |paths: &[&Value]| paths.iter().any(|path| glob_matches(&pattern(path), directory));
            if matches(&into) && !matches(&out) {
                made.push(filled(&template, directory));
            }
        }
    }
    Ok(made)
}

/// A `*` matches one directory's name, whole or in part.
fn glob_matches(pattern: &str, directory: &str) -> bool {
    let (patterns, names): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), directory.split('/').collect());
    patterns.len() == names.len() && patterns.iter().zip(&names).all(|(pattern, name)| match pattern.split_once('*') {
        None => pattern == name,
        Some((start, end)) => name.len() >= start.len() + end.len() && name.starts_with(start) && name.ends_with(end),
    })
}

/// The template with the directory's parameters put in every text.
fn filled(template: &Value, directory: &str) -> Value {
    let basename = directory.rsplit('/').next().unwrap_or(directory);
    match template {
        Value::String(text) => Value::from(
            text.replace("{{path.basename}}", basename)
                .replace("{{.path.basename}}", basename)
                .replace("{{.path.path}}", directory)
                .replace("{{path}}", directory),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|item| filled(item, directory)).collect()),
        Value::Object(fields) => Value::Object(fields.iter().map(|(name, value)| (name.clone(), filled(value, directory))).collect()),
        other => other.clone(),
    }
}
