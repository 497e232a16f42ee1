//! The campaign: the three targets (`src/targets.rs`) fed seeds from `seeds/`
//! mutated by proptest, or noise. No input may panic, hang or take unbounded
//! memory, and each target's laws hold. Beside it, every input that once
//! failed (`regressions/`) and every input libFuzzer kept (`corpus/`) runs
//! through its target again.
//!
//! `FUZZ_CASES` sets the inputs per target (2,000 by default), `FUZZ_SEED`
//! repeats a run; `scripts/fuzz` runs the long campaign in release mode.

#![cfg(not(target_arch = "wasm32"))]

#[path = "campaign/harness.rs"]
mod harness;
#[path = "campaign/inputs.rs"]
mod inputs;
#[path = "campaign/mutate.rs"]
mod mutate;
#[path = "campaign/reshape.rs"]
mod reshape;
#[path = "campaign/seeds.rs"]
mod seeds;

use gitops_core::State;
use gitops_fuzz::{open_link, plan_and_report, read_and_run, run_libfuzzer_target, scenario_of, Pair};
use gitops_world::person::ignore_rules;
use gitops_world::scenario::Scenario;
use gitops_world::share;
use harness::{fuzz, Input};
use mutate::{DOCUMENT_TOKENS, LINK_TOKENS};
use proptest::prelude::*;
use std::sync::Arc;

/// The least share of each target's inputs that must read (and run): about
/// two thirds of what the mutators reach today (30%, 18% and 29%).
const LEAST_ACCEPTED_SCENARIOS: f64 = 0.2;
const LEAST_ACCEPTED_STATE_PAIRS: f64 = 0.12;
const LEAST_ACCEPTED_LINKS: f64 = 0.2;

#[test]
fn scenario_files_read_and_run_without_panic_or_hang() {
    let scenarios = Arc::new(seeds::of_kind("scenario", DOCUMENT_TOKENS));
    fuzz("scenario", LEAST_ACCEPTED_SCENARIOS, inputs::text(scenarios), |text: &String| {
        read_and_run(text)
    });
}

#[test]
fn the_core_plans_and_reports_any_two_states() {
    let states = Arc::new(seeds::of_kind("state", DOCUMENT_TOKENS));
    let ignores = Arc::new(seeds::documents(ignore_seeds(), DOCUMENT_TOKENS));
    let pairs = (
        inputs::text(states.clone()),
        inputs::actual(states.clone()),
        inputs::text(ignores),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            move |(desired, actual, ignore, prune, respect, tracked)| Pair {
                actual: actual.of(&desired, &states),
                desired,
                ignore,
                prune,
                respect,
                tracked,
            },
        );
    fuzz("core", LEAST_ACCEPTED_STATE_PAIRS, pairs, plan_and_report);
}

#[test]
fn share_links_decode_and_open_without_panic_or_hang() {
    let links = Arc::new(seeds::links(LINK_TOKENS));
    let sessions = Arc::new(seeds::sessions(DOCUMENT_TOKENS));
    let bombs = Arc::new(seeds::bombs(LINK_TOKENS));
    fuzz(
        "link",
        LEAST_ACCEPTED_LINKS,
        inputs::link(links, sessions, bombs),
        |fragment: &String| open_link(fragment),
    );
}

#[test]
fn every_seed_is_real_input_that_reads() {
    for (file, text) in seeds::corpus_files("scenario") {
        Scenario::parse(&file, &text).unwrap_or_else(|error| panic!("{error}"));
    }
    for (file, text) in seeds::corpus_files("state") {
        State::read(&file, &text).unwrap_or_else(|error| panic!("{error}"));
    }
    for text in ignore_seeds() {
        ignore_rules(&text).unwrap_or_else(|error| panic!("{error}"));
    }
    for (file, text) in seeds::corpus_files("link") {
        let session = share::decode(&text).unwrap_or_else(|error| panic!("{file}: {error}"));
        assert!(scenario_of(&session).is_some(), "{file} opens a scenario");
    }
}

/// Each input that once failed (a campaign's, libFuzzer's, or an issue's),
/// kept in `regressions/` as `<target>-<name>.<part>`, passes its target now.
#[test]
fn every_input_that_once_failed_passes_now() {
    let regressions = seeds::regressions();
    assert!(!regressions.is_empty(), "the regressions are there");
    for ((target, name), parts) in regressions {
        let only_part = || parts.values().next().cloned().unwrap_or_default();
        let run = || match target.as_str() {
            "scenario" => read_and_run(&only_part()),
            "link" => open_link(&only_part()),
            "core" => plan_and_report(&Pair::from_parts(&parts)),
            libfuzzer => run_libfuzzer_target(libfuzzer, only_part().as_bytes()),
        };
        passes(&format!("{target}-{name}"), run);
    }
}

/// The inputs libFuzzer kept, each covering something the others do not,
/// run through their targets again: what `cargo fuzz` found stays found.
#[test]
fn every_input_libfuzzer_kept_passes() {
    for target in gitops_fuzz::LIBFUZZER_TARGETS {
        let kept = seeds::libfuzzer_corpus(target);
        assert!(!kept.is_empty(), "libFuzzer's corpus of {target} is there");
        for (file, bytes) in kept {
            passes(&format!("corpus/{target}/{file}"), || run_libfuzzer_target(target, &bytes));
        }
    }
}

fn passes(name: &str, run: impl FnOnce() -> gitops_fuzz::Outcome + std::panic::UnwindSafe) {
    match std::panic::catch_unwind(run) {
        Ok(Ok(_)) => {}
        Ok(Err(law)) => panic!("{name}: a law does not hold: {law}"),
        Err(_) => panic!("{name} panicked (its message is above)"),
    }
}

impl Input for Pair {
    fn parts(&self) -> Vec<(&'static str, &str)> {
        let flag = |on: bool| if on { "true" } else { "false" };
        vec![
            ("desired", &self.desired),
            ("actual", &self.actual),
            ("ignore", &self.ignore),
            ("prune", flag(self.prune)),
            ("respect-ignore-differences", flag(self.respect)),
            ("tracked", flag(self.tracked)),
        ]
    }
}

fn ignore_seeds() -> Vec<String> {
    [
        "- /status\n",
        "- /spec/replicas\n- /metadata/annotations/*\n",
        r#"[{"kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"], "jqPathExpressions": [".spec.template.spec.containers[].image"]}]"#,
        "- jqPathExpressions: [\".metadata.labels[]\", '.metadata.annotations[\"example.com/owner\"]']\n",
        "- kind: HorizontalPodAutoscaler\n  namespace: shop\n  jsonPointers: [/status, /replicas]\n",
        "- group: apps\n  kind: '*'\n  jsonPointers: [/spec/replicas]\n",
        "- paths: [/spec/replicas]\n  target: {group: apps, kind: Deployment}\n",
    ]
    .map(String::from)
    .into()
}
