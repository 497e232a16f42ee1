//! What the page that embeds this one asks is done in the order it asked:
//! a step sent right after a `gitops:load` steps the scenario it loaded, even
//! when the load waits for the start to end and for the presets' texts.

mod common;

use common::presets;
use gitops_page::{Action, MenuEntry, Model, Source, Theme};
use gitops_world::share::Session;
use std::collections::BTreeMap;

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
    let mut model = Model::new(Theme::System, BTreeMap::new(), BTreeMap::new());
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
    let mut model = Model::new(Theme::System, BTreeMap::new(), BTreeMap::new());
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
    let mut model = Model::new(Theme::System, BTreeMap::new(), BTreeMap::new());
    model.act(Action::Started);
    model.act(hosted(Action::Step));
    assert_eq!(model.playback.done.len(), 1);
}
