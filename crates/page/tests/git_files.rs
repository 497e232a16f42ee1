//! The files of Git shown beside the Desired pane: the environment's directory and
//! what its kustomization reads from elsewhere, each as its text.

mod common;

use common::{commits, opened, with_preset};
use gitops_page::{Action, GitFile, Model, Pane};

fn paths(files: &[GitFile]) -> Vec<(&str, bool)> {
    files.iter().map(|file| (file.path.as_str(), file.in_directory)).collect()
}

#[test]
fn an_overlay_shows_its_kustomization_and_the_base_it_reads() {
    let model = with_preset("kustomize-overlays.yaml");
    let shown = model.git_files();
    let directory = format!("envs/{}", model.environment);
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
    assert_eq!(shown.source, directory);
    assert!(shown.files[0].text.contains("resources:"), "{}", shown.files[0].text);
    assert!(shown.files[1].text.contains("kind: Deployment"), "the overlay's patch: {}", shown.files[1].text);
    assert!(shown.files[3].text.contains("- deployment.yaml"), "values written as YAML: {}", shown.files[2].text);
}

#[test]
fn the_worked_example_shows_its_one_file_and_a_commit_changes_it() {
    let mut model = opened();
    let before = model.git_files();
    assert_eq!(paths(&before.files), [("envs/prod/manifests.json", true)]);
    assert!(before.files[0].text.starts_with('{'), "a .json file's values as JSON");
    let typed = model.panes.desired.text.replace("\"replicas\": 3", "\"replicas\": 4");
    model.act(Action::Edit(Pane::Desired, typed.as_str().into()));
    model.act(Action::Settle);
    let during = model.git_files();
    assert_eq!((&during.files, &during.commit), (&before.files, &before.commit), "a working copy of the render is not in Git");
    assert!(before.editable && !during.editable, "one working copy at a time: the render's, then the files' only once committed");
    model.act(Action::Commit);
    let after = model.git_files();
    assert_ne!(after.commit, before.commit);
    assert_eq!(after.files[0].text, typed, "the file holds the text committed");
}

/// "A base and two overlays" with prod's overlay typed to say `count: 5`.
fn overlay_typed(model: &mut Model, from: &str, to: &str) -> String {
    let overlay = format!("envs/{}/kustomization.yaml", model.environment);
    let text = model.git_files().files[0].text.replacen(from, to, 1);
    model.act(Action::EditFile(overlay.clone(), text));
    overlay
}

#[test]
fn an_overlay_typed_in_is_previewed_rendered_and_its_commit_writes_it_alone() {
    let mut model = with_preset("kustomize-overlays.yaml");
    model.act(Action::Advance);
    assert!(model.panes.rendered, "kustomize renders the Desired pane: its text is not where an edit goes");
    assert!(!model.panes.uncommitted);
    let before = commits(&model);
    let overlay = overlay_typed(&mut model, "count: 3", "count: 5");
    assert!(model.panes.uncommitted, "the files hold a working copy");
    assert_eq!(commits(&model), before, "Git holds nothing new yet");
    assert!(model.panes.desired.text.contains("replicas: 5"), "the Desired pane shows the render: {}", model.panes.desired.text);
    let plan: Vec<String> = model.panes.report.as_ref().unwrap().plan.iter().map(|operation| format!("{operation:?}")).collect();
    assert!(plan.iter().any(|operation| operation.contains("Update") && operation.contains("web")), "the plan previews it: {plan:?}");
    let shown = model.git_files();
    assert!(shown.files[0].edited && shown.files[0].text.contains("count: 5"));
    assert!(shown.files[1..].iter().all(|file| !file.edited));
    assert!(!model.panes.can_step(), "Step waits for the commit");

    model.act(Action::Commit);
    assert_eq!(commits(&model), before + 1);
    let head = model.world.repository.head();
    let previous = model.world.repository.log().nth(1).unwrap();
    let changed: Vec<&String> = head.files.keys().filter(|path| head.files.get(*path) != previous.files.get(*path)).collect();
    assert_eq!(changed, [&overlay], "only the file typed in");
    assert!(!model.panes.uncommitted && !model.git_files().files[0].edited);
    assert!(model.panes.desired.text.contains("replicas: 5"));
}

#[test]
fn discard_puts_the_files_back_as_git_has_them() {
    let mut model = with_preset("kustomize-overlays.yaml");
    let before = model.git_files();
    overlay_typed(&mut model, "count: 3", "count: 7");
    model.act(Action::Discard);
    assert_eq!(model.git_files(), before);
    assert!(!model.panes.uncommitted);
    assert!(model.panes.desired.text.contains("replicas: 3"));
}

#[test]
fn a_file_typed_broken_keeps_its_text_says_why_and_commits_nothing() {
    let mut model = with_preset("kustomize-overlays.yaml");
    let before = commits(&model);
    overlay_typed(&mut model, "count: 3", "count: [3");
    let shown = model.git_files();
    assert!(shown.files[0].text.contains("count: [3"), "the text stays as typed");
    let error = model.panes.files_error.clone().expect("the files do not render");
    assert!(error.contains("kustomization.yaml"), "says which file: {error}");
    assert!(model.panes.desired.text.contains("replicas: 3"), "the Desired pane keeps Git's render");
    model.act(Action::Commit);
    assert_eq!(commits(&model), before, "a file that does not read is not committed");
}

#[test]
fn a_comment_typed_in_a_plain_directory_is_a_working_copy_with_nothing_to_sync() {
    let mut model = with_preset("prune-database.yaml");
    assert!(!model.panes.rendered, "without a kustomization, the Desired pane takes typing");
    let file = model.git_files().files[0].clone();
    let desired = model.panes.desired.text.clone();
    model.act(Action::EditFile(file.path.clone(), format!("# reviewed by the DBA\n{}", file.text)));
    assert!(model.panes.uncommitted, "Git would commit a comment");
    assert!(model.panes.rendered, "while the files hold the working copy, the pane shows their render");
    assert_eq!(model.panes.desired.text, desired, "a comment renders to nothing new");
    model.act(Action::Discard);
    assert!(!model.panes.rendered && !model.panes.uncommitted);
}

#[test]
fn a_flux_layouts_desired_pane_is_its_kustomizations_build_and_takes_no_typing() {
    let mut model = with_preset("flux-depends-on.yaml");
    assert!(model.panes.rendered, "what clusters/prod's Kustomizations build is read only: a commit of it would overwrite them");
    assert!(model.panes.desired.text.contains("kustomize.toolkit.fluxcd.io/name"), "{}", model.panes.desired.text);
    assert_eq!(model.desired_heading().1, "Read only: kustomize builds it from Files in Git, below, where you edit");
    model.act(Action::SetAgent(gitops_core::options::Agent::ArgoCd));
    assert!(!model.panes.rendered, "under Argo CD the Kustomizations are objects of the directory, typed as any");
}
