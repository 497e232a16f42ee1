//! A sync a person steps through by hand in the page's model: the waves it stops at,
//! a deletion waiting for its confirmation, a step the API server refuses.

mod common;

use common::{cards, edit, opened, with_preset};
use gitops_page::{Action, Model, Pane, PlaybackAction};

/// The health the report gives `key`, as text.
fn health_of(model: &Model, key: &str) -> String {
    let report = model.panes.report.as_ref().expect("a report");
    let object = report.objects.iter().find(|object| &*object.key == key);
    format!("{:?}", object.and_then(|object| object.health))
}

#[test]
fn a_sync_stepped_by_hand_stops_at_a_wave_until_the_earlier_wave_is_healthy() {
    // Argo CD runs the waves of a sync started by hand as it runs an automated one's
    // (gitops-engine's sync_context.go): wave 0 waits for the database of wave -1.
    let mut model = with_preset("ordering-waves.yaml");
    model.act(Action::Step);
    model.act(Action::Step);
    let done: Vec<String> = model.playback.done.iter().map(|op| op.key().to_string()).collect();
    assert_eq!(done, ["Namespace/shop", "StatefulSet/shop/db"]);
    assert!(
        !model.panes.can_step_now() && model.panes.can_step(),
        "Step waits; Play still can run"
    );
    let hold = model.panes.step_hold_text().expect("Step says what it waits for");
    assert!(
        hold.contains("wave 0 waits until StatefulSet/shop/db is Healthy"),
        "{hold}"
    );
    model.act(Action::Step);
    assert_eq!(
        model.playback.done.len(),
        2,
        "Step applies nothing while the wave waits"
    );

    model.act(PlaybackAction::Play.into());
    let mut beats = 0;
    while model.playback.playing && beats < 40 {
        model.act(Action::Tick);
        beats += 1;
    }
    assert!(
        !model.panes.can_step(),
        "Play ran the sync to its end in {beats} beats"
    );
    while health_of(&model, "Deployment/shop/web") == "Some(Progressing)" && model.world.step < 8 {
        model.act(Action::Advance);
    }
    for key in [
        "StatefulSet/shop/db",
        "Job/shop/migrate",
        "Deployment/shop/web",
    ] {
        assert_eq!(health_of(&model, key), "Some(Healthy)", "{key}");
    }
    let events: Vec<String> = model
        .world
        .events
        .iter()
        .map(|event| event.what.clone())
        .collect();
    assert!(
        !events.iter().any(|what| what.contains("crash")),
        "nothing crash-looped: {events:#?}"
    );
}

#[test]
fn a_deletion_that_waits_for_confirmation_holds_step_until_the_person_confirms() {
    let mut model = with_preset("prune-database-confirm.yaml");
    for _ in 0..4 {
        model.act(Action::Advance);
    }
    assert!(model.panes.can_confirm_prune(), "{:?}", model.panes.step_hold_text());
    let hold = model.panes.step_hold_text().expect("Step says what it waits for");
    assert!(
        hold.contains("waits for a person to confirm the deletion of StatefulSet/shop/db"),
        "{hold}"
    );
    model.act(Action::Step);
    assert!(
        model.playback.done.is_empty(),
        "Step applies nothing before the confirmation"
    );
    model.act(Action::ConfirmPrune);
    assert!(!model.panes.can_confirm_prune());
    model.act(Action::Step);
    let done: Vec<String> = model
        .playback
        .done
        .iter()
        .map(|op| format!("{} {}", op.verb(), op.key()))
        .collect();
    assert_eq!(done, ["delete StatefulSet/shop/db"]);
    assert!(
        model
            .work
            .session
            .interactions
            .contains(&gitops_world::share::Interaction::ConfirmPrune),
        "a link replays the confirmation"
    );
}

#[test]
fn a_step_the_api_server_refuses_stops_and_says_what_it_said() {
    // Kubernetes validates a Deployment's update: spec.selector is immutable.
    let web = |app: &str| {
        format!(
            r#"[{{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {{"name": "web", "namespace": "shop"}},
                 "spec": {{"selector": {{"matchLabels": {{"app": "{app}"}}}}}}}}]"#
        )
    };
    let mut model = opened();
    edit(&mut model, Pane::Actual, &web("web"));
    edit(&mut model, Pane::Desired, &web("web-v2"));
    model.act(Action::Commit);
    assert!(
        model.panes.can_step() && !model.panes.can_step_now(),
        "{:?}",
        cards(&model)
    );
    let hold = model.panes.step_hold_text().expect("Step says why it stops");
    assert!(
        hold.starts_with(r#"Step stops: the API server refuses to update Deployment/shop/web: Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web-v2"}}: field is immutable."#),
        "{hold}"
    );
    model.act(PlaybackAction::Play.into());
    model.act(Action::Tick);
    assert!(!model.playback.playing, "Play stops where the sync would fail");
    assert!(model.playback.done.is_empty());
}
