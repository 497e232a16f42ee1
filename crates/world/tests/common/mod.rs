//! What the world's tests share: share links' sessions, generated; a world's events as lines.

#![allow(dead_code)]

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

pub mod generate {
    use proptest::prelude::*;

    /// Sessions as share links carry them: a preset or a scenario text, and
    /// interactions of every kind.
    pub fn session() -> impl Strategy<Value = gitops_world::share::Session> {
        use gitops_world::scenario::Mode;
        use gitops_world::share::{Interaction, Session};
        let text = "[ -~\\n\u{e9}\u{1F600}]{0,40}";
        let interaction = prop_oneof![
            text.prop_map(|text| Interaction::Desired(text.into())),
            text.prop_map(|text| Interaction::Actual(text.into())),
            Just(Interaction::Step),
            Just(Interaction::Advance),
            Just(Interaction::ConfirmPrune),
            "[0-9a-f]{7}".prop_map(Interaction::Revert),
            any::<bool>().prop_map(Interaction::Prune),
            any::<bool>().prop_map(Interaction::SelfHeal),
            any::<bool>().prop_map(Interaction::AutoSync),
            any::<bool>().prop_map(Interaction::RespectIgnoreDifferences),
            prop::sample::select(vec![Mode::Pull, Mode::Push]).prop_map(Interaction::Mode),
            text.prop_map(Interaction::Ignore),
            "(prod|staging)".prop_map(Interaction::Environment),
        ];
        let source = prop_oneof![
            "[a-z-]{1,20}\\.yaml".prop_map(|file| Session::of_preset(&file)),
            text.prop_map(|text| Session::of_scenario(&text)),
        ];
        (source, prop::collection::vec(interaction, 0..12)).prop_map(
            |(mut session, interactions)| {
                session.interactions = interactions;
                session
            },
        )
    }
}

pub mod events {
    use gitops_world::World;

    /// The world's events, each as `<step> <event>`.
    pub fn lines(world: &World) -> Vec<String> {
        world
            .events
            .iter()
            .map(|event| format!("{} {event}", event.step))
            .collect()
    }

    /// Whether an event says `needle`.
    pub fn has(world: &World, needle: &str) -> bool {
        lines(world).iter().any(|line| line.contains(needle))
    }
}
