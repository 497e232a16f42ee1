//! The files the script's `set` edits: each in a commit of Git by the
//! step it happens at.

use crate::scenario::InitialRepository;
use crate::script::ScriptStep;
use gitops_core::error::InputError;
use std::collections::BTreeSet;

/// A `set` on a file that is in no commit of Git when it happens: not in the
/// first commit (of any branch), nor written by the script at or before its step.
pub(super) fn check_file_edits(
    source: &str,
    script: &[ScriptStep],
    repository: &InitialRepository,
) -> Result<(), InputError> {
    use crate::script::ScriptedAction;
    let first_commit = || {
        repository
            .files
            .keys()
            .chain(repository.branches.values().flat_map(|files| files.keys()))
    };
    let written_by = |step: u32| {
        script
            .iter()
            .filter(move |scripted| scripted.at <= step)
            .flat_map(|scripted| match &scripted.action {
                ScriptedAction::Commit { write, .. }
                | ScriptedAction::OpenPullRequest { write, .. } => Some(write.keys()),
                _ => None,
            })
            .flatten()
    };
    for (index, scripted) in script.iter().enumerate() {
        let (ScriptedAction::Commit { set, .. } | ScriptedAction::OpenPullRequest { set, .. }) =
            &scripted.action
        else {
            continue;
        };
        for (number, edit) in set.iter().enumerate() {
            let exists = first_commit()
                .chain(written_by(scripted.at))
                .any(|path| *path == edit.file);
            if exists {
                continue;
            }
            let files: BTreeSet<&String> = gitops_core::collect::set_of(first_commit());
            let listed = files
                .iter()
                .take(8)
                .map(|path| path.as_str())
                .collect::<Vec<_>>();
            let more = match files.len().saturating_sub(listed.len()) {
                0 => String::new(),
                more => format!(" and {more} more"),
            };
            return Err(InputError::shape(
                source,
                format!("/script/{index}/set/{number}/file"),
                format!(
                    "no commit has a file {} at minute {}: Git's first commit has {}{more}, and the \
                     script writes no such file before; name one of them, or `write` the file first",
                    edit.file,
                    scripted.at,
                    listed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}
