//! A large text read again gives what it gave the first time, and a copy of a
//! state is its own: natively and in the browser.

mod common;

use gitops_playground::core::{InputError, State};
use serde_json::{json, Value};

/// A state text of `count` named objects, well over the size the core keeps.
fn large_text(count: usize) -> String {
    let objects: serde_json::Map<String, Value> = (0..count)
        .map(|index| {
            (
                format!("service-{index:04}"),
                json!({"image": format!("registry.example/service:{index}"), "replicas": index % 5}),
            )
        })
        .collect();
    serde_json::to_string_pretty(&Value::Object(objects)).expect("serializes")
}

fn broken(text: &str) -> String {
    format!("{}, ", text.trim_end().trim_end_matches('}'))
}

fn error_of(source: &str, text: &str) -> InputError {
    State::parse(source, text).expect_err("the text is broken")
}

everywhere! {
    fn a_large_text_read_again_reads_the_same() {
        let text = large_text(2_000);
        let first = State::parse("desired", &text).unwrap();
        let again = State::parse("desired", &text).unwrap();
        let elsewhere = State::parse("envs/prod/manifests.json", &text).unwrap();
        assert_eq!(first, again);
        assert_eq!(first, elsewhere);
        assert_eq!(first.len(), 2_000);
        let edited = text.replacen("\"replicas\": 1", "\"replicas\": 4", 1);
        let changed = State::parse("desired", &edited).unwrap();
        assert_ne!(changed, first, "an edited text is read, not remembered");
        assert_eq!(changed.get("service-0001").unwrap()["replicas"], 4);
    }

    fn a_broken_large_text_names_the_source_it_was_read_from_each_time() {
        let text = broken(&large_text(2_000));
        let desired = error_of("desired", &text);
        let file = error_of("envs/prod/manifests.json", &text);
        assert_eq!(desired.source, "desired");
        assert_eq!(file.source, "envs/prod/manifests.json");
        assert_eq!((desired.line, desired.column), (file.line, file.column));
        assert_eq!(error_of("desired", &text), desired);
    }

    fn more_large_texts_than_are_kept_all_read_right() {
        let texts: Vec<String> = (0..7).map(|extra| large_text(1_000 + extra)).collect();
        for _ in 0..2 {
            for (extra, text) in texts.iter().enumerate() {
                assert_eq!(State::parse("desired", text).unwrap().len(), 1_000 + extra);
            }
        }
    }

    fn a_copy_of_a_state_changes_on_its_own() {
        let original = State::parse("desired", &large_text(2_000)).unwrap();
        let mut copy = original.clone();
        assert!(copy.same_objects(&original));
        copy.insert("added".into(), json!({"image": "added:1"}));
        copy.remove("service-0000");
        assert_eq!(original.len(), 2_000);
        assert!(original.get("added").is_none());
        assert!(original.get("service-0000").is_some());
        assert!(!copy.same_objects(&original));
        let reread = State::parse("desired", &large_text(2_000)).unwrap();
        assert_eq!(reread, original, "what the core kept did not change with the copy");
        assert_eq!(copy.remove("absent"), None);
    }
}
