//! The Applications in Git followed as Git moves. When the agent polls a new
//! revision, the root Application's path is read again
//! (`scenario::applications`): an Application whose settings changed syncs by
//! them from then on, and one that Git no longer declares (its file removed,
//! or its directory gone from an ApplicationSet's generator) is deleted, as
//! the root Application prunes it and the ApplicationSet controller deletes
//! what it no longer generates (`deleteInCluster`). Deleting it deletes what it
//! manages when it has the resources finalizer (`finalizeApplicationDeletion`,
//! but what `shouldBeDeleted` keeps), and leaves it otherwise; the agent
//! no longer syncs its environment. The environments are those of the start:
//! an Application added later makes none (an event says so), and a changed
//! `source.path` is not followed (docs/world.md).

use crate::event::{Event, Place};
use crate::scenario::applications::{declared_applications, ApplicationSettings};
use crate::World;
use gitops_core::diff::tracking::is_tracked_by;
use gitops_core::health::Health;
use gitops_core::options::Agent;
use gitops_core::state::protection::kept_when_its_application_is_deleted;

impl World {
    /// Reads the Applications in Git again when the agent polls (`polls`) a
    /// revision it has not read them at.
    pub(crate) fn follow_applications(&mut self, step: u32, polls: bool) {
        let Some(root) = self.options.applications_root.clone() else {
            return;
        };
        let head = self.repository.head();
        let running = self.agent.as_ref().is_some_and(|agent| agent.running && agent.has_access);
        if !polls || !running || self.options.agent != Agent::ArgoCd || self.applications_read.as_deref() == Some(head.id.as_str()) {
            return;
        }
        let (revision, files) = (head.id.clone(), head.files.clone());
        self.applications_read = Some(revision.clone());
        let read = self
            .workspace
            .with(|workspace| crate::repository::desired_state(workspace, &files, &root))
            .and_then(|state| declared_applications(&root, &state, &files));
        let declared = match read {
            Ok(declared) => declared,
            Err(error) => {
                let what = format!("the Applications in {root} do not read at revision {revision}: {error}");
                self.events.push(Event::new(step, "agent", what).because("they stay as they were read last").at(Place::Git).refused());
                return;
            }
        };
        for (name, ..) in declared.iter().filter(|(name, ..)| !self.options.applications.iter().any(|(known, _)| known == name)) {
            let what = format!("{name}: an Application Git declares at revision {revision} makes no environment here");
            let why = "the playground's environments are those its scenario starts with";
            self.events.push(Event::new(step, "agent", what).because(why).at(Place::Git));
        }
        for (name, settings) in std::mem::take(&mut self.options.applications) {
            let Some((_, _, now)) = declared.iter().find(|(declared, ..)| *declared == name) else {
                self.delete_application(step, &name, &settings, &revision);
                continue;
            };
            let changes = changes(&settings, now);
            if !changes.is_empty() {
                let what = format!("{name}: its Application changed in Git at revision {revision} ({}); it syncs by it from now on", changes.join(", "));
                self.events.push(Event::new(step, "agent", what).at(Place::Git));
            }
            self.options.applications.push((name, now.clone()));
        }
    }

    /// Deletes the Application of `environment`: with its resources finalizer,
    /// what it manages goes too, but what Argo CD keeps.
    fn delete_application(&mut self, step: u32, environment: &str, settings: &ApplicationSettings, revision: &str) {
        if let Some(application) = self.agent.as_mut().and_then(|agent| agent.applications.get_mut(environment)) {
            *application = Default::default();
            application.deleted = true;
        }
        let Some(cluster) = self.clusters.get_mut(environment) else {
            return;
        };
        let managed: Vec<(String, bool)> = cluster
            .actual()
            .objects()
            .iter()
            .filter(|(_, object)| is_tracked_by(object.value(), environment))
            .map(|(key, object)| (key.to_string(), kept_when_its_application_is_deleted(object.value())))
            .collect();
        let kept_by_application = settings.sync_options.iter().any(|option| option == "Delete=false");
        let mut deleted = Vec::new();
        for (key, kept) in &managed {
            if settings.cascade && !kept && !kept_by_application {
                cluster.remove(key);
                deleted.push(key.as_str());
            }
        }
        let kept = managed.len() - deleted.len();
        let what = format!("{environment}: no Application in Git declares it at revision {revision}, so Argo CD deletes its Application and no longer syncs it");
        let why = match (settings.cascade, deleted.is_empty()) {
            (false, _) => "its Application has no resources-finalizer.argocd.argoproj.io, so what it managed stays in the cluster".to_string(),
            (true, true) => format!("its resources finalizer deletes what it managed: nothing{}", kept_note(kept)),
            (true, false) => format!("its resources finalizer deletes what it managed: {}{}", deleted.join(", "), kept_note(kept)),
        };
        self.events.push(Event::new(step, "agent", what).because(why).at(Place::Cluster(environment.to_string())));
    }
}

fn kept_note(kept: usize) -> String {
    match kept {
        0 => String::new(),
        _ => format!("; {kept} kept (Delete=false, helm.sh/resource-policy: keep, or a CRD)"),
    }
}

/// The parts of an Application's settings that differ, named as its spec names them.
fn changes(before: &ApplicationSettings, after: &ApplicationSettings) -> Vec<&'static str> {
    [
        (before.automated != after.automated, "syncPolicy.automated"),
        (before.sync_options != after.sync_options, "syncPolicy.syncOptions"),
        (before.retry != after.retry, "syncPolicy.retry"),
        (before.ignore != after.ignore, "ignoreDifferences"),
        (before.namespace != after.namespace, "destination.namespace"),
        (before.cascade != after.cascade, "metadata.finalizers"),
    ]
    .into_iter()
    .filter_map(|(changed, part)| changed.then_some(part))
    .collect()
}

/// The root Application's sync of the Applications in its path, wave by wave
/// (gitops-engine `syncContext.Sync`): a wave is applied once every task of
/// the waves before has succeeded. An Application has no health in Argo CD
/// 3.x, so its task succeeds when applied and the root creates every wave at
/// once (the Options panel says so: `gitops_page::manifest`); with argocd-cm's `resource.customizations.health.argoproj.io_Application`
/// (`WorldOptions::application_health_check`) its health is its own
/// `status.health.status`: a wave waits while one before it is not Healthy,
/// and a Degraded one fails the root's sync.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RootSync {
    /// What the root's sync last said it waits for, so it is said once.
    waiting: Option<String>,
    /// A child was Degraded: the root's sync failed, and creates no more.
    failed: bool,
    /// The root's sync has begun: the children not created yet are pending.
    begun: bool,
}

impl World {
    /// One pass of the root's sync: the next wave of child Applications is
    /// created when the waves before it are Healthy (with the health check),
    /// and at once without it.
    pub(crate) fn sync_root_application(&mut self, step: u32) {
        let running = self.agent.as_ref().is_some_and(|agent| agent.running && agent.has_access);
        if self.options.applications_root.is_none() || !running || self.options.agent != Agent::ArgoCd || !self.options.application_health_check || self.root_sync.failed {
            return;
        }
        if let (false, Some(agent)) = (self.root_sync.begun, self.agent.as_mut()) {
            self.root_sync.begun = true;
            for (name, _) in &self.options.applications {
                if let Some(application) = agent.applications.get_mut(name) {
                    application.pending = true;
                }
            }
        }
        let pending = |name: &str| self.agent.as_ref().and_then(|agent| agent.applications.get(name)).is_some_and(|application| application.pending);
        let Some(wave) = self.options.applications.iter().filter(|(name, _)| pending(name)).map(|(_, settings)| settings.wave).min() else {
            return;
        };
        // Each Application of the waves before, and what its health says when it is not Healthy.
        let mut before: Vec<String> = Vec::new();
        let mut unhealthy: Vec<String> = Vec::new();
        let mut degraded = None;
        for (name, settings) in &self.options.applications {
            if settings.wave >= wave || pending(name) {
                continue;
            }
            match self.application_health(name) {
                Health::Healthy => {}
                Health::Degraded => degraded = degraded.or(Some(name.clone())),
                health => unhealthy.push(format!("{name}'s Application is {health}")),
            }
            before.push(name.clone());
        }
        let root = "the root Application";
        if let Some(name) = degraded {
            self.root_sync.failed = true;
            let what = format!("{root}'s sync failed at wave {wave}: {name}'s Application is Degraded");
            let why = "a Degraded Application fails the sync";
            self.events.push(Event::new(step, "agent", what).because(why).at(Place::Git).refused());
            return;
        }
        if !unhealthy.is_empty() {
            let what = format!("{root} waits at wave {wave}: {}", unhealthy.join(", "));
            if self.root_sync.waiting.as_deref() != Some(what.as_str()) {
                let why = "a wave waits for the Applications before it to be Healthy (applicationHealthCheck)";
                self.events.push(Event::new(step, "agent", what.clone()).because(why).at(Place::Git));
                self.root_sync.waiting = Some(what);
            }
            return;
        }
        let created: Vec<String> = self.options.applications.iter().filter(|(name, settings)| settings.wave == wave && pending(name)).map(|(name, _)| name.clone()).collect();
        if let Some(agent) = self.agent.as_mut() {
            for name in &created {
                if let Some(application) = agent.applications.get_mut(name) {
                    application.pending = false;
                }
            }
        }
        self.root_sync.waiting = None;
        let what = format!("{root} creates the Application of {} (wave {wave})", created.join(", "));
        let why = match before.is_empty() {
            true => "its wave is the first".to_string(),
            false => format!("the waves before are Healthy: {}", before.join(", ")),
        };
        self.events.push(Event::new(step, "agent", what).because(why).at(Place::Git));
    }

    /// A child Application's health: its application's, as Argo CD reports
    /// it (`status.health.status`), at the revision Git has now.
    fn application_health(&self, environment: &str) -> Health {
        let (Ok(desired), Some(cluster)) = (self.desired_state(environment), self.clusters.get(environment)) else {
            return Health::Unknown;
        };
        let options = self.reconcile_options(environment);
        self.workspace.with(|workspace| workspace.report(&desired, cluster.actual(), &options)).status.health
    }
}
