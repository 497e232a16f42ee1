//! The presets' texts come when something needs them: the page starts with
//! the menu and the built-in worked example, and a choice, a link or saved
//! work waits for the texts, then runs; if they cannot be fetched, it says so.

mod common;

use common::{opened};
use gitops_page::{Action, MenuEntry, Preset, Source};
use gitops_world::share::{Interaction, Session};

/// Every preset and exercise of `static/`, as the page reads `scenarios.json`.
fn all_presets() -> Vec<Preset> {
    let root = format!("{}/../../static", env!("CARGO_MANIFEST_DIR"));
    let mut presets = Vec::new();
    for (directory, named) in [("presets", ""), ("exercises", "exercises/")] {
        let index = std::fs::read_to_string(format!("{root}/{directory}/index.json")).unwrap();
        let files: Vec<String> = serde_json::from_str(&index).unwrap();
        for file in files {
            let text = std::fs::read_to_string(format!("{root}/{directory}/{file}")).unwrap();
            let (preset, _) = Preset::read(&format!("{named}{file}"), &text).expect("it reads");
            presets.push(preset);
        }
    }
    presets
}

#[test]
fn a_choice_waits_for_the_presets_texts_then_loads() {
    let mut model = opened();
    assert!(
        !model.loading.wants_presets(),
        "the worked example needs nothing fetched"
    );
    model.act(Action::MenuLoaded(
        all_presets().iter().map(MenuEntry::of).collect(),
    ));
    assert_eq!(
        model.loading.menu.len(),
        all_presets().len(),
        "the menu lists them all"
    );
    assert!(!model.loading.presets_loaded());

    model.act(Action::Choose("ordering-waves.yaml".into()));
    assert!(model.loading.wants_presets());
    assert_eq!(
        model.preset.file, "worked-example.json",
        "nothing changes meanwhile"
    );

    model.act(Action::PresetsLoaded(all_presets()));
    assert!(!model.loading.wants_presets());
    assert_eq!(model.preset.file, "ordering-waves.yaml");
    assert_eq!(model.preset.title, "Ordering and waves");
}

#[test]
fn choosing_the_worked_example_again_fetches_nothing() {
    let mut model = opened();
    model.act(Action::Choose("worked-example.json".into()));
    assert!(!model.loading.wants_presets());
    assert_eq!(model.preset.file, "worked-example.json");
    assert!(model.view.notice.is_none(), "{:?}", model.view.notice);
}

#[test]
fn links_and_saved_work_wait_for_the_texts_in_their_order() {
    let mut model = opened();
    let mut session = Session::of_preset("exercises/flapping.yaml");
    session.record(Interaction::Step, true);
    model.act(Action::Resume("exercises/flapping.yaml".into(), session));
    model.act(Action::Open(
        Session::of_preset("secrets-external.yaml"),
        Source::Link,
    ));
    assert!(model.loading.wants_presets());
    assert_eq!(model.preset.file, "worked-example.json");

    model.act(Action::PresetsLoaded(all_presets()));
    assert_eq!(
        model.preset.file, "secrets-external.yaml",
        "the link, which came last, is on screen"
    );
    assert!(
        model.work.saved.contains_key("exercises/flapping.yaml"),
        "the saved work opened first, and stays saved"
    );
}

#[test]
fn when_the_texts_cannot_be_fetched_what_waited_says_so_and_a_new_need_asks_again() {
    let mut model = opened();
    model.act(Action::Open(
        Session::of_preset("secrets-external.yaml"),
        Source::Link,
    ));
    model.act(Action::PresetsFailed("scenarios.json: HTTP 404".into()));
    assert!(!model.loading.wants_presets());
    assert_eq!(
        model.view.notice.as_deref(),
        Some("The link does not open: the presets could not be loaded (scenarios.json: HTTP 404). The scenario on screen stays.")
    );
    assert_eq!(model.preset.file, "worked-example.json");

    model.act(Action::Choose("secrets-external.yaml".into()));
    assert!(
        model.loading.wants_presets(),
        "the next choice fetches again"
    );
}

#[test]
fn a_scenario_s_text_opens_even_when_the_presets_texts_cannot_be_fetched() {
    let mut model = opened();
    let text = r#"{"title": "Shared", "desired": {"web": {"image": "web:2"}}, "actual": {"web": {"image": "web:1"}}}"#;
    model.act(Action::Open(Session::of_scenario(text), Source::Link));
    assert!(
        model.loading.wants_presets(),
        "it waits, to know whether the text is an exercise's"
    );
    model.act(Action::PresetsFailed("scenarios.json: HTTP 404".into()));
    assert_eq!(model.preset.title, "Shared", "{:?}", model.view.notice);
    assert!(model.view.notice.is_none(), "{:?}", model.view.notice);
}
