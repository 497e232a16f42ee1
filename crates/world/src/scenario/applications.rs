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
//! say. Read from the first commit: environments and their clusters are fixed
//! when the scenario starts, a simplification.

use super::retry::RetryStrategy;
use crate::repository::paths::normalized;
use crate::repository::Files;
use gitops_core::diff::ignore::IgnoreRule;
use gitops_core::error::InputError;
use gitops_core::state::State;
use gitops_core::text::typed::typed;
use serde_json::Value;
use super::WorldOptions;
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
}

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
pub(super) fn declared_applications(source: &str, state: &State, files: &Files) -> Result<Vec<Declared>, InputError> {
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

/// An Application's name, path and settings.
fn application_of(application: &Value) -> Result<Declared, Wrong> {
    let text = |pointer: &str| match application.pointer(pointer) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err((pointer.to_string(), format!("is text, found {other}"))),
    };
    let name = text("/metadata/name")?.ok_or(("/metadata/name".to_string(), "an Application needs a name".to_string()))?;
    if application.pointer("/spec/sources").is_some() {
        return Err(("/spec/sources".into(), "an Application of several sources is not modelled: give it one `source`".into()));
    }
    let path = text("/spec/source/path")?.ok_or(("/spec/source/path".to_string(), "the playground reads an Application's `source.path` in its one repository".to_string()))?;
    let path = normalized(&path).map_err(|why| ("/spec/source/path".to_string(), why))?;
    let policy = application.pointer("/spec/syncPolicy").cloned().unwrap_or(Value::Null);
    let flag = |pointer: &str| match policy.pointer(pointer) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(on)) => Ok(*on),
        Some(other) => Err((format!("/spec/syncPolicy{pointer}"), format!("is true or false, found {other}"))),
    };
    // Argo CD 3.x: `automated: {enabled: false}` turns it off, whatever it holds.
    let automated = match policy.get("automated") {
        None | Some(Value::Null) => None,
        Some(_) if policy.pointer("/automated/enabled") == Some(&Value::Bool(false)) => None,
        Some(_) => Some(Automated { prune: flag("/automated/prune")?, self_heal: flag("/automated/selfHeal")?, allow_empty: flag("/automated/allowEmpty")? }),
    };
    let mut sync_options = Vec::new();
    for item in policy.get("syncOptions").and_then(Value::as_array).into_iter().flatten() {
        let item = item.as_str().ok_or(("/spec/syncPolicy/syncOptions".to_string(), "sync options are text, as `ServerSideApply=true`".to_string()))?;
        sync_options.push(item.to_string());
    }
    let retry = match policy.get("retry") {
        None | Some(Value::Null) => None,
        // Read as the option `retry` is: one reader for both.
        Some(retry) => typed::<WorldOptions>("retry", serde_json::json!({"retry": retry}))
            .map_err(|error| (format!("/spec/syncPolicy{}", error.pointer.unwrap_or_default()), error.message))?
            .retry,
    };
    let mut ignore = Vec::new();
    for (at, rule) in application.pointer("/spec/ignoreDifferences").and_then(Value::as_array).into_iter().flatten().enumerate() {
        ignore.push(IgnoreRule::from_value(rule).map_err(|why| (format!("/spec/ignoreDifferences/{at}"), why))?);
    }
    let namespace = text("/spec/destination/namespace")?;
    Ok((name, path, ApplicationSettings { namespace, automated, sync_options, retry, ignore }))
}

/// The Applications an ApplicationSet's Git directory generators make: one
/// for each directory of `files` that a `directories` path matches (a `*`
/// matches one directory's name) and no `exclude: true` one does, its
/// template filled in with `{{path}}` and `{{path.basename}}` (or, with
/// `goTemplate`, `{{.path.path}}` and `{{.path.basename}}`).
fn generated(set: &Value, files: &Files) -> Result<Vec<Value>, Wrong> {
    let generators = set.pointer("/spec/generators").and_then(Value::as_array).ok_or(("/spec/generators".to_string(), "an ApplicationSet needs a list of generators".to_string()))?;
    let template = set.pointer("/spec/template").ok_or(("/spec/template".to_string(), "an ApplicationSet needs a template".to_string()))?;
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
                made.push(filled(template, directory));
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
