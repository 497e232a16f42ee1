//! Where a world stands: what Git declares, what runs, what the agent and
//! the checks report. `gitops-sim run` prints it as `final`.

use crate::agent::Agent;
use crate::cluster::Running;
use crate::credentials::CI;
use crate::registry::Image;
use crate::repository::{
    branch_view, diff_files, diff_trees, Commit, FileDiff, ObjectDiff, Paths,
    PullRequest,
};
use crate::World;
use gitops_core::collect::{map_of, sort_by_key};
use gitops_core::health::Health;
use gitops_core::report::SyncStatus;
use gitops_core::Warning;
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvironmentStatus {
    /// Actual against the head of Git; Unknown when Git's head does not read.
    pub sync: SyncStatus,
    pub health: Health,
    /// The head of Git.
    pub head: String,
    /// The revision the agent last synced (pull mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synced_revision: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

/// A commit of the log with what it changed: by environment and object
/// as its files render, and by file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    #[serde(flatten)]
    pub commit: Commit,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub changes: BTreeMap<String, Vec<ObjectDiff>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileDiff>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RepositorySummary {
    /// Newest first.
    pub log: Vec<LogEntry>,
    pub pull_requests: Vec<PullRequest>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistrySummary {
    pub tags: BTreeMap<String, String>,
    pub images: Vec<Image>,
    /// No `registry:` list: it holds every image asked for.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
}

impl RegistrySummary {
    /// What CI built from the application repository, oldest first, once it built
    /// something in the run: the scenario's own images are CI's too, and are
    /// listed beside such a build, not alone.
    pub fn builds(&self) -> Vec<&Image> {
        let mut builds: Vec<&Image> = self.images.iter().filter(|image| image.pushed_by == CI).collect();
        if !builds.iter().any(|image| image.step > 0) {
            return Vec::new();
        }
        sort_by_key(&mut builds, |image| image.step);
        builds
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub step: u32,
    /// Each environment's desired state at the head of Git (null when it does not read).
    pub desired: BTreeMap<String, Value>,
    pub actual: BTreeMap<String, Value>,
    pub status: BTreeMap<String, EnvironmentStatus>,
    /// What each workload runs, by environment and key.
    pub running: BTreeMap<String, BTreeMap<String, Vec<Running>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<Agent>,
    pub repository: RepositorySummary,
    pub registry: RegistrySummary,
}

/// The world's history and where its actors stand: Git's log and pull
/// requests, the registry, what runs where, the agent, and the commit each
/// environment follows. It is the summary without the states and their
/// reports, cheap enough to redraw the timeline after every keystroke.
#[derive(Debug, Clone, PartialEq)]
pub struct History {
    pub step: u32,
    /// The commit each environment follows.
    pub heads: BTreeMap<String, String>,
    pub running: BTreeMap<String, BTreeMap<String, Vec<Running>>>,
    pub agent: Option<Agent>,
    pub repository: RepositorySummary,
    pub registry: RegistrySummary,
}

impl World {
    fn log_entry(&self, commit: &Commit) -> LogEntry {
        let parent = commit
            .parent
            .as_deref()
            .and_then(|id| self.repository.find(id));
        let view = |files| match &commit.branch {
            Some(branch) => Cow::Owned(branch_view(branch, files)),
            None => Cow::Borrowed(files),
        };
        let paths = match &commit.branch {
            Some(_) => Cow::Owned(Paths::default()),
            None => Cow::Borrowed(self.repository.paths()),
        };
        let changes = parent
            .map(|parent| self.workspace.with(|workspace| diff_trees(workspace, &view(&parent.files), &view(&commit.files), &paths)))
            .unwrap_or_default();
        let files = parent
            .map(|parent| diff_files(&parent.files, &commit.files))
            .unwrap_or_default();
        LogEntry {
            commit: commit.clone(),
            changes,
            files,
        }
    }

    /// What the timeline shows, without the states and their reports.
    pub fn history(&self) -> History {
        let heads = map_of(self.clusters.keys().map(|environment| {
            (
                environment.clone(),
                self.desired_files(environment).0.id.clone(),
            )
        }));
        let running = map_of(self.clusters.iter().map(|(environment, cluster)| {
            let workloads = map_of(
                cluster
                    .running()
                    .map(|(key, images)| (key.to_string(), images.to_vec())),
            );
            (environment.clone(), workloads)
        }));
        History {
            step: self.step,
            heads,
            running,
            agent: self.agent.clone(),
            repository: RepositorySummary {
                log: self
                    .repository
                    .log()
                    .map(|commit| self.log_entry(commit))
                    .collect(),
                pull_requests: self.repository.pull_requests().to_vec(),
            },
            registry: RegistrySummary {
                tags: self.registry.tags().clone(),
                images: self.registry.images().cloned().collect(),
                open: self.registry.is_open(),
            },
        }
    }

    pub fn summary(&self) -> Summary {
        let History {
            step,
            heads,
            running,
            agent,
            repository,
            registry,
        } = self.history();
        let mut desired = BTreeMap::new();
        let mut actual = BTreeMap::new();
        let mut status = BTreeMap::new();
        for (environment, cluster) in &self.clusters {
            let files = self.desired_files(environment).1;
            let directory = self.desired_path(environment);
            let wanted = self.rendered(environment, &files, &directory);
            actual.insert(environment.clone(), cluster.actual().to_value());
            let head = heads[environment].clone();
            let synced_revision = self
                .agent
                .as_ref()
                .and_then(|agent| agent.applications.get(environment))
                .and_then(|application| application.synced_revision.clone());
            let environment_status = match &wanted {
                Ok(state) => {
                    let options = self.reconcile_options(environment);
                    let found = self.workspace.with(|workspace| workspace.report(state, cluster.actual(), &options));
                    EnvironmentStatus {
                        sync: found.status.sync,
                        health: found.status.health,
                        head,
                        synced_revision,
                        error: None,
                        warnings: found.warnings,
                    }
                }
                Err(error) => EnvironmentStatus {
                    sync: SyncStatus::Unknown,
                    health: Health::Unknown,
                    head,
                    synced_revision,
                    error: Some(error.to_string()),
                    warnings: Vec::new(),
                },
            };
            desired.insert(
                environment.clone(),
                wanted.map(|state| state.to_value()).unwrap_or(Value::Null),
            );
            status.insert(environment.clone(), environment_status);
        }
        Summary {
            step,
            desired,
            actual,
            status,
            running,
            agent,
            repository,
            registry,
        }
    }
}
