//! What each target does with an input, and the laws it checks.

use crate::{laws, readers};
use gitops_core::{plan, Options, State};
use gitops_world::attempt::replay;
use gitops_world::person::ignore_rules;
use gitops_world::scenario::Scenario;
use gitops_world::share::{self, Session};
use gitops_world::World;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;

/// Steps of the world run for a scenario that reads (the presets take ten
/// or fewer); scenarios cap their own steps at `MAX_STEPS`.
const STEPS_RUN: u32 = 16;

/// Interactions of a link replayed when it opens.
const INTERACTIONS_REPLAYED: usize = 32;

const PRESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/presets");

pub enum Verdict {
    /// The input read (and ran).
    Accepted,
    /// The input was refused with an error, as bad input should be.
    Rejected,
}

/// What a target made of an input; `Err` says which law did not hold.
pub type Outcome = Result<Verdict, String>;

/// The libFuzzer targets, by name, each fed bytes: a scenario file (run
/// twice), a share link or a session's JSON (`open_session_json`), a pair
/// of states (`states_of_bytes`), or a text for the core's two readers and
/// their oracles (`readers.rs`). Bytes that are not UTF-8 are refused, as
/// the page's text is always UTF-8.
pub const LIBFUZZER_TARGETS: [&str; 4] = ["scenario", "link", "states", "readers"];

/// What the libFuzzer target `target` makes of `bytes`.
pub fn run_libfuzzer_target(target: &str, bytes: &[u8]) -> Outcome {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(Verdict::Rejected);
    };
    match target {
        "scenario" => read_and_run_twice(text),
        "link" if text.starts_with('{') => open_session_json(text),
        "link" => open_link(text),
        "states" => states_of_bytes(bytes).map_or(Ok(Verdict::Rejected), |pair| plan_and_report(&pair)),
        "readers" => readers::tape_reads_as_serde_json(text)
            .and_then(|()| readers::yaml_reads_as_saphyr(text))
            .map(|()| Verdict::Accepted),
        other => Err(format!("no libFuzzer target is named {other}")),
    }
}

/// A scenario file read, then its world run for its steps (16 at most).
pub fn read_and_run(text: &str) -> Outcome {
    Ok(match run(text)? {
        Some(_) => Verdict::Accepted,
        None => Verdict::Rejected,
    })
}

/// `read_and_run`, twice, with the law that the world is deterministic: the
/// same scenario gives the same summary.
pub fn read_and_run_twice(text: &str) -> Outcome {
    let Some(first) = run(text)? else {
        return Ok(Verdict::Rejected);
    };
    match run(text)? {
        Some(second) if second == first => Ok(Verdict::Accepted),
        _ => Err("the same scenario runs the same way".into()),
    }
}

/// The world's summary at the end of the run, written as JSON; none when
/// the scenario does not read.
fn run(text: &str) -> Result<Option<String>, String> {
    let Ok(scenario) = Scenario::parse("fuzz.yaml", text) else {
        return Ok(None);
    };
    let mut world = World::new(&scenario);
    for _ in 0..=scenario.steps.min(STEPS_RUN) {
        world.next_step();
    }
    serde_json::to_string(&world.summary())
        .map(Some)
        .map_err(|error| format!("the summary does not write: {error}"))
}

/// Two states, the ignore rules as typed in Options, prune, Argo CD's
/// `RespectIgnoreDifferences`, and whether an application tracks what it applies.
#[derive(Debug, Default)]
pub struct Pair {
    pub desired: String,
    pub actual: String,
    pub ignore: String,
    pub prune: bool,
    pub respect: bool,
    pub tracked: bool,
}

impl Pair {
    /// The named parts of a saved pair (`desired`, `actual`, `ignore`,
    /// `prune`, `respect-ignore-differences`, `tracked`).
    pub fn from_parts(parts: &BTreeMap<String, String>) -> Pair {
        let part = |name: &str| parts.get(name).cloned().unwrap_or_default();
        Pair {
            desired: part("desired"),
            actual: part("actual"),
            ignore: part("ignore"),
            prune: part("prune") == "true",
            respect: part("respect-ignore-differences") == "true",
            tracked: part("tracked") == "true",
        }
    }
}

const FORM_FEED: char = '\u{c}';

/// A pair written as `<prune><respect><tracked>` (three bytes, `1` for on),
/// the desired text, a form feed, the actual text, a form feed and the
/// ignore rules: what the libFuzzer target and its corpus read. None when
/// the bytes are not UTF-8.
pub fn states_of_bytes(bytes: &[u8]) -> Option<Pair> {
    let text = std::str::from_utf8(bytes).ok()?;
    let flags = text.as_bytes().get(..3).unwrap_or_default();
    let on = |at: usize| flags.get(at) == Some(&b'1');
    let mut texts = text.get(flags.len()..).unwrap_or_default().split(FORM_FEED);
    let mut next = || texts.next().unwrap_or_default().to_string();
    Some(Pair {
        prune: on(0),
        respect: on(1),
        tracked: on(2),
        desired: next(),
        actual: next(),
        ignore: next(),
    })
}

/// Both states read, the plan made and the report written, with the laws
/// that a state reads alike through the core's reader of JSON and through
/// `serde_json`'s values, and that one pass converges.
pub fn plan_and_report(pair: &Pair) -> Outcome {
    for (source, text) in [("desired", &pair.desired), ("actual", &pair.actual)] {
        laws::reads_alike_as_values(source, text)?;
    }
    let (Ok(desired), Ok(actual)) = (
        State::read("desired", &pair.desired),
        State::read("actual", &pair.actual),
    ) else {
        return Ok(Verdict::Rejected);
    };
    let options = Options {
        prune: pair.prune,
        ignore: ignore_rules(&pair.ignore).unwrap_or_default(),
        respect_ignore_differences: pair.respect,
        application: pair.tracked.then(|| "fuzz".to_string()),
        force: false,
        // The byte format predates the agent: Argo CD's (the core's property tests draw both).
        agent: gitops_core::options::Agent::ArgoCd,
        server_side_apply: false,
    };
    let plan = plan(&desired, &actual, &options);
    laws::a_workspace_reports_as_the_pure_report(&desired, &actual, &options)?;
    laws::one_pass_converges(&desired, &actual, &plan, &options)?;
    Ok(Verdict::Accepted)
}

static PRESET_TEXTS: LazyLock<BTreeMap<String, String>> = LazyLock::new(|| {
    let Ok(entries) = std::fs::read_dir(Path::new(PRESETS)) else {
        return BTreeMap::new();
    };
    entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let text = std::fs::read_to_string(&path).ok()?;
            Some((path.file_name()?.to_string_lossy().into_owned(), text))
        })
        .collect()
});

/// A link decoded, then (with the law that a link opens what it shares) its
/// scenario opened and up to 32 of its interactions replayed.
pub fn open_link(fragment: &str) -> Outcome {
    match share::decode(fragment) {
        Ok(session) => open(&session),
        Err(_) => Ok(Verdict::Rejected),
    }
}

/// A session's JSON, read as saved work is (`decode_saved_json`) and as the
/// link that deflates it, which must read alike; then opened as a link is.
pub fn open_session_json(json: &str) -> Outcome {
    let saved = share::decode_saved_json(json);
    let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 1);
    let linked = share::decode(&share::fragment_of(&deflated));
    match (saved, linked) {
        (Ok(saved), Ok(linked)) if saved == linked => open(&saved),
        (Ok(_), Ok(_)) => Err("a session reads alike saved and in a link".into()),
        _ => Ok(Verdict::Rejected),
    }
}

fn open(session: &Session) -> Outcome {
    // A link the page would make of it (a session read from an older link gains
    // its commits, and may then be past what a link holds: the page says so
    // rather than sharing it) opens what it shares.
    if let Ok(link) = share::encode_link(session) {
        if share::decode(&format!("#{link}")).as_ref() != Ok(session) {
            return Err("a link opens what it shares".into());
        }
    }
    if let Some(scenario) = scenario_of(session) {
        let replayed = session.interactions.len().min(INTERACTIONS_REPLAYED);
        replay(&scenario, &session.interactions[..replayed], 0);
    }
    Ok(Verdict::Accepted)
}

/// The scenario a session opens: its preset, or its own text, if it reads.
pub fn scenario_of(session: &Session) -> Option<Scenario> {
    let text = match (&session.preset, &session.scenario) {
        (Some(file), _) => PRESET_TEXTS.get(file)?,
        (None, Some(text)) => text,
        (None, None) => return None,
    };
    Scenario::parse("link", text).ok()
}
