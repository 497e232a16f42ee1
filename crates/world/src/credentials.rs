//! Who holds which credential, and which one each act uses. Push against
//! pull is a change of who holds what: in push mode CI holds credentials
//! for every cluster; in pull mode only the agent inside each cluster
//! writes to it, and all it holds outside is read access to Git.

use crate::event::{Event, Place};
use crate::person::YOU;
use crate::scenario::Mode;
use crate::script::ScriptedAction;
use crate::World;

/// The name CI acts under, in the script and in events.
pub const CI: &str = "ci";

pub const GIT_WRITE: &str = "Git: write";
pub const GIT_PULL_REQUESTS: &str = "Git: open pull requests";
pub const GIT_REVIEW: &str = "Git: review";
pub const GIT_READ: &str = "Git: read";
pub const REGISTRY_PUSH: &str = "registry: push";
pub const CLUSTER_WRITE: &str = "cluster: write";
/// The right to ask the agent for a sync (Argo CD's RBAC `applications, sync`),
/// which the agent then runs with its own credentials.
pub const SYNC: &str = "agent: sync";

/// What an actor is, for what it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Person,
    Ci,
    /// A bot that opens pull requests (an image updater).
    Bot,
    Agent,
}

/// An actor of the world and the credentials it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub name: String,
    pub role: Role,
    pub holds: Vec<&'static str>,
}

impl ScriptedAction {
    /// Who does it, when a named actor does.
    pub fn actor(&self) -> Option<&str> {
        match self {
            ScriptedAction::Commit { author, .. }
            | ScriptedAction::Revert { author, .. }
            | ScriptedAction::OpenPullRequest { author, .. }
            | ScriptedAction::Promote { author, .. } => Some(author),
            ScriptedAction::MergeBranch { by, .. }
            | ScriptedAction::Approve { by, .. }
            | ScriptedAction::Merge { by, .. }
            | ScriptedAction::PushImage { by, .. }
            | ScriptedAction::EditCluster { by, .. }
            | ScriptedAction::Sync { by, .. }
            | ScriptedAction::SetCluster { by, .. }
            | ScriptedAction::ApplyNext { by, .. }
            | ScriptedAction::ConfirmPrune { by, .. }
            | ScriptedAction::UpdateImage { by, .. } => Some(by),
            ScriptedAction::CiApply { .. } => Some(CI),
            ScriptedAction::Restart { .. }
            | ScriptedAction::StopAgent
            | ScriptedAction::StartAgent
            | ScriptedAction::RevokeAccess
            | ScriptedAction::RestoreAccess
            | ScriptedAction::LoseCluster { .. }
            | ScriptedAction::SetController { .. } => None,
        }
    }

    /// The credential the action uses; none for what needs none, and for
    /// CI's apply in pull mode, where it holds none for the cluster.
    pub fn credential(&self, mode: Mode) -> Option<&'static str> {
        match self {
            ScriptedAction::Commit { .. }
            | ScriptedAction::Revert { .. }
            | ScriptedAction::MergeBranch { .. }
            | ScriptedAction::Merge { .. } => Some(GIT_WRITE),
            ScriptedAction::OpenPullRequest { .. }
            | ScriptedAction::Promote { .. }
            | ScriptedAction::UpdateImage { .. } => Some(GIT_PULL_REQUESTS),
            ScriptedAction::Approve { .. } => Some(GIT_REVIEW),
            ScriptedAction::PushImage { .. } => Some(REGISTRY_PUSH),
            ScriptedAction::EditCluster { .. } | ScriptedAction::SetCluster { .. } => Some(CLUSTER_WRITE),
            ScriptedAction::CiApply { .. } => (mode == Mode::Push).then_some(CLUSTER_WRITE),
            // Step asks the agent; with no agent (push mode), the person applies it.
            ScriptedAction::ApplyNext { .. } if mode == Mode::Push => Some(CLUSTER_WRITE),
            ScriptedAction::ApplyNext { .. } | ScriptedAction::ConfirmPrune { .. } | ScriptedAction::Sync { .. } => {
                Some(SYNC)
            }
            ScriptedAction::Restart { .. }
            | ScriptedAction::StopAgent
            | ScriptedAction::StartAgent
            | ScriptedAction::RevokeAccess
            | ScriptedAction::RestoreAccess
            | ScriptedAction::LoseCluster { .. }
            | ScriptedAction::SetController { .. } => None,
        }
    }
}

/// The credential the agent or CI used for an event of its own at `place`.
pub(crate) fn used_by(actor: &str, place: &Place) -> Option<&'static str> {
    match (actor, place) {
        ("agent", Place::Git) => Some(GIT_READ),
        ("agent" | "ci", Place::Cluster(_)) => Some(CLUSTER_WRITE),
        _ => None,
    }
}

/// Names the credential an event that acted on a place used: the one its
/// action uses, else the actor's own (`used_by`); none when it was refused.
pub(crate) fn name_credential(event: &mut Event, action: Option<&ScriptedAction>, mode: Mode) {
    if event.credential.is_some() || event.refused {
        return;
    }
    event.credential = match (&event.place, action) {
        (Some(_), Some(action)) => action.credential(mode),
        (Some(place), None) => used_by(&event.actor, place),
        (None, _) => None,
    };
}

impl World {
    /// The actors of this world, each with what it holds: you, the people
    /// of the script in the order they first act, CI, the bots, and the
    /// agent (in pull mode). A scripted actor holds what its actions use
    /// (an attacker, what it stole); CI holds a registry token, and in
    /// push mode credentials for every cluster.
    pub fn actors(&self) -> Vec<Actor> {
        let mode = self.options.mode;
        let mut people = vec![Actor {
            name: YOU.to_string(),
            role: Role::Person,
            holds: match self.agent.is_some() {
                true => vec![GIT_WRITE, CLUSTER_WRITE, SYNC],
                false => vec![GIT_WRITE, CLUSTER_WRITE],
            },
        }];
        let mut bots = Vec::new();
        let mut ci = (mode == Mode::Push).then(|| ci_actor(mode));
        for scripted in &self.script {
            let action = &scripted.action;
            let Some(name) = action.actor() else { continue };
            let actor = match (name, action) {
                (CI, _) => ci.get_or_insert_with(|| ci_actor(mode)),
                (_, ScriptedAction::UpdateImage { .. }) => named(&mut bots, name, Role::Bot),
                _ => named(&mut people, name, Role::Person),
            };
            if let Some(credential) = action.credential(mode) {
                if !actor.holds.contains(&credential) {
                    actor.holds.push(credential);
                }
            }
        }
        people.extend(ci);
        people.extend(bots);
        if self.agent.is_some() {
            people.push(Actor {
                name: "agent".to_string(),
                role: Role::Agent,
                holds: vec![GIT_READ, CLUSTER_WRITE],
            });
        }
        people
    }
}

/// The actor of this name among `actors`, added with `role` if it is not there yet.
fn named<'a>(actors: &'a mut Vec<Actor>, name: &str, role: Role) -> &'a mut Actor {
    let index = match actors.iter().position(|actor| actor.name == name) {
        Some(index) => index,
        None => {
            actors.push(Actor {
                name: name.to_string(),
                role,
                holds: Vec::new(),
            });
            actors.len() - 1
        }
    };
    &mut actors[index]
}

fn ci_actor(mode: Mode) -> Actor {
    let mut holds = vec![REGISTRY_PUSH];
    if mode == Mode::Push {
        holds.push(CLUSTER_WRITE);
    }
    Actor {
        name: CI.to_string(),
        role: Role::Ci,
        holds,
    }
}
