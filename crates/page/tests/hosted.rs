//! What the page that embeds this one asks is done in the order it asked:
//! a step sent right after a `gitops:load` steps the scenario it loaded, even
//! when the load waits for the start to end and for the presets' texts.

mod common;

use common::presets;
use gitops_page::{Action, MenuEntry, Model, SavedSessions, Source, Theme};
use gitops_world::share::Session;

const LESSON: &str = r#"{"version": 1, "title": "A lesson's own scenario",
  "desired": {"api": {"image": "registry.example/api:1.4.2", "replicas": 2}},
  "actual": {}}"#;

fn hosted(action: Action) -> Action {
    Action::Hosted(Box::new(action))
}

fn titles_and_done(model: &Model) -> (String, usize) {
    (model.preset.title.clone(), model.playback.done.len())
}

#[test]
fn a_step_sent_after_a_load_steps_the_loaded_scenario_however_long_the_load_waits() {
    let mut model = Model::new(Theme::System, SavedSessions::default(), Default::default());
    model.act(hosted(Action::Open(
        Session::of_scenario(LESSON),
        Source::Host,
    )));
    model.act(hosted(Action::Step));
    assert_eq!(
        model.playback.done.len(),
        0,
        "nothing runs before the start is over"
    );

    let presets = presets();
    model.act(Action::MenuLoaded(
        presets.iter().map(MenuEntry::of).collect(),
    ));
    model.act(Action::Started);
    assert!(
        model.loading.wants_presets(),
        "the scenario's text waits for the presets' texts"
    );
    assert_eq!(model.playback.done.len(), 0, "and the step waits behind it");

    model.act(Action::PresetsLoaded(presets));
    assert_eq!(
        titles_and_done(&model),
        ("A lesson's own scenario".to_string(), 1)
    );
}

#[test]
fn a_preset_loaded_then_stepped_waits_for_the_presets_then_steps_it() {
    let mut model = Model::new(Theme::System, SavedSessions::default(), Default::default());
    let presets = presets();
    model.act(Action::MenuLoaded(
        presets.iter().map(MenuEntry::of).collect(),
    ));
    model.act(Action::Started);
    model.act(hosted(Action::Open(
        Session::of_preset("mutable-tag.yaml"),
        Source::Host,
    )));
    model.act(hosted(Action::Step));
    assert_eq!(model.playback.done.len(), 0);
    let title = presets[1].title.clone();
    model.act(Action::PresetsLoaded(presets));
    assert_eq!(model.preset.title, title);
    assert_eq!(
        model.playback.done.len(),
        1,
        "{:?}",
        model.panes.report.as_ref().map(|report| &report.plan)
    );
}

#[test]
fn with_nothing_waiting_a_hosts_action_is_done_at_once() {
    let mut model = Model::new(Theme::System, SavedSessions::default(), Default::default());
    model.act(Action::Started);
    model.act(hosted(Action::Step));
    assert_eq!(model.playback.done.len(), 1);
}

#[test]
fn a_hosted_exercise_is_judged_as_check_judges_it_and_the_ignore_rule_it_asks_for_solves_it() {
    let mut model = Model::new(Theme::System, SavedSessions::default(), Default::default());
    let mut presets = presets();
    let text = std::fs::read_to_string(format!("{}/../../static/exercises/flapping.yaml", env!("CARGO_MANIFEST_DIR"))).unwrap();
    presets.push(gitops_page::Preset::read("exercises/flapping.yaml", &text).expect("it reads").0);
    model.act(Action::MenuLoaded(presets.iter().map(MenuEntry::of).collect()));
    model.act(Action::Started);
    model.act(Action::PresetsLoaded(presets));
    model.act(hosted(Action::Open(Session::of_preset("exercises/flapping.yaml"), Source::Host)));
    let before = model.judged().expect("flapping.yaml is an exercise");
    assert!(!before.solved);
    assert!(before.goals.iter().any(|goal| !goal.passed), "{before:#?}");
    assert!(model.work.checked.is_none(), "judging is not pressing Check");

    model.act(hosted(Action::EditIgnore("- /status".into())));
    let after = model.judged().expect("an exercise");
    assert!(after.solved, "{after:#?}");
    model.act(hosted(Action::Check));
    assert_eq!(model.work.checked.as_deref(), Some(&after), "Check finds what was judged");
}
