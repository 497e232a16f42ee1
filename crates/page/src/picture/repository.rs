//! The state repository as the picture shows it: each branch's last commits,
//! and the pull requests.

use super::MOST_COMMITS;
use gitops_world::World;

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

pub(super) fn branches(world: &World) -> Vec<Branch> {
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
