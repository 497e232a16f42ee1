//! The files of Git shown beside the Desired pane: the environment's directory and
//! what its kustomization reads from elsewhere, each as its text.

mod common;

use common::{opened, with_preset};
use gitops_page::{Action, GitFile, Pane};

fn paths(files: &[GitFile]) -> Vec<(&str, bool)> {
    files.iter().map(|file| (file.path.as_str(), file.in_directory)).collect()
}

#[test]
fn an_overlay_shows_its_kustomization_and_the_base_it_reads() {
    let model = with_preset("kustomize-overlays.yaml");
    let shown = model.git_files();
    let directory = format!("envs/{}", model.environment);
    assert!(shown.kustomized);
    assert_eq!(shown.source, directory);
    assert_eq!(
        paths(&shown.files),
        [
            (format!("{directory}/kustomization.yaml").as_str(), true),
            (format!("{directory}/memory.yaml").as_str(), true),
            ("base/deployment.yaml", false),
            ("base/kustomization.yaml", false),
            ("base/service.yaml", false),
        ]
    );
    assert!(shown.files[0].text.contains("resources:"), "{}", shown.files[0].text);
    assert!(shown.files[1].text.contains("kind: Deployment"), "the overlay's patch: {}", shown.files[1].text);
    assert!(shown.files[3].text.contains("- deployment.yaml"), "values written as YAML: {}", shown.files[2].text);
}

#[test]
fn the_worked_example_shows_its_one_file_and_a_commit_changes_it() {
    let mut model = opened();
    let before = model.git_files();
    assert!(!before.kustomized);
    assert_eq!(paths(&before.files), [("envs/prod/manifests.json", true)]);
    assert!(before.files[0].text.starts_with('{'), "a .json file's values as JSON");
    let typed = model.panes.desired.text.replace("\"replicas\": 3", "\"replicas\": 4");
    model.act(Action::Edit(Pane::Desired, typed.as_str().into()));
    model.act(Action::Settle);
    assert_eq!(model.git_files(), before, "a working copy is not in Git");
    model.act(Action::Commit);
    let after = model.git_files();
    assert_ne!(after.commit, before.commit);
    assert_eq!(after.files[0].text, typed, "the file holds the text committed");
}
