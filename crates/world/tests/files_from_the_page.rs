//! A file of Git typed in the page: a working copy of that file alone, which the
//! plan previews through the environment's render (kustomize too) and Git holds
//! only once committed, when the commit writes that file and no other.

use gitops_core::state::render::{render, Format};
use gitops_testing::everywhere;
use gitops_world::repository::Files;
use gitops_world::scenario::Scenario;
use gitops_world::share::Interaction;
use gitops_world::{file_text, World};

const OVERLAY: &str = "envs/prod/kustomization.yaml";

fn world_of(preset: &str, text: &str) -> World {
    World::new(&Scenario::parse(preset, text).unwrap())
}

/// "A base and two overlays": prod's overlay sets three replicas.
fn overlays() -> World {
    world_of("kustomize-overlays.yaml", include_str!("../../../static/presets/kustomize-overlays.yaml"))
}

/// The file at `path` as the page shows it, in Git at the commit `environment` follows.
fn in_git(world: &World, environment: &str, path: &str) -> String {
    file_text(path, &world.desired_files(environment).1[path])
}

fn yaml(state: &gitops_core::State) -> String {
    render(state, Format::Yaml).text
}

/// The paths the last commit on `main` wrote or removed.
fn last_commit(world: &World) -> Vec<String> {
    let log: Vec<_> = world.repository.log().collect();
    let (after, before): (&Files, &Files) = (&log[0].files, &log[1].files);
    let mut changed: Vec<String> =
        after.iter().filter(|(path, content)| before.get(*path) != Some(content)).map(|(path, _)| format!("+{path}")).collect();
    changed.extend(before.keys().filter(|path| !after.contains_key(*path)).map(|path| format!("-{path}")));
    changed
}

everywhere! {
    fn an_overlay_typed_in_is_previewed_through_kustomize_and_its_commit_writes_that_file_alone() {
        let mut world = overlays();
        let scaled = in_git(&world, "prod", OVERLAY).replacen("count: 3", "count: 5", 1);
        assert_ne!(scaled, in_git(&world, "prod", OVERLAY), "the overlay says three replicas");
        let commits = world.repository.log().count();

        assert_eq!(world.interact("prod", &Interaction::file(OVERLAY, &scaled)), Some(true));
        let working = world.working_state("prod").expect("a working copy").expect("it renders");
        assert!(yaml(&working).contains("replicas: 5"), "the render of the working copy: {}", yaml(&working));
        assert!(yaml(&world.desired_state("prod").unwrap()).contains("replicas: 3"), "Git still says three");
        assert_eq!(world.repository.log().count(), commits, "nothing is committed yet");

        assert_eq!(world.interact("prod", &Interaction::Commit("Five replicas in prod".into())), Some(true));
        assert_eq!(last_commit(&world), [format!("+{OVERLAY}")], "the base and the patch are untouched");
        assert_eq!(world.repository.head().message, "Five replicas in prod");
        assert!(yaml(&world.desired_state("prod").unwrap()).contains("replicas: 5"));
        assert_eq!(in_git(&world, "prod", OVERLAY), scaled, "Git holds the file as typed");
        assert!(!world.has_file_drafts("prod") && world.working_state("prod").is_none());
    }

    fn a_file_typed_back_as_git_has_it_is_no_working_copy() {
        let mut world = overlays();
        let original = in_git(&world, "prod", OVERLAY);
        world.interact("prod", &Interaction::file(OVERLAY, &original.replacen("count: 3", "count: 4", 1)));
        assert!(world.has_file_drafts("prod"));
        world.interact("prod", &Interaction::file(OVERLAY, &original));
        assert!(!world.has_file_drafts("prod"));
        assert_eq!(world.interact("prod", &Interaction::Commit(String::new())), None, "nothing to commit");
    }

    fn a_file_that_does_not_read_is_kept_but_not_committed() {
        let mut world = overlays();
        let broken = in_git(&world, "prod", OVERLAY).replacen("count: 3", "count: [3", 1);
        world.interact("prod", &Interaction::file(OVERLAY, &broken));
        let error = world.working_state("prod").expect("a working copy").expect_err("it does not read");
        assert!(error.to_string().contains(OVERLAY), "the error names the file: {error}");
        let head = world.repository.head().id.clone();
        assert_eq!(world.interact("prod", &Interaction::Commit(String::new())), None);
        assert_eq!(world.repository.head().id, head, "Git is unchanged");
        assert_eq!(world.file_draft("prod", OVERLAY).map(|text| text.to_string()), Some(broken), "the text stays");
    }

    fn a_file_git_does_not_hold_is_not_a_working_copy() {
        let mut world = overlays();
        assert_eq!(world.interact("prod", &Interaction::file("envs/prod/nope.yaml", "a: 1")), None);
        assert!(!world.has_file_drafts("prod"));
    }

    fn a_base_edited_once_changes_both_environments() {
        let mut world = overlays();
        let base = "base/deployment.yaml";
        let text = in_git(&world, "prod", base).replacen("containerPort: 8080", "containerPort: 9090", 1);
        world.interact("prod", &Interaction::file(base, &text));
        world.interact("prod", &Interaction::Commit(String::new()));
        assert_eq!(last_commit(&world), [format!("+{base}")]);
        for environment in ["prod", "staging"] {
            assert!(yaml(&world.desired_state(environment).unwrap()).contains("9090"), "{environment} renders the base");
        }
    }

    fn on_a_branch_the_file_is_committed_to_the_environments_branch() {
        let mut world = world_of("branch-per-environment.yaml", include_str!("../../../static/presets/branch-per-environment.yaml"));
        let (path, replicas) = ("envs/prod/web.yaml", "replicas: 2");
        let text = in_git(&world, "prod", path).replacen(replicas, "replicas: 4", 1);
        world.interact("prod", &Interaction::file(path, &text));
        assert_eq!(world.interact("prod", &Interaction::Commit(String::new())), Some(true));
        assert!(yaml(&world.desired_state("prod").unwrap()).contains("replicas: 4"));
        assert!(yaml(&world.desired_state("staging").unwrap()).contains("replicas: 1"), "staging's branch is untouched");
    }

    fn in_a_reviewed_environment_a_file_typed_in_goes_into_a_pull_request_and_its_next_edit_keeps_the_first() {
        let mut world = world_of("promotion.yaml", include_str!("../../../static/exercises/promotion.yaml"));
        let path = "envs/prod/web.yaml";
        let original = in_git(&world, "prod", path);
        let head = world.repository.head().id.clone();
        world.interact("prod", &Interaction::file(path, &original.replacen("replicas: 2", "replicas: 3", 1)));
        assert_eq!(world.interact("prod", &Interaction::Commit("Three replicas".into())), Some(true));
        assert_eq!(world.repository.head().id, head, "a reviewed environment's Git changes only by a merge");
        let pull = world.open_proposal("prod").expect("a pull request").clone();
        assert_eq!(pull.changes.write.keys().collect::<Vec<_>>(), [path]);
        // The next edit starts from the pull request, not from Git's head, and the push keeps both.
        let proposed = file_text(path, &world.working_files("prod")[path]);
        assert!(proposed.contains("replicas: 3"), "the working copy starts from the pull request: {proposed}");
        world.interact("prod", &Interaction::file(path, &format!("# scaled for the launch\n{proposed}")));
        world.interact("prod", &Interaction::Commit(String::new()));
        let revised = world.open_proposal("prod").expect("the same pull request");
        assert_eq!(revised.number, pull.number);
        let text = file_text(path, &revised.changes.write[path]);
        assert!(text.starts_with("# scaled for the launch") && text.contains("replicas: 3"), "{text}");
        assert!(yaml(&world.proposal("prod").unwrap()).contains("replicas: 3"));
    }
}
