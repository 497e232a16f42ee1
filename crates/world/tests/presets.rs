//! The presets as a set, natively and in the browser: each reads and says what it
//! shows, the same scenario always gives the same events, and the index lists them all.

mod common;

use common::presets::{run, PRESETS};

use gitops_testing::everywhere;

use gitops_world::scenario::Scenario;

everywhere! {
    fn every_preset_reads_and_says_what_it_shows() {
        for (name, text) in PRESETS {
            let scenario = Scenario::parse(name, text).unwrap_or_else(|error| panic!("{error}"));
            assert!(scenario.title.as_deref().is_some_and(|title| !title.is_empty()), "{name} has a title");
            assert!(scenario.explanation.as_deref().is_some_and(|text| text.len() > 80), "{name} explains itself");
            assert!(scenario.section.is_some(), "{name} names its lesson section");
        }
    }

    fn a_world_reads_each_file_once_however_often_it_renders_it() {
        for (name, _) in PRESETS {
            let world = run(name);
            let files_read = || world.workspace.with(|workspace| workspace.files_read());
            let after_the_run = files_read();
            assert!(after_the_run > 0, "{name}: the run rendered its files");
            let (summary, history) = (world.summary(), world.history());
            let after_one_look = files_read();
            assert_eq!((world.summary(), world.history()), (summary, history), "{name}");
            assert_eq!(files_read(), after_one_look, "{name}: a second look at every commit reads no file again");
        }
    }

    fn the_same_scenario_gives_the_same_events_every_time() {
        for (name, _) in PRESETS {
            let (first, second) = (run(name), run(name));
            assert_eq!(first.events, second.events, "{name}");
            assert_eq!(first.summary(), second.summary(), "{name}");
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_index_lists_every_preset_file() {
    let directory = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/presets");
    let index: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(format!("{directory}/index.json")).unwrap())
            .unwrap();
    let mut files: Vec<String> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name != "index.json")
        .collect();
    files.sort();
    let mut listed = index.clone();
    listed.sort();
    assert_eq!(listed, files);
    let tested: Vec<&str> = PRESETS.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        index, tested,
        "the tests cover the presets in the menu's order"
    );
}
