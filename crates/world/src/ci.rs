//! CI in push mode: it holds cluster credentials and deploys every commit
//! to every cluster, as `kubectl apply` in a pipeline does.

use crate::cluster;
use crate::event::Event;
use crate::repository;
use crate::World;
use gitops_core::sync::immutable::Outcome;
use gitops_core::{Operation, State};

impl World {
    /// Push mode: CI deploys the head of Git to every cluster with its own
    /// credentials, as `kubectl apply` in a pipeline does.
    pub(crate) fn ci_deploy(&mut self, step: u32) {
        let environments: Vec<String> = self.clusters.keys().cloned().collect();
        for environment in environments {
            let (head, files) = self.desired_files(&environment);
            let head = head.clone();
            let directory = self.desired_path(&environment);
            let Some(cluster) = self.clusters.get_mut(&environment) else {
                continue;
            };
            let event = match self.workspace.with(|workspace| repository::desired_state(workspace, &files, &directory)) {
                Ok(desired) if cluster::comparable(&desired, cluster.actual()).is_err() => {
                    Event::new(step, "ci", format!("did not deploy {} to {environment}", head.id))
                        .because("Git and the cluster hold objects of different forms (named objects and Kubernetes objects), and the objects of one form cannot be written into a state of the other")
                }
                Ok(desired) => {
                    let options = self.options.reconcile();
                    let plan = gitops_core::plan(&desired, cluster.actual(), &options);
                    let mut done = Vec::new();
                    let mut refused = Vec::new();
                    for operation in &plan {
                        let change = ci_change(operation, cluster.actual());
                        match cluster.carry_out(operation, &desired, &options) {
                            Outcome::Accepted => done.extend(change),
                            Outcome::Refused(refusal) => refused.push(refusal.message),
                            Outcome::Recreated { .. } => {
                                done.push(format!("recreated {}", operation.key()))
                            }
                        }
                    }
                    let done = match done.is_empty() {
                        true => " (no changes)".to_string(),
                        false => format!(": {}", done.join(", ")),
                    };
                    match refused.is_empty() {
                        true => Event::new(
                            step,
                            "ci",
                            format!("applied revision {} to {environment}{done}", head.id),
                        )
                        .because(
                            "in push mode CI holds cluster credentials and deploys every commit",
                        ),
                        // kubectl apply goes on past what the API server refuses, and fails.
                        false => Event::new(
                            step,
                            "ci",
                            format!(
                                "the deploy of {} to {environment} failed: the API server refused: {}",
                                head.id,
                                refused.join("; ")
                            ),
                        )
                        .because(format!("kubectl apply applied the rest{done}")),
                    }
                }
                Err(error) => Event::new(
                    step,
                    "ci",
                    format!("the deploy of {} to {environment} failed: {error}", head.id),
                )
                .because("the pipeline stops at an invalid manifest"),
            };
            self.events.push(event.in_cluster(&environment));
        }
    }
}

/// What applying one operation of a CI deploy changes, as its event says
/// it: `created Deployment/shop/web`, `deleted StatefulSet/shop/db`.
fn ci_change(operation: &Operation, actual: &State) -> Option<String> {
    match operation {
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
    }
}
