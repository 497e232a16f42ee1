//! The docs as a newcomer meets them: README is a front page, short, and every
//! link of README and `docs/` leads somewhere: a file of the repository, and,
//! where the link names a heading (`#...`), that heading, as GitHub makes its
//! anchor.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// README stays a front page: what the playground is, the two commands, the
/// three ways to use it and where to read on.
const README_MOST_LINES: usize = 250;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let docs = fs::read_dir(root().join("docs")).expect("docs/ is there");
    pages.extend(
        docs.map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.extension().is_some_and(|extension| extension == "md")),
    );
    pages.sort();
    pages
}

/// The lines of a page outside its code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut in_code = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                return false;
            }
            !in_code
        })
        .collect()
}

/// The targets of the Markdown links (and images) on a line: `[text](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or_default();
        targets.push(target.to_string());
        rest = &after[end..];
    }
    targets
}

/// GitHub's anchor of a heading: lower case, spaces as hyphens, and every
/// character but letters, digits, hyphens and underscores left out.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|character| match character {
            ' ' => Some('-'),
            '-' | '_' => Some(character),
            _ if character.is_alphanumeric() => Some(character),
            _ => None,
        })
        .collect()
}

fn anchors(page: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(page).unwrap_or_default();
    prose(&text)
        .into_iter()
        .filter_map(|line| line.trim_start_matches('#').strip_prefix(' ').filter(|_| line.starts_with('#')))
        .map(anchor)
        .collect()
}

#[test]
fn readme_is_a_front_page() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(lines <= README_MOST_LINES, "README has {lines} lines, over {README_MOST_LINES}");
    let first_code = readme.split("```").nth(1).expect("a code block");
    assert!(
        first_code.contains("./scripts/serve") && first_code.contains("./scripts/test"),
        "README starts with its two commands"
    );
}

#[test]
fn every_link_of_the_docs_leads_somewhere() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).expect("a page reads");
        for target in prose(&text).into_iter().flat_map(link_targets) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, heading) = target.split_once('#').unwrap_or((&target, ""));
            let file = match file {
                "" => page.clone(),
                file => page.parent().expect("a page's folder").join(file),
            };
            if !file.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
            } else if !heading.is_empty() && !anchors(&file).contains(heading) {
                broken.push(format!("{}: {target} (no such heading)", page.display()));
            }
        }
    }
    assert!(checked >= 10, "the docs link to each other ({checked} links)");
    assert_eq!(broken, Vec::<String>::new());
}

#[test]
fn headings_make_githubs_anchors() {
    assert_eq!(anchor("What the API server refuses"), "what-the-api-server-refuses");
    assert_eq!(anchor("`gitops-sim`: the core on the command line"), "gitops-sim-the-core-on-the-command-line");
    assert_eq!(link_targets("[a](docs/a.md) and ![b](b.png \"title\")"), ["docs/a.md", "b.png"]);
}
