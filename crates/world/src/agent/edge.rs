//! An edge-triggered agent, for contrast: it acts only on the notifications
//! it receives while it runs (a commit, a change to an object), replaying
//! each one, and never recomputes the whole difference. What happened while
//! it was down is never noticed.

use super::waves::{recreated_event, refused_event};
use super::{operation_event, Agent, Notice};
use crate::cluster::Cluster;
use crate::event::Event;
use crate::repository::{diff_states, Repository};
use crate::scenario::WorldOptions;
use gitops_core::Workspace;
use gitops_core::sync::immutable::Outcome;
use std::collections::{BTreeMap, BTreeSet};

impl Agent {
    pub(super) fn reconcile_edge(
        &mut self,
        step: u32,
        workspace: &mut Workspace,
        repository: &Repository,
        clusters: &mut BTreeMap<String, Cluster>,
        options: &WorldOptions,
        events: &mut Vec<Event>,
    ) {
        let notices = std::mem::take(&mut self.inbox);
        let git_moved = notices.contains(&Notice::GitMoved);
        let environments = self.synced_environments();
        for environment in environments {
            let Some(cluster) = clusters.get_mut(&environment) else {
                continue;
            };
            let options = &*options.of(&environment);
            let mut keys: BTreeSet<String> =
                gitops_core::collect::set_of(notices.iter().filter_map(|notice| match notice {
                    Notice::Changed {
                        environment: changed,
                        key,
                    } if *changed == environment => Some(key.clone()),
                    _ => None,
                }));
            if git_moved {
                let before = self
                    .applications
                    .get(&environment)
                    .and_then(|application| application.target.clone());
                self.fetch(workspace, step, &environment, repository, options, true, events);
                let after = self
                    .applications
                    .get(&environment)
                    .and_then(|application| application.target.clone());
                if let (Some(before), Some(after)) = (before, after) {
                    keys.extend(
                        diff_states(&before, &after)
                            .into_iter()
                            .map(|diff| diff.key),
                    );
                }
            }
            let Some(application) = self.applications.get_mut(&environment) else {
                continue;
            };
            let Some(target) = application.target.clone() else {
                continue;
            };
            if keys.is_empty() {
                continue;
            }
            let plan: Vec<_> = workspace.report(&target, cluster.actual(), &options.reconcile())
                .plan
                .into_iter()
                .filter(|operation| keys.contains(operation.key()))
                .collect();
            let reconcile = options.reconcile();
            for operation in &plan {
                let applied = operation_event(
                    step,
                    &environment,
                    operation,
                    "it replays the event it was sent",
                    git_moved,
                    cluster.actual(),
                );
                match cluster.carry_out(operation, &target, &reconcile) {
                    Outcome::Accepted => events.push(applied),
                    Outcome::Refused(refusal) => {
                        events.push(refused_event(step, &environment, &refusal.message))
                    }
                    Outcome::Recreated { why, refusal, .. } => events.push(recreated_event(
                        step,
                        &environment,
                        operation.key(),
                        &why,
                        refusal.as_ref().map(|refusal| refusal.message.as_str()),
                    )),
                }
            }
            application.synced_revision = application.target_revision.clone();
        }
    }
}
