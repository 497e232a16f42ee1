//! The picture's middle column: Git's branches, their commits and the pull
//! requests, then the registry's tags.

use super::markup::{escape, shorten, shorten_start, text};
use super::{Boxes, Layout, GAP};
use gitops_page::{Picture, MOST_COMMITS};
use std::fmt::Write;

const MOST_PULL_REQUESTS: usize = 4;
const MOST_TAGS: usize = 6;

/// Git's branches and pull requests, then the registry's tags; the height they take.
pub(super) fn repository(
    out: &mut String,
    picture: &Picture,
    boxes: &mut Boxes,
    layout: &Layout,
    top: i32,
) -> i32 {
    let (git_x, git_w) = layout.git;
    let commit_gap = 44.min((git_w - 108) / (MOST_COMMITS as i32 - 1));
    let pull_requests = picture.pull_requests.len().min(MOST_PULL_REQUESTS) as i32;
    let height = 34 + 30 * picture.branches.len() as i32 + 18 * pull_requests;
    boxes.git = top;
    let _ = write!(
        out,
        r#"<g class="git" role="group" aria-label="Git: the state repository"><rect x="{git_x}" y="{top}" width="{git_w}" height="{height}" rx="6"/>"#
    );
    text(out, git_x + 10, top + 18, "name", "Git: state repository");
    for (lane, branch) in picture.branches.iter().enumerate() {
        let y = top + 42 + 30 * lane as i32;
        out.push_str(r#"<g class="branch">"#);
        text(out, git_x + 10, y + 4, "held", &branch.name);
        let _ = write!(
            out,
            r#"<line x1="{}" x2="{}" y1="{y}" y2="{y}"/>"#,
            git_x + 80,
            git_x + git_w - 16
        );
        for (index, commit) in branch.commits.iter().enumerate() {
            let x = git_x + 92 + commit_gap * index as i32;
            let label = escape(&format!(
                "commit {} on {} by {}: {}",
                commit.id, branch.name, commit.author, commit.message
            ));
            let new = if commit.new { " new" } else { "" };
            let _ = write!(
                out,
                r#"<g class="commit{new}" role="img" aria-label="{label}"><title>{label}</title><circle cx="{x}" cy="{y}" r="7"/>"#
            );
            text(
                out,
                x,
                y + 20,
                "id",
                &commit.id.chars().take(5).collect::<String>(),
            );
            out.push_str("</g>");
        }
        out.push_str("</g>");
    }
    let first_row = top + 46 + 30 * picture.branches.len() as i32;
    for (index, pull_request) in picture
        .pull_requests
        .iter()
        .rev()
        .take(MOST_PULL_REQUESTS)
        .enumerate()
    {
        let approvals = match pull_request.approvals.as_slice() {
            [] => "no approval".to_string(),
            people => format!("approved by {}", people.join(", ")),
        };
        let label = format!(
            "pull request #{} by {}, {}: {}, {approvals}",
            pull_request.number, pull_request.author, pull_request.state, pull_request.title
        );
        let review = if pull_request.approvals.is_empty() {
            "✗ review"
        } else {
            "✓ review"
        };
        let _ = write!(
            out,
            r#"<g class="pull-request {}" role="img" aria-label="{}">"#,
            pull_request.state,
            escape(&label)
        );
        let shown = format!(
            "PR #{} {} · {} · {review}",
            pull_request.number,
            shorten(&pull_request.title, 26),
            pull_request.state
        );
        text(
            out,
            git_x + 10,
            first_row + 18 * index as i32,
            "held",
            &shown,
        );
        out.push_str("</g>");
    }
    out.push_str("</g>");

    let top = top + height + 24;
    boxes.registry = top;
    let height = 30 + 18 * picture.tags.len().clamp(1, MOST_TAGS) as i32;
    let _ = write!(
        out,
        r#"<g class="registry" role="group" aria-label="The image registry"><rect x="{git_x}" y="{top}" width="{git_w}" height="{height}" rx="6"/>"#
    );
    text(out, git_x + 10, top + 18, "name", "Registry");
    if picture.tags.is_empty() {
        let held = match picture.open_registry {
            true => "every image asked for (no registry list)",
            false => "no images",
        };
        text(out, git_x + 18, top + 38, "held", held);
    }
    for (index, tag) in picture.tags.iter().take(MOST_TAGS).enumerate() {
        let moved = tag
            .moved_from
            .as_ref()
            .map(|before| format!(" (moved from {before})"))
            .unwrap_or_default();
        let malicious = if tag.malicious {
            ", a malicious image"
        } else {
            ""
        };
        let label = format!("tag {} points to {}{moved}{malicious}", tag.tag, tag.digest);
        let class = match (tag.moved_from.is_some(), tag.malicious) {
            (true, _) => "tag moved",
            (false, true) => "tag malicious",
            (false, false) => "tag",
        };
        let _ = write!(
            out,
            r#"<g class="{class}" role="img" aria-label="{}">"#,
            escape(&label)
        );
        let mark = if tag.moved_from.is_some() {
            " ⟲ moved"
        } else {
            ""
        };
        text(
            out,
            git_x + 18,
            top + 38 + 18 * index as i32,
            "held",
            &format!("{} → {}{mark}", shorten_start(&tag.tag, 26), tag.digest),
        );
        out.push_str("</g>");
    }
    out.push_str("</g>");
    top + height + GAP
}
