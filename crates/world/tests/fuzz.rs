//! Fuzzing the three ways text enters the playground: scenario files (read,
//! then run by the world), the core (two states read, then planned and
//! reported) and share links (decoded, then opened and replayed). Inputs are
//! seeds from `tests/fuzz/corpus/` mutated by proptest, or noise. No input may
//! panic, hang or take unbounded memory; the core keeps the law that one pass
//! converges, and a link opens what it shares (`tests/properties.rs`).
//!
//! `FUZZ_CASES` sets the inputs per target (2,000 by default), `FUZZ_SEED`
//! repeats a run; `scripts/fuzz` runs the long campaign in release mode.

#![cfg(not(target_arch = "wasm32"))]

#[path = "fuzz/harness.rs"]
mod harness;
#[path = "fuzz/inputs.rs"]
mod inputs;
#[path = "fuzz/laws.rs"]
mod laws;
#[path = "fuzz/mutate.rs"]
mod mutate;
#[path = "fuzz/reshape.rs"]
mod reshape;
#[path = "fuzz/seeds.rs"]
mod seeds;

use gitops_core::{plan, report, Options, State};
use gitops_world::attempt::replay;
use gitops_world::person::ignore_rules;
use gitops_world::scenario::Scenario;
use gitops_world::share::{self, Session};
use gitops_world::World;
use harness::{fuzz, Input, Outcome, Verdict};
use mutate::{DOCUMENT_TOKENS, LINK_TOKENS};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

/// Steps of the world run for a scenario that reads (the presets take ten
/// or fewer); scenarios cap their own steps at `MAX_STEPS`.
const STEPS_RUN: u32 = 16;

/// Interactions of a link replayed when it opens.
const INTERACTIONS_REPLAYED: usize = 32;

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
        State::read_cached(&file, &text).unwrap_or_else(|error| panic!("{error}"));
    }
    for text in ignore_seeds() {
        ignore_rules(&text).unwrap_or_else(|error| panic!("{error}"));
    }
    for (file, text) in seeds::corpus_files("link") {
        let session = share::decode(&text).unwrap_or_else(|error| panic!("{file}: {error}"));
        assert!(scenario_of(&session).is_some(), "{file} opens a scenario");
    }
}

/// Each input that once failed (a campaign's, `cargo fuzz`'s, or an issue's),
/// kept in `tests/fuzz/regressions/` as `<target>-<name>.<part>`, passes its
/// target now.
#[test]
fn every_input_that_once_failed_passes_now() {
    let regressions = seeds::regressions();
    assert!(!regressions.is_empty(), "the regressions are there");
    for ((target, name), parts) in regressions {
        let whole = |part: &str| parts.get(part).cloned().unwrap_or_default();
        let only_part = || parts.values().next().cloned().unwrap_or_default();
        let run = || match target.as_str() {
            "scenario" => read_and_run(&only_part()),
            "link" => open_link(&only_part()),
            "core" => plan_and_report(&Pair {
                desired: whole("desired"),
                actual: whole("actual"),
                ignore: whole("ignore"),
                prune: whole("prune") == "true",
                respect: whole("respect-ignore-differences") == "true",
                tracked: whole("tracked") == "true",
            }),
            other => Err(format!("no target is named {other}")),
        };
        match std::panic::catch_unwind(run) {
            Ok(Ok(_)) => {}
            Ok(Err(law)) => panic!("{target}-{name}: a law does not hold: {law}"),
            Err(_) => panic!("{target}-{name} panicked (its message is above)"),
        }
    }
}

fn read_and_run(text: &str) -> Outcome {
    let Ok(scenario) = Scenario::parse("fuzz.yaml", text) else {
        return Ok(Verdict::Rejected);
    };
    let mut world = World::new(&scenario);
    for _ in 0..=scenario.steps.min(STEPS_RUN) {
        world.next_step();
    }
    serde_json::to_string(&world.summary())
        .map_err(|error| format!("the summary does not write: {error}"))?;
    Ok(Verdict::Accepted)
}

/// Two states, the ignore rules as typed in Options, prune, Argo CD's
/// `RespectIgnoreDifferences`, and whether an application tracks what it applies.
#[derive(Debug)]
struct Pair {
    desired: String,
    actual: String,
    ignore: String,
    prune: bool,
    respect: bool,
    tracked: bool,
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

fn plan_and_report(pair: &Pair) -> Outcome {
    let (Ok(desired), Ok(actual)) = (
        State::read_cached("desired", &pair.desired),
        State::read_cached("actual", &pair.actual),
    ) else {
        return Ok(Verdict::Rejected);
    };
    let options = Options {
        prune: pair.prune,
        ignore: ignore_rules(&pair.ignore).unwrap_or_default(),
        respect_ignore_differences: pair.respect,
        application: pair.tracked.then(|| "fuzz".to_string()),
        force: false,
    };
    let plan = plan(&desired, &actual, &options);
    report(&desired, &actual, &options);
    laws::one_pass_converges(&desired, &actual, &plan, &options)?;
    Ok(Verdict::Accepted)
}

static PRESETS: LazyLock<BTreeMap<String, String>> = LazyLock::new(seeds::presets);

fn open_link(fragment: &str) -> Outcome {
    let Ok(session) = share::decode(fragment) else {
        return Ok(Verdict::Rejected);
    };
    if share::decode(&share::encode(&session)).as_ref() != Ok(&session) {
        return Err("a link opens what it shares".into());
    }
    if let Some(scenario) = scenario_of(&session) {
        let replayed = session.interactions.len().min(INTERACTIONS_REPLAYED);
        replay(&scenario, &session.interactions[..replayed], 0);
    }
    Ok(Verdict::Accepted)
}

/// The scenario a session opens: its preset, or its own text, if it reads.
fn scenario_of(session: &Session) -> Option<Scenario> {
    let text = match (&session.preset, &session.scenario) {
        (Some(file), _) => PRESETS.get(file)?,
        (None, Some(text)) => text,
        (None, None) => return None,
    };
    Scenario::parse("link", text).ok()
}
