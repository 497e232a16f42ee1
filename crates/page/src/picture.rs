//! The picture of the world, as the page draws it: the actors and what
//! they hold, the state repository with its commits and pull requests, the
//! registry's tags, each environment's cluster as cards of its objects
//! (Argo CD's resource tree: kind, name, sync and health), and this step's
//! acts as arrows from who acted to what it touched.

mod arrow;
mod card;
mod clusters;
mod registry;
mod repository;

pub use arrow::Arrow;
pub use card::Card;
pub use clusters::ClusterBox;

use crate::model::Model;
use clusters::cluster_box;
use gitops_core::Operation;
use gitops_world::cluster::Cluster;
use gitops_world::credentials::{Actor, Role};
use gitops_world::repository::PullRequestStatus;
use registry::{tags, Tag};
use repository::{branches, Branch, PullRequest};

/// The most cards a cluster shows; the rest are counted.
pub const MOST_CARDS: usize = 12;
/// The most commits of a branch shown, newest last.
pub const MOST_COMMITS: usize = 6;

#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub step: String,
    /// The actors outside the clusters (the agent is drawn in each cluster).
    pub actors: Vec<Actor>,
    pub branches: Vec<Branch>,
    pub pull_requests: Vec<PullRequest>,
    pub tags: Vec<Tag>,
    /// The registry holds every image asked for (no `registry:` list).
    pub open_registry: bool,
    pub clusters: Vec<ClusterBox>,
    pub arrows: Vec<Arrow>,
    /// The agent in the clusters, when one runs there (pull mode).
    pub agent: Option<AgentBadge>,
}

/// The agent's badge in each cluster: its tool, and how it acts, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentBadge {
    /// `Argo CD` or `Flux`.
    pub tool: &'static str,
    /// What it does and when (`it reconciles every 5 min`).
    pub pace: String,
}

impl AgentBadge {
    fn of(options: &gitops_world::scenario::WorldOptions) -> Self {
        let every = options.poll_every;
        let pace = match options.agent {
            gitops_core::options::Agent::ArgoCd => format!("it polls Git every {every} min, and its self-heal reverts drift at once"),
            gitops_core::options::Agent::Flux => format!("it reconciles every {every} min, and reverts drift only then"),
        };
        AgentBadge { tool: options.agent.tool(), pace }
    }
}

impl Model {
    /// The picture of the world as it is now.
    pub fn picture(&self) -> Picture {
        let world = &self.world;
        // What the last act applied, whoever applied it (the agent at a minute or
        // when a person asked, CI in push mode), until the person types.
        let typing = self.panes.pending.is_some();
        fn applied_unless(typing: bool, cluster: &Cluster) -> &[Operation] {
            match typing {
                true => &[],
                false => &cluster.applied,
            }
        }
        let applied = |cluster| applied_unless(typing, cluster);
        let clusters = world
            .clusters
            .iter()
            .map(|(environment, cluster)| {
                let current = *environment == self.environment;
                let actual = cluster.actual();
                let application = world.agent.as_ref().and_then(|agent| agent.applications.get(environment));
                let no_application = match application {
                    Some(application) if application.deleted => Some("no Application declares it"),
                    Some(application) if application.pending => Some("its Application waits for the root's wave"),
                    _ => None,
                };
                if no_application.is_some() {
                    // The agent compares nothing here: the cluster's objects, no plan on them.
                    let cluster_box = cluster_box(environment, current, None, actual, applied(cluster), world);
                    return ClusterBox { no_application, ..cluster_box };
                }
                match (current, &self.panes.report, &self.panes.desired.reads_as) {
                    (true, Some(report), Some(desired)) => cluster_box(
                        environment,
                        current,
                        Some((desired, report)),
                        actual,
                        applied(cluster),
                        world,
                    ),
                    _ => {
                        let desired = world.desired_state(environment).ok();
                        let compared = desired.as_ref().map(|desired| {
                            let options = world.reconcile_options(environment);
                            (
                                desired,
                                world
                                    .workspace
                                    .with(|workspace| workspace.report(desired, actual, &options)),
                            )
                        });
                        let compared = compared
                            .as_ref()
                            .map(|(desired, report)| (*desired, report));
                        cluster_box(environment, current, compared, actual, applied(cluster), world)
                    }
                }
            })
            .collect();
        Picture {
            step: self.world_position(),
            actors: world
                .actors()
                .into_iter()
                .filter(|actor| actor.role != Role::Agent)
                .collect(),
            branches: branches(world),
            pull_requests: world
                .repository
                .pull_requests()
                .iter()
                .map(|pull_request| PullRequest {
                    number: pull_request.number,
                    title: pull_request.title.clone(),
                    author: pull_request.author.clone(),
                    approvals: pull_request.approvals.clone(),
                    state: match pull_request.status {
                        PullRequestStatus::Open => "open",
                        PullRequestStatus::Merged => "merged",
                    },
                })
                .collect(),
            tags: tags(world),
            open_registry: world.registry.is_open(),
            clusters,
            arrows: world
                .events
                .iter()
                .filter(|event| event.step == world.step)
                .enumerate()
                .filter_map(|(index, event)| {
                    Some(Arrow {
                        number: index + 1,
                        actor: event.actor.clone(),
                        place: event.place.clone()?,
                        object: event.object.clone(),
                        what: event.what.clone(),
                        why: event.why.clone(),
                        credential: event.credential,
                        refused: event.refused,
                    })
                })
                .collect(),
            agent: world.agent.as_ref().map(|_| AgentBadge::of(&world.options)),
        }
    }
}
