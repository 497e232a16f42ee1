//! What can be known wrong with a scenario file as it is read: its version,
//! layout, environments, forms, controllers and script, each an
//! `InputError` at its JSON pointer.

mod environments;
mod file_edits;
mod script;
mod states;

use super::*;
use environments::{check_layout, environment_paths};
use file_edits::check_file_edits;
use script::{check_controllers, check_script};
use states::{in_form_of, locate_file_error, state_of, Places};

impl Scenario {
    pub(super) fn from_raw(source: &str, mut raw: RawScenario) -> Result<Self, InputError> {
        check_version(source, raw.version.as_ref())?;
        if let Some(written) = raw.written_options.take() {
            raw.options = super::read_options::read_options(written).map_err(|mismatch| InputError::shape(source, format!("/options{}", mismatch.pointer()), mismatch.message()))?;
        }
        let lesson_form = raw.desired.is_some();
        let mut actual_texts = BTreeMap::new();
        let (repository, mut clusters) = match (raw.desired, raw.repository) {
            (Some(desired), None) => {
                let state = state_of(source, "/desired", &desired)?;
                let actual = match &raw.actual {
                    Some(actual) => state_of(source, "/actual", actual)?,
                    None => State::empty(state.form().clone()),
                };
                if let Some(Value::String(text)) = &raw.actual {
                    actual_texts.insert(DEFAULT_ENVIRONMENT.to_string(), text.clone());
                }
                let file = match desired.is_string() {
                    true => "manifests.yaml",
                    false => "manifests.json",
                };
                let files = Files::from([(format!("envs/{DEFAULT_ENVIRONMENT}/{file}"), desired)]);
                let repository = InitialRepository {
                    author: default_author(),
                    message: default_message(),
                    files,
                    branches: BTreeMap::new(),
                };
                (
                    repository,
                    BTreeMap::from([(DEFAULT_ENVIRONMENT.to_string(), actual)]),
                )
            }
            (None, Some(repository)) => {
                if raw.actual.is_some() {
                    return Err(InputError::shape(
                        source,
                        "/actual",
                        "with `repository`, write each cluster under `clusters`",
                    ));
                }
                (repository, BTreeMap::new())
            }
            (Some(_), Some(_)) => {
                return Err(InputError::shape(
                    source,
                    "/repository",
                    "a scenario has `desired` or `repository`, not both",
                ))
            }
            (None, None) => {
                return Err(InputError::shape(
                    source,
                    "",
                    "a scenario needs `desired`, the state Git declares (or a `repository`)",
                ))
            }
        };
        let mut written_at: BTreeMap<String, String> = gitops_core::collect::map_of(
            clusters
                .keys()
                .map(|environment| (environment.clone(), "/actual".to_string())),
        );
        for (environment, value) in raw.clusters {
            let pointer = format!("/clusters/{}", gitops_core::pointer::escape(&environment));
            let state = state_of(source, &pointer, &value)?;
            if let Value::String(text) = value {
                actual_texts.insert(environment.clone(), text);
            }
            written_at.insert(environment.clone(), pointer);
            clusters.insert(environment, state);
        }
        check_layout(source, &repository, raw.options.layout)?;
        let paths = match &raw.applications {
            None if raw.options.application_health_check => {
                let why = "it needs a top-level `applications`, the root Application's path";
                return Err(InputError::shape(source, "/options/applicationHealthCheck", why));
            }
            None => environment_paths(source, &raw.environments, raw.options.layout)?,
            Some(root) => {
                let mut paths = BTreeMap::new();
                let (root, declared) = applications_in(source, root, &raw.environments, &repository)?;
                for (name, path, settings) in declared {
                    paths.insert(name.clone(), path);
                    raw.options.applications.push((name, settings));
                }
                raw.options.applications_root = Some(root);
                Paths::declared(paths)
            }
        };
        let declared = declared_environments(&repository, &paths, raw.options.layout);
        if declared.is_empty() {
            return Err(InputError::shape(
                source,
                "/repository/files",
                "no file is under `envs/<environment>/` (or, with branches, under a branch's `app/`), so no environment is declared",
            ));
        }
        for (environment, pointer) in &written_at {
            if !declared.iter().any(|(name, _)| name == environment) {
                let names: Vec<&str> = declared.iter().map(|(name, _)| name.as_str()).collect();
                let where_declared = match raw.options.layout {
                    Layout::Directories => "a directory under `envs/` (or `environments`)",
                    Layout::Branches => "a branch",
                };
                return Err(InputError::shape(
                    source,
                    pointer.clone(),
                    format!(
                        "Git declares no environment {environment}: its environments are {}, each {where_declared}; \
                         a cluster is an environment's, so name it after one of them",
                        names.join(", ")
                    ),
                ));
            }
        }
        for (environment, files) in &declared {
            let escaped = gitops_core::pointer::escape(environment);
            let path = match raw.options.layout {
                Layout::Directories => paths.of(environment),
                Layout::Branches => crate::repository::paths::default_path(environment),
            };
            if !crate::repository::paths::exists(files, &path) {
                let at = match raw.environments.get(environment) {
                    Some(spec) if spec.get("path").is_some() => {
                        format!("/environments/{escaped}/path")
                    }
                    Some(_) => format!("/environments/{escaped}"),
                    None => format!("/repository/branches/{escaped}"),
                };
                let place = match raw.options.layout {
                    Layout::Directories => path.clone(),
                    Layout::Branches => format!("app/ of branch {environment}"),
                };
                return Err(InputError::shape(
                    source,
                    at,
                    format!("no file of the first commit is under {place}, so {environment}'s path does not exist (Git keeps no empty directories)"),
                ));
            }
            let desired =
                crate::repository::desired_state(&mut gitops_core::Workspace::new(), files, &path)
                    .map_err(|error| locate_file_error(source, error))?;
            let Some(actual) = clusters.remove(environment) else {
                clusters.insert(environment.clone(), State::empty(desired.form().clone()));
                continue;
            };
            let places = match written_at.get(environment) {
                Some(pointer) if lesson_form && pointer == "/actual" => Places {
                    pointer: pointer.clone(),
                    desired: "`desired`".into(),
                    actual: "`actual`".into(),
                },
                pointer => Places {
                    pointer: pointer.cloned().unwrap_or_default(),
                    desired: match raw.options.layout {
                        Layout::Directories => format!("Git's `{}/`", paths.of(environment)),
                        Layout::Branches => format!("Git's branch {environment}"),
                    },
                    actual: format!("the {environment} cluster"),
                },
            };
            let actual = in_form_of(source, &places, &desired, actual)?;
            clusters.insert(environment.clone(), actual);
        }
        if let Some(namespace) = raw.options.namespace.as_deref().filter(|namespace| !is_dns_label(namespace)) {
            return Err(InputError::shape(
                source,
                "/options/namespace",
                format!("`{namespace}` is no namespace: a name of at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit (RFC 1123)"),
            ));
        }
        if raw.options.poll_every == 0 {
            return Err(InputError::shape(
                source,
                "/options/pollEvery",
                "the agent polls every 1 step or more",
            ));
        }
        if let Some((pointer, error)) = raw
            .options
            .retry
            .as_ref()
            .and_then(|retry| retry.unreadable())
        {
            return Err(InputError::shape(
                source,
                format!("/options/retry{pointer}"),
                format!("{error}: a duration is a number of seconds or as Go writes one (5s, 2m, 1h30m)"),
            ));
        }
        if raw.steps.is_some_and(|steps| steps > MAX_STEPS) {
            return Err(InputError::shape(
                source,
                "/steps",
                format!("a scenario runs at most {MAX_STEPS} minutes"),
            ));
        }
        let environments: BTreeSet<String> = gitops_core::collect::set_of(clusters.keys().cloned());
        check_controllers(source, &raw.controllers, &environments)?;
        check_script(
            source,
            &raw.script,
            raw.steps,
            &environments,
            &raw.controllers,
            &paths,
        )?;
        check_file_edits(source, &raw.script, &repository)?;
        let last_action = raw.script.iter().map(|step| step.at).max().unwrap_or(0);
        let steps = raw
            .steps
            .unwrap_or(last_action.saturating_add(SETTLE_STEPS).min(MAX_STEPS));
        if let Some(exercise) = &raw.exercise {
            let environments: Vec<String> = environments.iter().cloned().collect();
            exercise.validate(source, &environments)?;
        }
        Ok(Scenario {
            title: raw.title,
            explanation: raw.explanation,
            section: raw.section,
            repository,
            paths,
            clusters,
            actual_texts,
            registry: raw.registry,
            controllers: raw.controllers,
            options: raw.options,
            script: raw.script,
            steps,
            exercise: raw.exercise,
        })
    }
}

fn check_version(source: &str, version: Option<&Value>) -> Result<(), InputError> {
    match version {
        None => Ok(()),
        Some(Value::Number(number)) if number.as_u64() == Some(SCENARIO_VERSION) => Ok(()),
        Some(other) => Err(InputError::shape(
            source,
            "/version",
            format!("this playground reads scenario version {SCENARIO_VERSION}; found {other}"),
        )),
    }
}

/// A namespace's name as Kubernetes takes it (`IsDNS1123Label`).
fn is_dns_label(name: &str) -> bool {
    let alphanumeric = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    (1..=63).contains(&name.len())
        && name.chars().all(|c| alphanumeric(c) || c == '-')
        && name.starts_with(alphanumeric)
        && name.ends_with(alphanumeric)
}

/// The environments the Applications of `root` declare (`applications.rs`).
fn applications_in(
    source: &str,
    root: &str,
    environments: &BTreeMap<String, Value>,
    repository: &InitialRepository,
) -> Result<(String, Vec<applications::Declared>), InputError> {
    let refuse = |message: String| InputError::shape(source, "/applications", message);
    if !environments.is_empty() {
        return Err(refuse("environments come from `environments` or from the Applications in Git, not both".into()));
    }
    let root = crate::repository::paths::normalized(root).map_err(refuse)?;
    let state = crate::repository::desired_state(&mut gitops_core::Workspace::new(), &repository.files, &root)?;
    let declared = applications::declared_applications(&root, &state, &repository.files)?;
    if declared.is_empty() {
        return Err(refuse(format!("{root} holds no Argo CD Application or ApplicationSet (argoproj.io/v1alpha1)")));
    }
    Ok((root, declared))
}
