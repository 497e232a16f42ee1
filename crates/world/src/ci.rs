//! CI in push mode: it holds cluster credentials and deploys every commit
//! to every cluster, as `kubectl apply` in a pipeline does.

use crate::cluster;
use crate::event::Event;
use crate::repository;
use crate::World;
use gitops_core::{Operation, State};

impl World {
    /// Push mode: CI deploys the head of Git to every cluster with its own
    /// credentials, as `kubectl apply` in a pipeline does.
    pub(crate) fn ci_deploy(&mut self, step: u32) {
        let environments: Vec<String> = self.clusters.keys().cloned().collect();
        for environment in environments {
            let (head, files) = self.desired_files(&environment);
            let head = head.clone();
            let Some(cluster) = self.clusters.get_mut(&environment) else {
                continue;
            };
            let event = match repository::desired_state(&files, &environment) {
                Ok(desired) if cluster::comparable(&desired, cluster.actual()).is_err() => {
                    Event::new(step, "ci", format!("did not deploy {} to {environment}", head.id))
                        .because("Git and the cluster hold objects of different forms (named objects and Kubernetes objects), and the objects of one form cannot be written into a state of the other")
                }
                Ok(desired) => {
                    let plan =
                        gitops_core::plan(&desired, cluster.actual(), &self.options.reconcile());
                    let done = ci_changes(&plan, cluster.actual());
                    cluster.apply(&plan);
                    Event::new(
                        step,
                        "ci",
                        format!("applied revision {} to {environment}{done}", head.id),
                    )
                    .because("in push mode CI holds cluster credentials and deploys every commit")
                }
                Err(error) => Event::new(
                    step,
                    "ci",
                    format!("the deploy of {} to {environment} failed: {error}", head.id),
                )
                .because("the pipeline stops at an invalid manifest"),
            };
            self.events.push(event);
        }
    }
}

/// What a CI deploy changed, as its event says it: ` (no changes)`, or
/// `: created Deployment/shop/web, deleted StatefulSet/shop/db`.
fn ci_changes(plan: &[gitops_core::Operation], actual: &State) -> String {
    let done: Vec<String> = plan
        .iter()
        .filter_map(|operation| match operation {
            Operation::Create { key, .. } => Some(format!("created {key}")),
            Operation::Update { key, .. } => Some(format!("updated {key}")),
            Operation::Delete { key, .. } => Some(
                match gitops_core::sync::apply::deleted_with(actual, key).as_slice() {
                    [] => format!("deleted {key}"),
                    contents => format!(
                        "deleted {key} and everything in it ({})",
                        contents.join(", ")
                    ),
                },
            ),
            Operation::Skip { .. } => None,
        })
        .collect();
    if done.is_empty() {
        " (no changes)".to_string()
    } else {
        format!(": {}", done.join(", "))
    }
}
