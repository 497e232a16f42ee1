use super::*;
use serde_json::json;
use serde_json::Value;

fn files(entries: &[(&str, Value)]) -> Files {
    entries
        .iter()
        .map(|(path, value)| (path.to_string(), value.clone()))
        .collect()
}

fn repository() -> Repository {
    Repository::new(
        "alice",
        "Initial state",
        files(&[
            ("envs/prod/web.json", json!({"web": {"image": "web:1"}})),
            ("envs/staging/web.json", json!({"web": {"image": "web:2"}})),
        ]),
        vec!["prod".into()],
    )
}

fn branches() -> Repository {
    let mut repo = repository();
    let web = |replicas: u32| {
        files(&[(
            "app/web.json",
            json!({"web": {"image": "web:1", "replicas": replicas}}),
        )])
    };
    repo.create_branch("prod", "alice", "Initial state", web(3), 0);
    repo.create_branch("staging", "alice", "Initial state", web(1), 0);
    repo
}

fn set(path: &str, value: Value) -> FileChanges {
    FileChanges {
        write: files(&[(path, value)]),
        remove: Vec::new(),
    }
}

#[test]
fn a_merge_keeps_both_sides_changes_and_carries_what_differs() {
    let mut repo = branches();
    repo.commit_on(
        "staging",
        "alice",
        "Release",
        &set(
            "app/web.json",
            json!({"web": {"image": "web:2", "replicas": 1}}),
        ),
        1,
    );
    repo.commit_on(
        "prod",
        "bob",
        "Label",
        &set(
            "app/web.json",
            json!({"web": {"image": "web:1", "replicas": 3, "team": "shop"}}),
        ),
        2,
    );
    repo.merge_branch("staging", "prod", "alice", 3).unwrap();
    let (head, prod) = repo.environment_files("prod", Layout::Branches);
    assert_eq!(head.message, "Merge branch staging into prod");
    assert_eq!(
        prod["envs/prod/web.json"],
        json!({"web": {"image": "web:2", "replicas": 1, "team": "shop"}})
    );
    assert_eq!(
        repo.log().next().map(|commit| commit.branch.as_deref()),
        Some(Some("prod"))
    );
}

#[test]
fn a_second_merge_brings_only_what_changed_since_the_first() {
    let mut repo = branches();
    repo.merge_branch("staging", "prod", "alice", 1).unwrap();
    repo.commit_on(
        "prod",
        "bob",
        "Scale prod back",
        &set(
            "app/web.json",
            json!({"web": {"image": "web:1", "replicas": 3}}),
        ),
        2,
    );
    repo.commit_on(
        "staging",
        "alice",
        "Release",
        &set(
            "app/web.json",
            json!({"web": {"image": "web:2", "replicas": 1}}),
        ),
        3,
    );
    repo.merge_branch("staging", "prod", "alice", 4).unwrap();
    let (_, prod) = repo.environment_files("prod", Layout::Branches);
    assert_eq!(
        prod["envs/prod/web.json"],
        json!({"web": {"image": "web:2", "replicas": 3}})
    );
    assert!(repo
        .merge_branch("nowhere", "prod", "alice", 5)
        .unwrap_err()
        .contains("no branch nowhere"));
}

#[test]
fn an_environment_without_a_branch_declares_nothing() {
    let repo = branches();
    assert!(repo.environment_files("qa", Layout::Branches).1.is_empty());
    assert_eq!(
        repo.environment_files("prod", Layout::Directories).1,
        repo.head().files
    );
}

#[test]
fn commits_have_stable_ids_and_a_log() {
    let mut repo = repository();
    let first = repo.head().id.clone();
    assert_eq!(
        first,
        repository().head().id,
        "the same content gives the same id"
    );
    let change = FileChanges {
        write: files(&[("envs/prod/web.json", json!({"web": {"image": "web:3"}}))]),
        ..FileChanges::default()
    };
    repo.commit("bob", "Bump web", &change, 2);
    let log: Vec<&str> = repo.log().map(|commit| commit.message.as_str()).collect();
    assert_eq!(log, ["Bump web", "Initial state"]);
    assert_eq!(repo.find("HEAD~1").unwrap().id, first);
    assert_eq!(repo.find(&first[..4]).unwrap().id, first);
}

#[test]
fn a_revert_puts_back_what_the_commit_changed() {
    let mut repo = repository();
    let before = repo.head().files.clone();
    let change = FileChanges {
        write: files(&[("envs/prod/web.json", json!({"web": {"image": "bad"}}))]),
        remove: vec!["envs/staging/web.json".into()],
    };
    repo.commit("bob", "Break things", &change, 1);
    let reverted = repo.revert("HEAD", "carol", 2).unwrap();
    assert_eq!(reverted.files, before);
    assert_eq!(reverted.message, "Revert \"Break things\"");
    assert!(repo
        .revert("HEAD~2", "carol", 3)
        .unwrap_err()
        .contains("first commit"));
}

#[test]
fn production_needs_a_review_by_someone_else() {
    let mut repo = repository();
    let change = FileChanges {
        write: files(&[("envs/prod/web.json", json!({"web": {"image": "web:2"}}))]),
        ..FileChanges::default()
    };
    let number = repo.open_pull_request("alice", "Promote web", change, 1);
    assert!(repo
        .merge(&mut gitops_core::Workspace::new(), number, "alice", 2)
        .unwrap_err()
        .contains("approval by someone other than alice"));
    assert!(repo
        .approve(number, "alice")
        .unwrap_err()
        .contains("cannot approve"));
    repo.approve(number, "bob").unwrap();
    let merged = repo.merge(&mut gitops_core::Workspace::new(), number, "alice", 3).unwrap().id.clone();
    assert_eq!(
        repo.pull_requests()[0].merged_as.as_deref(),
        Some(merged.as_str())
    );
    assert!(repo.merge(&mut gitops_core::Workspace::new(), number, "alice", 4).is_err(), "merged once");
}

#[test]
fn staging_needs_no_review() {
    let mut repo = repository();
    let change = FileChanges {
        write: files(&[("envs/staging/web.json", json!({"web": {"image": "web:4"}}))]),
        ..FileChanges::default()
    };
    let number = repo.open_pull_request("alice", "Try web 4", change, 1);
    assert!(repo.merge(&mut gitops_core::Workspace::new(), number, "alice", 2).is_ok());
}

#[test]
fn an_environment_is_its_directory() {
    let tree = files(&[
        (
            "envs/prod/a.json",
            json!([{"kind": "Service", "metadata": {"name": "a"}}]),
        ),
        (
            "envs/prod/b.yaml",
            json!("kind: Service\nmetadata:\n  name: b\n"),
        ),
        ("README.md", json!("# state")),
    ]);
    let keys: Vec<String> = desired_state(&mut gitops_core::Workspace::new(), &tree, "envs/prod")
        .unwrap()
        .objects()
        .keys()
        .map(|key| key.to_string())
        .collect();
    assert_eq!(keys, ["Service/default/a", "Service/default/b"]);
    assert_eq!(
        Paths::default()
            .environments(&tree)
            .into_iter()
            .collect::<Vec<_>>(),
        ["prod"]
    );
    let twice = files(&[
        ("envs/prod/a.json", json!({"web": {}})),
        ("envs/prod/b.json", json!({"web": {}})),
    ]);
    assert!(desired_state(&mut gitops_core::Workspace::new(), &twice, "envs/prod")
        .unwrap_err()
        .to_string()
        .contains("declared in envs/prod/a.json and again in envs/prod/b.json"));
    let broken = files(&[("envs/prod/a.yaml", json!("web: [1,"))]);
    assert_eq!(
        desired_state(&mut gitops_core::Workspace::new(), &broken, "envs/prod").unwrap_err().source,
        "envs/prod/a.yaml"
    );
}

#[test]
fn diffs_between_commits_and_environments() {
    let mut repo = repository();
    let change = FileChanges {
        write: files(&[(
            "envs/prod/web.json",
            json!({"web": {"image": "web:2"}, "db": {"image": "pg"}}),
        )]),
        ..FileChanges::default()
    };
    repo.commit("bob", "Promote", &change, 1);
    let diff = repo.diff_commits("HEAD~1", "HEAD").unwrap();
    assert_eq!(diff.keys().collect::<Vec<_>>(), ["prod"]);
    let kinds: Vec<(&str, &str)> = diff["prod"]
        .iter()
        .map(|d| (d.key.as_str(), d.change))
        .collect();
    assert_eq!(kinds, [("db", "added"), ("web", "changed")]);
    let between = repo.diff_environments("HEAD", "staging", "prod").unwrap();
    assert_eq!(
        between.iter().map(|d| d.key.as_str()).collect::<Vec<_>>(),
        ["db"],
        "staging and prod now run the same web"
    );
    assert!(repo.diff_commits("nope", "HEAD").is_err());
}

#[test]
fn diffs_show_each_object_field_by_field() {
    let repo = repository();
    let prod = desired_state(&mut gitops_core::Workspace::new(), &repo.head().files, "envs/prod").unwrap();
    let staging = desired_state(&mut gitops_core::Workspace::new(), &repo.head().files, "envs/staging").unwrap();
    let diff = diff_states(&prod, &staging);
    assert_eq!(diff.len(), 1);
    assert_eq!(diff[0].changes[0].path, "/image");
    assert_eq!(diff[0].changes[0].from, Some(json!("web:1")));
    assert_eq!(diff[0].changes[0].to, Some(json!("web:2")));
}

#[test]
fn a_file_diff_is_by_field_for_a_value_and_by_lines_for_text() {
    let before = files(&[
        (
            "envs/prod/kustomization.yaml",
            json!({"images": [{"name": "web", "newTag": "1"}]}),
        ),
        (
            "envs/prod/web.yaml",
            json!("kind: Deployment\nmetadata:\n  name: web\nspec: {}\n"),
        ),
        ("envs/prod/old.yaml", json!({})),
    ]);
    let after = files(&[
        (
            "envs/prod/kustomization.yaml",
            json!({"images": [{"name": "web", "newTag": "2"}]}),
        ),
        (
            "envs/prod/web.yaml",
            json!("kind: Deployment\nmetadata:\n  name: api\nspec: {}\n"),
        ),
        ("envs/prod/new.yaml", json!({})),
    ]);
    let diffs = diff_files(&before, &after);
    let summary: Vec<(&str, &str)> = diffs
        .iter()
        .map(|diff| (diff.path.as_str(), diff.change))
        .collect();
    assert_eq!(
        summary,
        [
            ("envs/prod/kustomization.yaml", "changed"),
            ("envs/prod/new.yaml", "added"),
            ("envs/prod/old.yaml", "removed"),
            ("envs/prod/web.yaml", "changed")
        ]
    );
    assert_eq!(diffs[0].changes[0].path, "/images/0/newTag");
    assert_eq!(diffs[3].lines.as_deref(), Some("-3,1 +3,1"));
    assert!(diff_files(&before, &before).is_empty());
}

/// The repository of `ids_of_earlier_builds`: commits on main and on a branch.
fn with_history() -> Repository {
    let mut repo = branches();
    repo.commit("bob", "Break things", &set("envs/prod/web.json", json!({"web": {"image": "bad", "text": "a\nb\"c"}})), 1);
    repo.commit_on("staging", "alice", "Release", &set("app/web.json", json!({"web": {"image": "web:2", "replicas": 1}})), 2);
    repo
}

#[test]
fn ids_are_short_hashes_of_parent_author_message_and_files() {
    let repo = with_history();
    let ids: Vec<&str> = repo.log().map(|commit| commit.id.as_str()).collect();
    assert_eq!(ids, ["b8658a3", "3bb252d", "a763f5e", "2a2451f", "423cf8e"]);
    let mut other = with_history();
    other.commit("bob", "Break things", &set("envs/prod/web.json", json!({"web": {"image": "bad", "text": "a\nb\"c "}})), 3);
    assert_ne!(other.head().id, repo.head().id, "one more character, another id");
}

#[test]
fn a_commit_is_found_by_the_id_an_earlier_build_gave_it() {
    // The ids these commits had with SHA-256 of the files' JSON, newest first.
    let earlier = ["a819f57", "5cc2434", "9c299ae", "ddc065c", "fd7105a"];
    let repo = with_history();
    for (commit, earlier) in repo.log().zip(earlier) {
        assert_eq!(repo.find(earlier).map(|found| &found.id), Some(&commit.id), "{earlier}");
        assert_eq!(repo.find(&earlier[..4]).map(|found| &found.id), Some(&commit.id), "{earlier}");
    }
    assert!(repo.find("0000000").is_none());
    assert!(repo.find("HEAD~9").is_none());
    let mut repo = repo;
    let reverted = repo.revert("5cc2434", "carol", 3).unwrap();
    assert_eq!(reverted.message, "Revert \"Break things\"");
    assert_eq!(reverted.files, repository().head().files);
}
