//! What the world's tests share: share links' sessions, generated; a world's events as lines;
//! worlds of one environment in the lesson's form; the presets, read and run.

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

pub mod worlds {
    //! Worlds of one environment, `prod`, in the lesson's form.

    use gitops_world::scenario::Scenario;
    use gitops_world::World;
    use serde_json::{json, Value};

    /// A one-environment world in the lesson's form, with the given options and script.
    pub fn world(options: Value, script: Value) -> World {
        let scenario = json!({
            "desired": {"web": {"image": "web:1", "replicas": 2}},
            "actual": {"web": {"image": "web:1", "replicas": 2}},
            "options": options,
            "script": script,
            "steps": 8,
        });
        World::run(
            &Scenario::parse("test.json", &scenario.to_string())
                .unwrap_or_else(|error| panic!("{error}")),
        )
    }

    pub fn commit(at: u32, content: Value) -> Value {
        json!({"at": at, "do": "commit", "author": "alice", "message": "Change web", "write": {"envs/prod/manifests.json": content}})
    }

    pub fn scenario_error(text: &str) -> String {
        Scenario::parse("lesson.json", text)
            .expect_err("the scenario is bad")
            .to_string()
    }
}

pub mod presets {
    //! The presets in `static/presets`, in the menu's order, and what the tests read of
    //! the worlds they run.

    use super::events::lines as events;
    use gitops_core::health::Health;
    use gitops_core::report::SyncStatus;
    use gitops_world::cluster::Running;
    use gitops_world::scenario::Scenario;
    use gitops_world::World;

    macro_rules! preset {
        ($file:literal) => {
            (
                $file,
                include_str!(concat!("../../../../static/presets/", $file)),
            )
        };
    }

    pub const PRESETS: [(&str, &str); 31] = [
        preset!("worked-example.json"),
        preset!("compromise-push.yaml"),
        preset!("compromise-pull.yaml"),
        preset!("rollback-by-revert.yaml"),
        preset!("disaster-recovery.yaml"),
        preset!("autoscaler-flapping.yaml"),
        preset!("autoscaler-fixed.yaml"),
        preset!("flux-autoscaler-ignore.yaml"),
        preset!("prune-database.yaml"),
        preset!("prune-database-protected.yaml"),
        preset!("prune-database-confirm.yaml"),
        preset!("flux-prune-disabled.yaml"),
        preset!("secrets-plaintext.yaml"),
        preset!("secrets-external.yaml"),
        preset!("promotion.yaml"),
        preset!("two-repositories.yaml"),
        preset!("branch-per-environment.yaml"),
        preset!("directories-per-environment.yaml"),
        preset!("kustomize-overlays.yaml"),
        preset!("kustomize-promotion.yaml"),
        preset!("mutable-tag.yaml"),
        preset!("digest-pinned.yaml"),
        preset!("synced-not-healthy.yaml"),
        preset!("level-triggered.yaml"),
        preset!("edge-triggered.yaml"),
        preset!("ordering-waves.yaml"),
        preset!("ordering-no-waves.yaml"),
        preset!("ordering-hooks.yaml"),
        preset!("flux-depends-on.yaml"),
        preset!("flux-kubectl-edit.yaml"),
        preset!("monitoring.yaml"),
    ];

    pub fn scenario(file: &str) -> Scenario {
        let (name, text) = PRESETS
            .iter()
            .find(|(name, _)| *name == file)
            .expect("a preset");
        Scenario::parse(name, text).unwrap_or_else(|error| panic!("{error}"))
    }

    pub fn run(file: &str) -> World {
        World::run(&scenario(file))
    }

    pub fn count_events(world: &World, needle: &str) -> usize {
        events(world)
            .iter()
            .filter(|line| line.contains(needle))
            .count()
    }

    pub fn running<'w>(world: &'w World, key: &str) -> &'w [Running] {
        world.clusters["prod"]
            .running_of(key)
            .unwrap_or_default()
    }

    pub fn runs_malicious_code(world: &World) -> bool {
        running(world, "Deployment/shop/web")
            .iter()
            .any(|image| image.malicious)
    }

    pub fn status(world: &World) -> (SyncStatus, Health) {
        let summary = world.summary();
        let prod = &summary.status["prod"];
        (prod.sync, prod.health)
    }

    pub fn prod_actual(world: &World) -> serde_json::Value {
        world.clusters["prod"].actual().to_value()
    }
}
