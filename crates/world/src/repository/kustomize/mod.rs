//! Kustomize, as Argo CD and Flux run it on an environment's directory
//! that holds a `kustomization.yaml`: its resources (files, and the
//! directories of other kustomizations, bases outside `envs/` too) put
//! together, then its own transformers in kustomize's order
//! (api/internal/target/kusttarget_configplugin.go): strategic-merge
//! patches, `patches`, the namespace, name prefixes and suffixes, labels,
//! annotations, JSON 6902 patches, replicas, images. References to renamed
//! objects are fixed once, at the end, as `kustomize build` does. A
//! Kustomization is not an object to apply and needs no name.
//!
//! Files outside a kustomization's directory may be read (Flux builds
//! with `LoadRestrictionsNone`; Argo CD's default refuses them).

pub mod edit;
mod fields;
mod images;
pub mod kustomization;
mod labels;
mod names;
mod patches;
mod replicas;
mod select;

use super::paths::exists;
use super::Files;
use gitops_core::error::InputError;
use gitops_core::state::{key_of, Form, State};
use gitops_core::Workspace;
use kustomization::{entries, text, text_map};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The names kustomize finds a kustomization file by, in its order
/// (konfig.RecognizedKustomizationFileNames).
pub const FILE_NAMES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// How deep kustomizations may include one another, and how many a build
/// may read, so that no repository makes a build run away.
const MAX_DEPTH: usize = 32;
const MAX_VISITS: usize = 256;

/// An object on its way through the kustomizations, with what references
/// to it are written with.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    pub object: Value,
    /// `metadata.name` as its file wrote it, before prefixes and suffixes.
    pub original_name: String,
    /// The prefix and suffix of each kustomization that renamed it,
    /// innermost first, which tell apart two objects of one name.
    pub affixes: Vec<(String, String)>,
}

impl Resource {
    fn new(object: Value) -> Self {
        let mut resource = Resource {
            object,
            original_name: String::new(),
            affixes: Vec::new(),
        };
        resource.original_name = resource.name().to_string();
        resource
    }

    fn text(&self, pointer: &str) -> &str {
        self.object
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    pub fn kind(&self) -> &str {
        self.text("/kind")
    }

    pub fn name(&self) -> &str {
        self.text("/metadata/name")
    }

    pub fn namespace(&self) -> &str {
        self.text("/metadata/namespace")
    }

    /// The group and version of its `apiVersion` (`apps`, `v1`; `""`, `v1`).
    pub fn group_version(&self) -> (&str, &str) {
        let api_version = self.text("/apiVersion");
        api_version.rsplit_once('/').unwrap_or(("", api_version))
    }

    /// Whether its kind is one of Kubernetes' own, which kustomize knows
    /// the schema of (a strategic merge), rather than a custom resource
    /// (a JSON merge patch).
    pub fn is_built_in(&self) -> bool {
        let (group, _) = self.group_version();
        !group.contains('.') || group.ends_with(".k8s.io")
    }

    /// Its labels or annotations, as text.
    pub fn metadata_map(&self, field: &str) -> BTreeMap<String, String> {
        let mut texts = BTreeMap::new();
        let map = self
            .object
            .get("metadata")
            .and_then(|metadata| metadata.get(field));
        for (key, value) in map.and_then(Value::as_object).into_iter().flatten() {
            if let Some(text) = value.as_str() {
                texts.insert(key.clone(), text.to_string());
            }
        }
        texts
    }

    /// Its `metadata`, made an object if it is not one (none when the
    /// resource itself is not an object).
    pub fn metadata_mut(&mut self) -> Option<&mut Map<String, Value>> {
        let object = self.object.as_object_mut()?;
        let metadata = object
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if !metadata.is_object() {
            *metadata = Value::Object(Map::new());
        }
        metadata.as_object_mut()
    }

    pub fn key(&self) -> Option<String> {
        key_of(&self.object)
    }
}

/// The kustomization file of `directory`, if it has one.
pub fn kustomization_file(files: &Files, directory: &str) -> Result<Option<String>, InputError> {
    let found: Vec<String> = FILE_NAMES
        .iter()
        .map(|name| format!("{directory}/{name}"))
        .filter(|path| files.contains_key(path))
        .collect();
    match found.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.clone())),
        [first, ..] => Err(InputError::shape(
            first,
            "",
            format!(
                "found multiple kustomization files under {directory}: {}",
                found.join(", ")
            ),
        )),
    }
}

/// What `kustomize build directory` renders, as a list of Kubernetes
/// objects; every file read is noted in `read`.
pub fn build(
    workspace: &mut Workspace,
    files: &Files,
    directory: &str,
    read: &mut BTreeSet<String>,
) -> Result<State, InputError> {
    let mut build = Build {
        workspace,
        files,
        read,
        stack: Vec::new(),
        visits: 0,
    };
    let file = kustomization_file(files, directory)?.unwrap_or_default();
    let mut resources = build.directory(directory)?;
    names::fix_references(&mut resources).map_err(|why| InputError::shape(&file, "", why))?;
    let mut objects = BTreeMap::new();
    for resource in resources {
        let Some(key) = resource.key() else {
            return Err(InputError::shape(
                &file,
                "",
                format!(
                    "after its transformations, an object of kind `{}` has no name",
                    resource.kind()
                ),
            ));
        };
        if objects.insert(key.clone(), resource.object).is_some() {
            return Err(InputError::duplicate_key(
                &file,
                &key,
                format!("the build makes two objects {key}"),
            ));
        }
    }
    Ok(State::new(Form::List, objects))
}

struct Build<'f> {
    workspace: &'f mut Workspace,
    files: &'f Files,
    read: &'f mut BTreeSet<String>,
    /// The directories of the kustomizations being built, outermost first.
    stack: Vec<String>,
    visits: usize,
}

impl Build<'_> {
    /// The resources of the kustomization in `directory`, transformed.
    fn directory(&mut self, directory: &str) -> Result<Vec<Resource>, InputError> {
        let file = kustomization_file(self.files, directory)?.ok_or_else(|| {
            InputError::shape(
                directory,
                "",
                format!(
                    "unable to find one of {} in directory {directory}",
                    FILE_NAMES.map(|name| format!("'{name}'")).join(", ")
                ),
            )
        })?;
        self.visits += 1;
        if self.visits > MAX_VISITS || self.stack.len() >= MAX_DEPTH {
            return Err(InputError::shape(
                &file,
                "",
                format!(
                    "a build reads at most {MAX_VISITS} kustomizations, {MAX_DEPTH} deep, in the playground"
                ),
            ));
        }
        self.read.insert(file.clone());
        let kustomization = kustomization::read(&file, &self.files[&file])?;
        self.stack.push(directory.to_string());
        let resources = self.accumulate(&file, directory, &kustomization);
        self.stack.pop();
        let mut resources = resources?;
        let level = Level {
            file: &file,
            directory,
            files: self.files,
        };
        level.transform(&kustomization, &mut resources, self.read)?;
        Ok(resources)
    }

    /// The resources a kustomization lists, in order, each kustomization
    /// among them built first.
    fn accumulate(
        &mut self,
        file: &str,
        directory: &str,
        kustomization: &Value,
    ) -> Result<Vec<Resource>, InputError> {
        let mut resources: Vec<Resource> = Vec::new();
        let mut keys = BTreeSet::new();
        // `bases` is appended to `resources`, as kustomize's FixKustomization does.
        for (at, entry) in entries(kustomization, &["resources", "bases"]) {
            let entry = entry.as_str().unwrap_or("");
            let refuse = |why: String| InputError::shape(file, &at, why);
            let path = resolve(directory, entry).map_err(refuse)?;
            let found = if let Some(content) = self.files.get(&path) {
                self.read.insert(path.clone());
                read_resources(self.workspace, &path, content)?
            } else if exists(self.files, &path) {
                if let Some(start) = self.stack.iter().position(|seen| *seen == path) {
                    let cycle: Vec<&str> = self.stack[start..]
                        .iter()
                        .map(String::as_str)
                        .chain([path.as_str()])
                        .collect();
                    return Err(refuse(format!(
                        "`{entry}` makes a cycle of kustomizations: {}",
                        cycle.join(" → ")
                    )));
                }
                if kustomization_file(self.files, &path)?.is_none() {
                    return Err(refuse(format!(
                        "`{entry}` is a directory without a kustomization.yaml; list its files instead"
                    )));
                }
                self.directory(&path)?
            } else {
                return Err(refuse(format!(
                    "`{entry}` does not exist: no file {path} and no directory of that name at this revision"
                )));
            };
            for resource in found {
                if let Some(key) = resource.key().filter(|key| !keys.insert(key.clone())) {
                    return Err(refuse(format!(
                        "may not add resource with an already registered id: {key} (`{entry}` adds it again)"
                    )));
                }
                resources.push(resource);
            }
        }
        Ok(resources)
    }
}

/// One kustomization, while its transformers run.
struct Level<'a> {
    file: &'a str,
    directory: &'a str,
    files: &'a Files,
}

impl Level<'_> {
    /// Runs the kustomization's transformers in kustomize's order.
    fn transform(
        &self,
        kustomization: &Value,
        resources: &mut Vec<Resource>,
        read: &mut BTreeSet<String>,
    ) -> Result<(), InputError> {
        for (at, entry) in entries(kustomization, &["patchesStrategicMerge"]) {
            // An entry is a file's path if there is such a file, else the patch itself.
            let entry = entry.as_str().unwrap_or("");
            let is_file =
                resolve(self.directory, entry).is_ok_and(|path| self.files.contains_key(&path));
            let mut patch = Map::new();
            patch.insert(if is_file { "path" } else { "patch" }.into(), entry.into());
            patches::apply(self, &at, &Value::Object(patch), resources, read)?;
        }
        for (at, patch) in entries(kustomization, &["patches"]) {
            patches::apply(self, &at, patch, resources, read)?;
        }
        let namespace = text(kustomization, "namespace");
        if !namespace.is_empty() {
            names::set_namespace(resources, namespace);
        }
        let (prefix, suffix) = (
            text(kustomization, "namePrefix"),
            text(kustomization, "nameSuffix"),
        );
        names::add_affixes(resources, prefix, suffix);
        for (at, label) in entries(kustomization, &["labels"]) {
            labels::add_labels(resources, label).map_err(|why| self.error(&at, why))?;
        }
        for (field, name) in [
            ("commonLabels", labels::Field::Labels),
            ("commonAnnotations", labels::Field::Annotations),
        ] {
            let pairs = text_map(kustomization, field);
            labels::add_common(resources, &pairs, name)
                .map_err(|why| self.error(&format!("/{field}"), why))?;
        }
        for (at, patch) in entries(kustomization, &["patchesJson6902"]) {
            patches::apply(self, &at, patch, resources, read)?;
        }
        for (at, replica) in entries(kustomization, &["replicas"]) {
            replicas::set(resources, replica).map_err(|why| self.error(&at, why))?;
        }
        for (at, image) in entries(kustomization, &["images", "imageTags"]) {
            images::set(resources, &images::Image::of(image))
                .map_err(|why| self.error(&at, why))?;
        }
        Ok(())
    }

    fn error(&self, at: &str, why: String) -> InputError {
        InputError::shape(self.file, at, why)
    }
}

/// `entry` of a kustomization in `directory`, as a path from the
/// repository's root: `../base` from `envs/prod` is `envs/base`.
pub fn resolve(directory: &str, entry: &str) -> Result<String, String> {
    if entry.contains("://") || entry.starts_with("github.com/") || entry.starts_with("git@") {
        return Err(format!(
            "`{entry}` is a remote resource; the playground builds what its repository holds"
        ));
    }
    if entry.starts_with('/') {
        return Err(format!(
            "`{entry}` is absolute; write it from the kustomization's directory"
        ));
    }
    if entry.is_empty() {
        return Err("an empty entry names nothing".to_string());
    }
    let mut parts: Vec<&str> = directory
        .split('/')
        .filter(|part| !part.is_empty())
        .collect();
    for part in entry.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts
                    .pop()
                    .ok_or_else(|| format!("`{entry}` is outside the repository"))?;
            }
            other => parts.push(other),
        }
    }
    Ok(parts.join("/"))
}

/// The objects of a resource file: Kubernetes objects only.
fn read_resources(workspace: &mut Workspace, path: &str, content: &Value) -> Result<Vec<Resource>, InputError> {
    let state = workspace.read_file(path, content)?;
    if matches!(state.form(), Form::Named) && !state.is_empty() {
        return Err(InputError::shape(
            path,
            "",
            "a kustomization's resources are Kubernetes objects (apiVersion, kind, metadata.name); \
             this file holds named objects (the lesson's form)",
        ));
    }
    Ok(state
        .objects()
        .values()
        .map(|object| Resource::new(object.value().clone()))
        .collect())
}
