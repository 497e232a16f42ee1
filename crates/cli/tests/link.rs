//! `gitops-sim link` as lesson authors run it: the fragment that opens a scenario, a
//! preset or an exercise, and the links it refuses.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{fails, gitops_sim, WORKED_EXAMPLE};
use serde_json::{json, Value};

#[test]
fn link_prints_a_fragment_that_opens_the_scenario() {
    let output = gitops_sim(&["link", WORKED_EXAMPLE], "");
    assert!(output.status.success());
    let fragment = String::from_utf8(output.stdout).unwrap();
    let session = gitops_world::share::decode(fragment.trim()).unwrap();
    assert_eq!(
        session.scenario.as_deref(),
        Some(include_str!("../../../static/presets/worked-example.json"))
    );
    let preset =
        String::from_utf8(gitops_sim(&["link", "--preset", "mutable-tag.yaml"], "").stdout)
            .unwrap();
    assert!(preset.trim().len() < 60, "a preset link is short: {preset}");
    assert_eq!(
        gitops_world::share::decode(preset.trim())
            .unwrap()
            .preset
            .as_deref(),
        Some("mutable-tag.yaml")
    );
}

#[test]
fn link_refuses_a_scenario_that_does_not_read() {
    assert_eq!(fails(&["link", "-"], "{\"desired\": 3}"), "gitops-sim: <stdin> at /desired: a state is an object of named objects, a list of Kubernetes objects, or a Kubernetes List; found a number");
}

/// A scenario with `count` objects of pseudo-random text, which deflate
/// cannot make much smaller.
fn noisy_scenario(count: usize) -> String {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let objects: serde_json::Map<String, Value> = (0..count)
        .map(|index| {
            let noise: String = (0..64)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    char::from(b'a' + (seed % 26) as u8)
                })
                .collect();
            (format!("object-{index}"), json!({ "note": noise }))
        })
        .collect();
    json!({ "desired": objects }).to_string()
}

#[test]
fn link_refuses_a_scenario_whose_link_the_page_would_refuse() {
    let message = fails(&["link", "-"], &noisy_scenario(10_000));
    assert!(
        message.starts_with("gitops-sim: <stdin>: its link would be ")
            && message.contains("the playground opens links up to 524288 characters"),
        "{message}"
    );
    let output = gitops_sim(&["link", "-"], &noisy_scenario(100));
    assert!(output.status.success(), "a smaller one links");
}

#[test]
fn link_refuses_a_preset_the_playground_does_not_have() {
    let exercises: Vec<String> =
        serde_json::from_str(include_str!("../../../static/exercises/index.json")).unwrap();
    let exercises: Vec<String> = exercises
        .iter()
        .map(|file| format!("exercises/{file}"))
        .collect();
    assert!(exercises.contains(&"exercises/flapping.yaml".to_string()));
    for name in [
        "nosuch.yaml",
        "../../etc/passwd",
        "presets/mutable-tag.yaml",
        "exercises/nosuch.yaml",
        "flapping.yaml",
    ] {
        let message = fails(&["link", "--preset", name], "");
        assert!(
            message.starts_with(&format!(
                "gitops-sim: --preset {name}: the playground has no such preset or exercise; name one of its presets: worked-example.json, "
            )) && message.contains("mutable-tag.yaml")
                && message.ends_with(&format!(
                    "; or one of its exercises: {}",
                    exercises.join(", ")
                )),
            "{message}"
        );
    }
}

#[test]
fn link_names_an_exercise_as_the_page_links_it() {
    let exercises: Vec<String> =
        serde_json::from_str(include_str!("../../../static/exercises/index.json")).unwrap();
    for exercise in exercises {
        let name = format!("exercises/{exercise}");
        let output = gitops_sim(&["link", "--preset", &name], "");
        assert!(
            output.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let fragment = String::from_utf8(output.stdout).unwrap();
        assert!(fragment.trim().len() < 80, "a short link: {fragment}");
        let session = gitops_world::share::decode(fragment.trim()).unwrap();
        assert_eq!(
            session,
            gitops_world::share::Session::of_preset(&name),
            "the link the page's own Share makes for the exercise"
        );
    }
}
