//! The picture of the world, as the page draws it: the actors and what
//! they hold, the state repository with its commits and pull requests, the
//! registry's tags, each environment's cluster as cards of its objects
//! (Argo CD's resource tree: kind, name, sync and health), and this step's
//! acts as arrows from who acted to what it touched.

use crate::model::Model;
use gitops_core::collect::{set_of, sort_by};
use gitops_core::diff::changes::Change;
use gitops_core::health::Health;
use gitops_core::pointer::unescape;
use gitops_core::report::{Report, SyncStatus};
use gitops_core::state::protection::prune_protection;
use gitops_core::sync::order::{kind_rank_of, wave};
use gitops_core::sync::plan::Operation;
use gitops_core::State;
use gitops_world::credentials::{Actor, Role};
use gitops_world::event::Place;
use gitops_world::repository::PullRequestStatus;
use gitops_world::World;

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
    /// Whether the agent runs in the clusters (pull mode).
    pub agent: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    pub name: String,
    /// Its last commits, oldest first.
    pub commits: Vec<Commit>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Commit {
    pub id: String,
    pub author: String,
    pub message: String,
    /// Made at the step on screen.
    pub new: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PullRequest {
    pub number: u32,
    pub title: String,
    pub author: String,
    pub approvals: Vec<String>,
    pub state: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tag {
    pub tag: String,
    pub digest: String,
    /// The digest it pointed to before it was pushed again at this step.
    pub moved_from: Option<String>,
    pub malicious: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClusterBox {
    pub environment: String,
    /// The environment the panes show.
    pub current: bool,
    pub cards: Vec<Card>,
    /// Cards not shown.
    pub more: usize,
}

/// One object, as Argo CD's resource tree draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub key: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    /// `Synced`, `OutOfSync`, or `Missing` (in Git, not yet in the cluster).
    pub sync: &'static str,
    pub health: Option<Health>,
    pub wave: i64,
    /// What the plan does to it: `create`, `update`, `delete` or `skip`.
    pub operation: Option<&'static str>,
    /// Its operation's place in the plan, from 1: the order a sync runs (waves first).
    pub order: Option<usize>,
    /// The plan's next operation (Step applies it).
    pub next: bool,
    /// The operation Step just applied to it.
    pub just_done: Option<&'static str>,
    /// Why prune leaves it (Prune=false, Flux's prune: disabled), or why a
    /// skip keeps it.
    pub protected: Option<String>,
    /// Not in Git: only in the cluster.
    pub extra: bool,
    /// Fields the ignore rules leave out of the comparison.
    pub ignored: bool,
    /// The fields its update changes (or changed, when Step just applied it).
    pub fields: Vec<String>,
    /// Deleted by the Step just applied: drawn once more, fading.
    pub gone: bool,
    /// In the cluster but not the application's (no tracking id of its own):
    /// neither drift nor pruned.
    pub unmanaged: bool,
}

/// One act of this step: who, on what, with which credential.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrow {
    /// Its event's place in the step's list of events, from 1.
    pub number: usize,
    pub actor: String,
    pub place: Place,
    pub what: String,
    pub why: String,
    pub credential: Option<&'static str>,
    pub refused: bool,
}

impl Arrow {
    /// What a screen reader says of it.
    pub fn label(&self) -> String {
        let target = place_name(&self.place);
        let with = self
            .credential
            .map(|credential| format!(", with {credential}"))
            .unwrap_or_default();
        match self.refused {
            true => format!(
                "{} → {target}, refused: {}; {}",
                self.actor, self.what, self.why
            ),
            false => format!("{} → {target}: {}{with}", self.actor, self.what),
        }
    }
}

pub fn place_name(place: &Place) -> String {
    match place {
        Place::Git => "Git".to_string(),
        Place::Registry => "the registry".to_string(),
        Place::Cluster(environment) => format!("cluster {environment}"),
    }
}

impl Card {
    /// The card of an object compared with nothing.
    fn of(key: &str, object: &serde_json::Value) -> Card {
        let (kind, namespace, name) = split_key(key);
        Card {
            key: key.to_string(),
            kind,
            namespace,
            name,
            sync: "Unknown",
            health: None,
            wave: wave(object),
            operation: None,
            order: None,
            next: false,
            just_done: None,
            protected: prune_protection(object),
            extra: false,
            ignored: false,
            fields: Vec::new(),
            gone: false,
            unmanaged: false,
        }
    }

    /// What a screen reader says of it, and the card's tooltip.
    pub fn label(&self) -> String {
        let what = format!("{} {}", self.kind, self.place());
        let mut parts = vec![what.trim_start().to_string()];
        if !self.unmanaged {
            parts.push(self.sync.to_string());
        }
        parts.extend(self.health.map(|health| health.to_string()));
        parts.push(format!("wave {}", self.wave));
        if self.gone {
            parts.push("deleted by the last Step".to_string());
        } else if let Some(operation) = self.operation {
            let order = self
                .order
                .map(|order| format!(" (operation {order} of the plan)"))
                .unwrap_or_default();
            parts.push(match self.next {
                true => format!("next: {operation}{order}"),
                false => format!("plan: {operation}{order}"),
            });
        } else if let Some(done) = self.just_done {
            parts.push(format!("{done} applied by the last Step"));
        }
        if !self.fields.is_empty() {
            parts.push(format!("changes {}", self.fields.join(", ")));
        }
        parts.extend(self.protected.clone());
        if self.extra {
            parts.push("not in Git".to_string());
        }
        if self.ignored {
            parts.push("some fields ignored".to_string());
        }
        if self.unmanaged {
            parts.push("not managed by the application".to_string());
        }
        parts.join(", ")
    }

    /// `namespace/name`, or the name alone.
    pub fn place(&self) -> String {
        match self.namespace.is_empty() {
            true => self.name.clone(),
            false => format!("{}/{}", self.namespace, self.name),
        }
    }
}

impl Model {
    /// The picture of the world as it is now.
    pub fn picture(&self) -> Picture {
        let world = &self.world;
        let clusters = world
            .clusters
            .iter()
            .map(|(environment, cluster)| {
                let current = *environment == self.environment;
                let actual = cluster.actual();
                match (current, &self.report, &self.desired.reads_as) {
                    (true, Some(report), Some(desired)) => cluster_box(
                        environment,
                        current,
                        Some((desired, report)),
                        actual,
                        &self.done,
                        world,
                    ),
                    _ => {
                        let desired = world.desired_state(environment).ok();
                        let compared = desired.as_ref().map(|desired| {
                            let options = world.options.reconcile();
                            (desired, world.workspace.with(|workspace| workspace.report(desired, actual, &options)))
                        });
                        let compared = compared
                            .as_ref()
                            .map(|(desired, report)| (*desired, report));
                        cluster_box(environment, current, compared, actual, &[], world)
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
                        what: event.what.clone(),
                        why: event.why.clone(),
                        credential: event.credential,
                        refused: event.refused,
                    })
                })
                .collect(),
            agent: world.agent.is_some(),
        }
    }
}

fn cluster_box(
    environment: &str,
    current: bool,
    compared: Option<(&State, &Report)>,
    actual: &State,
    done: &[Operation],
    world: &World,
) -> ClusterBox {
    let ignore = &world.options.ignore;
    let Some((desired, report)) = compared else {
        // Git does not read: the cluster's objects, compared with nothing.
        let mut cards: Vec<Card> = actual
            .objects()
            .iter()
            .map(|(key, object)| Card::of(key, object.value()))
            .collect();
        let more = cards.len().saturating_sub(MOST_CARDS);
        cards.truncate(MOST_CARDS);
        return ClusterBox {
            environment: environment.to_string(),
            current,
            cards,
            more,
        };
    };
    // The plan's first operations (the next one among them), then as many of the
    // other objects as there is room for: the picture costs the same at any size.
    let planned = set_of(
        report
            .plan
            .iter()
            .take(MOST_CARDS)
            .map(|operation| operation.key()),
    );
    let mut room = MOST_CARDS - planned.len();
    let shown: Vec<_> = report
        .objects
        .iter()
        .filter(|object| {
            planned.contains(&*object.key) || room.checked_sub(1).map(|left| room = left).is_some()
        })
        .collect();
    // The cluster's objects that are not the application's, where there is room.
    let unmanaged: Vec<Card> = actual
        .objects()
        .iter()
        .filter(|(key, _)| report.objects.iter().all(|object| object.key != **key))
        .take(room)
        .map(|(key, object)| Card {
            sync: "—",
            unmanaged: true,
            ..Card::of(key, object.value())
        })
        .collect();
    let more = report.objects.len() - shown.len();
    let mut cards: Vec<Card> = shown
        .into_iter()
        .map(|object| {
            let key = object.key.to_string();
            let order = report
                .plan
                .iter()
                .position(|operation| operation.key() == key);
            let operation = order.map(|index| &report.plan[index]);
            let just_done = done
                .last()
                .filter(|last| last.key() == key)
                .map(Operation::verb);
            let fields = match (operation, done.last()) {
                (Some(Operation::Update { changes, .. }), _) => field_names(changes),
                (_, Some(Operation::Update { changes, .. })) if just_done.is_some() => {
                    field_names(changes)
                }
                _ => Vec::new(),
            };
            let in_git = desired.get(&key);
            let live = actual.get(&key);
            let shown = in_git.or(live);
            let card = shown.map_or_else(
                || Card::of(&key, &serde_json::Value::Null),
                |shown| Card::of(&key, shown),
            );
            Card {
                sync: match (object.sync, live) {
                    (_, None) => "Missing",
                    (SyncStatus::Synced, _) => "Synced",
                    _ => "OutOfSync",
                },
                health: object.health,
                wave: operation.map_or(card.wave, Operation::wave),
                operation: operation.map(Operation::verb),
                order: order.map(|index| index + 1),
                just_done,
                fields,
                protected: match operation {
                    Some(Operation::Skip { reason, .. }) => Some(reason.clone()),
                    _ => live.and_then(prune_protection),
                },
                extra: in_git.is_none(),
                ignored: shown
                    .is_some_and(|object| ignore.iter().any(|rule| rule.selects(&key, object))),
                ..card
            }
        })
        .collect();
    let next = report
        .plan
        .iter()
        .find(|operation| operation.changes_cluster());
    for card in &mut cards {
        card.next = next.is_some_and(|next| next.key() == card.key);
    }
    cards.extend(unmanaged);
    if let Some(Operation::Delete { key, wave, .. }) = done.last() {
        if !cards.iter().any(|card| card.key == *key) {
            cards.push(Card {
                sync: "Deleted",
                wave: *wave,
                just_done: Some("delete"),
                gone: true,
                ..Card::of(key, &serde_json::Value::Null)
            });
        }
    }
    // As a sync orders them (waves, then kinds, then names: `sort_key`), so
    // that cards keep their places while Step runs the plan along them.
    sort_by(&mut cards, |a, b| place(a).cmp(&place(b)));
    ClusterBox {
        environment: environment.to_string(),
        current,
        cards,
        more,
    }
}

/// Where a card stands: as a sync runs it (`sync::order::sort_key`).
fn place(card: &Card) -> (i64, usize, &str) {
    (card.wave, kind_rank_of(&card.kind), &card.name)
}

/// Each changed field by its last name, with the values when both are short
/// scalars: `replicas 3 → 5`, `image`.
fn field_names(changes: &[Change]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for change in changes {
        let segment = change
            .path
            .rsplit('/')
            .find(|segment| !segment.is_empty() && !segment.bytes().all(|b| b.is_ascii_digit()))
            .unwrap_or(&change.path);
        let name = unescape(segment).unwrap_or_else(|| segment.to_string());
        let scalar = |value: &Option<serde_json::Value>| match value {
            Some(value @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_))) => {
                Some(value.to_string())
            }
            Some(serde_json::Value::String(text)) if text.len() <= 12 => Some(text.clone()),
            _ => None,
        };
        let shown = match (scalar(&change.from), scalar(&change.to)) {
            (Some(from), Some(to)) if changes.len() == 1 => format!("{name} {from} → {to}"),
            _ => name,
        };
        if !names.contains(&shown) {
            names.push(shown);
        }
    }
    names
}

/// `Kind/namespace/name`, `Kind/name` (cluster-scoped) or a named object's name.
fn split_key(key: &str) -> (String, String, String) {
    let parts: Vec<&str> = key.splitn(3, '/').collect();
    match parts.as_slice() {
        [kind, namespace, name] => (kind.to_string(), namespace.to_string(), name.to_string()),
        [kind, name] => (kind.to_string(), String::new(), name.to_string()),
        _ => (String::new(), String::new(), key.to_string()),
    }
}

fn branches(world: &World) -> Vec<Branch> {
    let of = |name: &str, commits: Vec<&gitops_world::repository::Commit>| {
        let skip = commits.len().saturating_sub(MOST_COMMITS);
        Branch {
            name: name.to_string(),
            commits: commits
                .into_iter()
                .skip(skip)
                .map(|commit| Commit {
                    id: commit.id.clone(),
                    author: commit.author.clone(),
                    message: commit.message.clone(),
                    new: world.started && commit.step == world.step,
                })
                .collect(),
        }
    };
    let mut main: Vec<_> = world
        .repository
        .log()
        .filter(|commit| commit.branch.is_none())
        .collect();
    main.reverse();
    let mut branches = vec![of("main", main)];
    for (name, commits) in world.repository.branches() {
        branches.push(of(name, commits.iter().collect()));
    }
    branches
}

fn tags(world: &World) -> Vec<Tag> {
    world
        .registry
        .tags()
        .iter()
        .map(|(tag, digest)| {
            let pushes: Vec<_> = world
                .registry
                .images()
                .filter(|image| image.pushed_as == *tag)
                .collect();
            let image = world
                .registry
                .images()
                .find(|image| image.digest == *digest);
            let moved_from = match pushes.as_slice() {
                [.., before, last]
                    if world.started && last.step == world.step && before.digest != *digest =>
                {
                    Some(gitops_world::registry::short(&before.digest))
                }
                _ => None,
            };
            Tag {
                tag: tag.clone(),
                digest: gitops_world::registry::short(digest),
                moved_from,
                malicious: image.is_some_and(|image| image.malicious),
            }
        })
        .collect()
}
