//! What the page model's tests share. Each test file uses some of it.
#![allow(dead_code)]

use gitops_page::{Action, Model, Pane, Preset, SavedSessions, Theme};

/// The page as it opens: the worked example, nothing saved.
pub fn opened() -> Model {
    let mut model = Model::new(Theme::System, SavedSessions::default(), Default::default());
    model.act(Action::Started);
    model
}

/// The page with a preset of `static/presets/` loaded.
pub fn with_preset(file: &str) -> Model {
    let path = format!("{}/../../static/presets/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the preset");
    let (preset, _) = Preset::read(file, &text).expect("the preset reads");
    let mut model = opened();
    model.act(Action::Load(preset));
    model
}

/// What the plan shows: applied operations first, each `verb key`.
pub fn cards(model: &Model) -> Vec<String> {
    let done = model
        .playback
        .done
        .iter()
        .map(|operation| format!("{} {} (done)", operation.verb(), operation.key()));
    let plan = model.panes.report.iter().flat_map(|report| {
        report
            .plan
            .iter()
            .map(|operation| format!("{} {}", operation.verb(), operation.key()))
    });
    done.chain(plan).collect()
}

/// `text` typed into `pane` at once.
pub fn edit(model: &mut Model, pane: Pane, text: &str) {
    model.act(Action::Edit(pane, text.into()));
}

/// How many commits Git holds.
pub fn commits(model: &Model) -> usize {
    model.world.repository.log().count()
}

/// The worked example and the mutable-tag preset, read from `static/presets`.
pub fn presets() -> Vec<Preset> {
    let root = format!("{}/../../static/presets", env!("CARGO_MANIFEST_DIR"));
    ["worked-example.json", "mutable-tag.yaml"]
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
            Preset::read(file, &text).expect("it reads").0
        })
        .collect()
}
