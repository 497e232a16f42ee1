//! Pull requests: opened, revised, approved and merged, with the approval
//! that protected environments need.

use super::{touched_environments, Commit, FileChanges, Repository};
use gitops_core::Workspace;
use serde::Serialize;
use std::collections::BTreeSet;

impl Repository {
    pub fn pull_requests(&self) -> &[PullRequest] {
        &self.pull_requests
    }

    pub fn open_pull_request(
        &mut self,
        author: &str,
        title: &str,
        changes: FileChanges,
        step: u32,
    ) -> u32 {
        let number = self.pull_requests.len() as u32 + 1;
        self.pull_requests.push(PullRequest {
            number,
            author: author.into(),
            title: title.into(),
            step,
            changes,
            approvals: Vec::new(),
            status: PullRequestStatus::Open,
            merged_as: None,
        });
        number
    }

    fn pull_request_mut(&mut self, number: u32) -> Result<&mut PullRequest, String> {
        let pull_request = self
            .pull_requests
            .iter_mut()
            .find(|pull_request| pull_request.number == number)
            .ok_or_else(|| format!("there is no pull request #{number}"))?;
        match pull_request.status {
            PullRequestStatus::Open => Ok(pull_request),
            PullRequestStatus::Merged => Err(format!("pull request #{number} is already merged")),
        }
    }

    /// Replaces what an open pull request changes (a new push to its branch);
    /// approvals given to the earlier changes no longer count.
    pub fn revise_pull_request(&mut self, number: u32, changes: FileChanges) -> bool {
        match self.pull_request_mut(number) {
            Ok(pull_request) => {
                pull_request.changes = changes;
                pull_request.approvals.clear();
                true
            }
            Err(_) => false,
        }
    }

    pub fn approve(&mut self, number: u32, by: &str) -> Result<(), String> {
        let pull_request = self.pull_request_mut(number)?;
        if pull_request.author == by {
            return Err(format!(
                "{by} wrote pull request #{number} and cannot approve it"
            ));
        }
        if !pull_request.approvals.iter().any(|approver| approver == by) {
            pull_request.approvals.push(by.into());
        }
        Ok(())
    }

    /// The environments a pull request changes that need a review: those
    /// whose directory it changes, or a file their render reads (a shared
    /// base of their kustomization).
    fn protected_environments_of(&self, workspace: &mut Workspace, changes: &FileChanges) -> BTreeSet<String> {
        let before = &self.head().files;
        let after = changes.applied_to(before);
        let mut environments = touched_environments(workspace, before, &after, changes.paths(), &self.paths);
        environments.retain(|environment| {
            self.protected
                .iter()
                .any(|protected| protected == environment)
        });
        environments
    }

    pub fn merge(&mut self, workspace: &mut Workspace, number: u32, by: &str, step: u32) -> Result<&Commit, String> {
        let pull_request = self.pull_request_mut(number)?.clone();
        let protected = self.protected_environments_of(workspace, &pull_request.changes);
        let reviewed = pull_request
            .approvals
            .iter()
            .any(|approver| *approver != pull_request.author);
        if !protected.is_empty() && !reviewed {
            let environments: Vec<String> = protected.into_iter().collect();
            return Err(format!(
                "pull request #{number} changes {} and needs an approval by someone other than {}",
                environments.join(", "),
                pull_request.author
            ));
        }
        let message = format!("Merge pull request #{number}: {}", pull_request.title);
        let id = self
            .commit(by, &message, &pull_request.changes, step)
            .id
            .clone();
        let merged = self.pull_request_mut(number)?;
        merged.status = PullRequestStatus::Merged;
        merged.merged_as = Some(id);
        Ok(self.head())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PullRequestStatus {
    Open,
    Merged,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PullRequest {
    pub number: u32,
    pub author: String,
    pub title: String,
    pub step: u32,
    pub changes: FileChanges,
    pub approvals: Vec<String>,
    pub status: PullRequestStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_as: Option<String>,
}
