//! The page's model, natively: what a person does (Step, typing, a pause in
//! typing, a broken pane, prune, time) and what the page then has to show.
//! The page's browser tests (tests/page.rs at the top) keep what needs a
//! DOM: focus, keyboard, dialogs, links pasted and the embed's messages.

mod common;

use common::{cards, commits, edit, opened};
use gitops_core::SyncStatus;
use gitops_page::{Action, Model, Pane, PlaybackAction};

const ONLY_API: &str = r#"{"api": {"image": "registry.example/api:1.4.2", "replicas": 2}}"#;

#[test]
fn the_page_opens_with_the_worked_example_planned() {
    let model = opened();
    assert_eq!(cards(&model), ["delete debug", "update web"]);
    let report = model.panes.report.as_ref().expect("a report");
    assert_eq!(report.status.sync, SyncStatus::OutOfSync);
    assert!(report
        .warnings
        .iter()
        .all(|warning| warning.rule == "mutable-image-tag"));
    assert_eq!(model.world_position(), "Next: minute 0 (of 0–9)");
}

#[test]
fn step_applies_the_next_operation_until_the_plan_is_done() {
    let mut model = opened();
    model.act(Action::Step);
    assert_eq!(
        cards(&model),
        ["delete debug (done)", "update web"],
        "prunes run first in their wave"
    );
    assert!(!model.panes.actual.text.contains("debug"));
    assert_eq!(
        model.view.highlight.as_ref().map(|(key, _)| key.as_str()),
        Some("debug")
    );
    model.act(Action::Step);
    assert_eq!(cards(&model), ["delete debug (done)", "update web (done)"]);
    let report = model.panes.report.as_ref().expect("a report");
    assert_eq!(report.status.sync, SyncStatus::Synced);
    assert!(
        model.panes.actual.text.contains("\"replicas\": 3"),
        "{}",
        model.panes.actual.text
    );
    assert!(!model.panes.can_step(), "nothing left to apply");
}

#[test]
fn play_runs_until_the_plan_is_done_and_stops() {
    let mut model = opened();
    model.act(PlaybackAction::Play.into());
    assert!(model.playback.playing);
    while model.playback.playing {
        model.act(Action::Tick);
    }
    assert_eq!(cards(&model), ["delete debug (done)", "update web (done)"]);
}

#[test]
fn editing_a_pane_replans_and_keeps_the_text_as_typed() {
    let mut model = opened();
    edit(&mut model, Pane::Actual, "{}");
    assert_eq!(cards(&model), ["create api", "create web"]);
    assert_eq!(&*model.panes.actual.text, "{}");
}

#[test]
fn panes_in_different_forms_sync_nothing_and_say_why_until_both_agree() {
    let mut model = opened();
    let service = r#"[{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"}}]"#;
    edit(&mut model, Pane::Actual, service);
    let why = model.panes.forms_error.clone().unwrap_or_default();
    assert!(
        why.contains("Nothing syncs: Git holds named objects (the lesson's form) and the cluster holds Kubernetes objects"),
        "{why}"
    );
    assert_eq!(cards(&model), Vec::<String>::new(), "no plan across forms");
    assert!(!model.panes.can_step());
    edit(&mut model, Pane::Desired, service);
    assert_eq!(model.panes.forms_error, None, "both panes in one form");
}

#[test]
fn typing_replans_at_once_and_the_working_copy_reaches_git_when_the_person_commits() {
    let mut model = opened();
    let before = commits(&model);
    edit(&mut model, Pane::Desired, ONLY_API);
    assert_eq!(cards(&model), ["delete debug", "delete web"], "the plan previews the working copy");
    assert!(model.panes.typing().is_some());
    let typed = model.panes.report.clone().expect("a report");
    model.act(Action::Settle);
    assert_eq!(commits(&model), before, "a pause in typing commits nothing: Git holds what the person commits");
    assert!(model.panes.uncommitted);
    assert_eq!(model.world.draft("prod").map(|text| text.to_string()).as_deref(), Some(ONLY_API));
    assert_eq!(cards(&model), ["delete debug", "delete web"]);
    model.act(Action::WriteCommitMessage("Only the API runs in prod".into()));
    model.act(Action::Commit);
    assert_eq!(commits(&model), before + 1);
    assert_eq!(model.world.repository.head().message, "Only the API runs in prod");
    let committed = model.panes.report.as_ref().expect("a report");
    assert!(std::rc::Rc::ptr_eq(&typed, committed), "Git holds what was typed: the report on it stands");
    assert!(!model.panes.uncommitted);
    assert_eq!(model.world.draft("prod"), None);
    assert_eq!(cards(&model), ["delete debug", "delete web"]);
    // A commit without a message of its own takes the page's.
    edit(&mut model, Pane::Desired, r#"{"api": {"image": "registry.example/api:1.4.2", "replicas": 3}}"#);
    model.act(Action::Commit);
    assert_eq!(model.world.repository.head().message, "Edit envs/prod in the playground");
}

#[test]
fn a_typo_is_not_deployed_it_waits_in_the_working_copy_and_can_be_discarded() {
    let mut model = opened();
    let (before, original) = (commits(&model), model.panes.desired.text.to_string());
    // One quote deleted still reads as YAML: the plan would delete web and create `web"`.
    let typo = original.replacen("\"web\"", "web\"", 1);
    edit(&mut model, Pane::Desired, &typo);
    model.act(Action::Settle);
    assert!(cards(&model).iter().any(|card| card == "delete web"), "{:?}", cards(&model));
    for _ in 0..3 {
        model.act(Action::Advance);
    }
    assert_eq!(commits(&model), before, "nothing reached Git");
    assert!(model.world.clusters["prod"].actual().get("web").is_some(), "and the agent deleted nothing");
    assert!(model.panes.uncommitted, "the working copy is still there");
    model.act(Action::Discard);
    assert!(!model.panes.uncommitted);
    assert_eq!(model.world.draft("prod"), None);
    assert_eq!(commits(&model), before);
}

#[test]
fn a_typo_fixed_back_to_what_git_says_leaves_nothing_to_commit() {
    let mut model = opened();
    let (before, original) = (commits(&model), model.panes.desired.text.to_string());
    let events = model.world.events.len();
    edit(&mut model, Pane::Desired, ONLY_API);
    model.act(Action::Settle);
    edit(&mut model, Pane::Desired, &original);
    model.act(Action::Settle);
    assert!(!model.panes.uncommitted, "the text says what Git says");
    model.act(Action::Commit);
    assert_eq!(commits(&model), before, "nothing to commit");
    assert_eq!(model.world.events.len(), events, "and no event says it committed");
    assert_eq!(cards(&model), ["delete debug", "update web"]);
}

#[test]
fn step_waits_for_the_working_copy_to_be_committed_and_then_applies_its_plan() {
    let mut model = opened();
    let before = commits(&model);
    edit(&mut model, Pane::Desired, ONLY_API);
    model.act(Action::Step);
    assert_eq!(commits(&model), before, "Step commits nothing");
    assert_eq!(cards(&model), ["delete debug", "delete web"], "and applies nothing");
    assert!(model.panes.step_hold_text().is_some_and(|hold| hold.starts_with("Step waits for your commit")));
    model.act(Action::Commit);
    model.act(Action::Step);
    assert_eq!(commits(&model), before + 1);
    assert_eq!(cards(&model), ["delete debug (done)", "delete web"]);
}

#[test]
fn a_broken_pane_shows_its_error_and_keeps_the_last_plan_and_text() {
    let mut model = opened();
    edit(&mut model, Pane::Desired, "{\"web\": ");
    let error = model.panes.desired.error.as_ref().expect("an error");
    assert_eq!(
        error.to_string(),
        "desired, line 1, column 8: EOF while parsing a value"
    );
    assert_eq!(cards(&model), ["delete debug", "update web"]);
    assert_eq!(&*model.panes.desired.text, "{\"web\": ", "the text stays");
    assert!(!model.panes.can_step(), "no step while a pane is broken");
    model.act(Action::Step);
    assert_eq!(model.playback.done, [], "a Step does nothing then");
}

#[test]
fn unchecking_prune_drops_the_delete() {
    let mut model = opened();
    model.act(Action::SetPrune(false));
    assert_eq!(cards(&model), ["update web"]);
}

#[test]
fn time_runs_the_world_to_the_end_of_its_script_and_on_after_it() {
    let mut model = opened();
    model.act(Action::RunToEnd);
    assert!(
        model
            .world
            .events
            .iter()
            .any(|event| event.what.contains("deleted debug from prod")),
        "{:?}",
        model.world.events
    );
    assert_eq!(model.world_position(), "Minute 9 (of 0–9)");
    assert!(!model.can_run_to_end(), "the script has run");
    assert!(model.can_advance(), "time goes on after the script");
    model.act(Action::Advance);
    assert_eq!(model.world_position(), "Minute 10 (script: 0–9)");
}

const TEXT_SCENARIO: &str = r#"version: 1
title: Manifests as the author wrote them
desired: |
  # The web tier: two replicas
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec:
    replicas: 2
  ---
  apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
  spec:
    ports: [{port: 80}]
actual: |
  # Nothing is deployed yet
  []
"#;

#[test]
fn a_scenario_of_text_states_shows_the_authors_text_until_it_is_edited() {
    let mut model = opened();
    model.act(Action::Open(
        gitops_world::share::Session::of_scenario(TEXT_SCENARIO),
        gitops_page::Source::Link,
    ));
    model.act(Action::PresetsFailed("this test serves none".into()));
    assert!(
        model.panes.desired.text.starts_with("# The web tier: two replicas\napiVersion: apps/v1"),
        "the author's text, comment and all: {}",
        model.panes.desired.text
    );
    assert_eq!(&*model.panes.actual.text, "# Nothing is deployed yet\n[]\n");
    assert_eq!(cards(&model), ["create Service/shop/web", "create Deployment/shop/web"], "Services before Deployments, as Argo CD orders kinds");

    let edited = model.panes.desired.text.replace("replicas: 2", "replicas: 3");
    edit(&mut model, Pane::Desired, &edited);
    model.act(Action::Settle);
    assert_eq!(&*model.panes.desired.text, edited, "an edit stays as typed");

    model.act(Action::Reset);
    assert!(model.panes.desired.text.contains("replicas: 2\n  ---") || model.panes.desired.text.contains("replicas: 2\n---"), "{}", model.panes.desired.text);
    assert!(model.panes.desired.text.starts_with("# The web tier"), "Reset brings the author's text back");
}

/// A desired state large enough for the workspace to keep what it read as.
fn large_desired(replicas: u32) -> String {
    let objects: Vec<String> = (0..600)
        .map(|index| format!(r#""app-{index:03}": {{"image": "registry.example/app:1.0.{index}", "replicas": {replicas}}}"#))
        .collect();
    format!("{{{}}}", objects.join(",\n"))
}

#[test]
fn a_text_typed_is_read_once_from_the_keystroke_to_its_commit_and_the_plan_after_it() {
    let mut model = opened();
    let texts_read = |model: &Model| model.world.workspace.with(|workspace| workspace.texts_read());
    let before = texts_read(&model);
    edit(&mut model, Pane::Desired, &large_desired(2));
    assert_eq!(texts_read(&model), before + 1, "the keystroke reads the pane's text");
    model.act(Action::Settle);
    model.act(Action::Commit);
    assert_eq!(cards(&model).len(), 603, "{:?}", &cards(&model)[..3]);
    assert_eq!(
        texts_read(&model),
        before + 1,
        "the world commits the text the page read, and Git's head reads as it"
    );
    edit(&mut model, Pane::Desired, &large_desired(3));
    model.act(Action::Settle);
    model.act(Action::Commit);
    assert_eq!(texts_read(&model), before + 2, "the next edit reads its text once too");
}

#[test]
fn typing_within_a_line_moves_no_line_and_a_line_break_does() {
    use gitops_core::text::edit::{Edit, SharedText, TypedText};
    let mut model = opened();
    let before = model.panes.desired.text.clone();
    let type_over = |model: &mut Model, before: &SharedText, from: &str, to: &str| {
        let at = before.find(from).expect("the text is there");
        let text: SharedText = before.replacen(from, to, 1).into();
        let typed = TypedText { text: text.clone(), edit: Some(Edit { before: before.clone(), replaced: at..at + from.len() }) };
        model.act(Action::Edit(Pane::Desired, typed));
        text
    };
    let moves = model.panes.line_moves;
    let typed = type_over(&mut model, &before, "\"replicas\": 3", "\"replicas\": 4");
    assert_eq!(model.panes.line_moves, moves, "a digit typed over moves no line: the marks stand");
    type_over(&mut model, &typed, "\"replicas\": 4", "\"replicas\":\n 4");
    assert_eq!(model.panes.line_moves, moves + 1, "a line break typed moves the lines after it");
}

#[test]
fn under_flux_step_is_flux_reconcile_which_applies_the_whole_build_at_once() {
    let mut model = common::with_preset("flux-kubectl-edit.yaml");
    while model.world.step < 6 {
        model.act(Action::Advance);
    }
    assert!(model.world.reconciles_by_hand());
    assert_eq!(cards(&model), ["update Deployment/shop/web"], "bob's kubectl edit waits for the interval");
    model.act(Action::Step);
    assert_eq!(cards(&model), ["update Deployment/shop/web (done)"]);
    let web = model.world.clusters["prod"].actual().get("Deployment/shop/web").unwrap().clone();
    assert_eq!((web["spec"]["replicas"].clone(), web["metadata"]["labels"].get("debug").cloned()), (2.into(), None));
    let events: Vec<&str> = model.world.events.iter().filter(|event| event.step == 6).map(|event| event.what.as_str()).collect();
    assert!(events.contains(&"ran `flux reconcile kustomization playground --with-source` for prod"), "{events:#?}");
    model.act(Action::SetAgent(gitops_core::options::Agent::ArgoCd));
    assert!(!model.world.reconciles_by_hand(), "Argo CD steps through its plan");
}
