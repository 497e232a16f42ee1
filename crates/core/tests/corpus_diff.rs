//! Real objects from real clusters (gitops-engine's test data), compared as
//! Argo CD compares them: in sync or not, and which fields differ; the
//! objects built, and read where they lie in their texts (tapes).

mod common;

use gitops_testing::everywhere;

use gitops_core::diff::changes::{changes, Change, Rules};
use gitops_core::diff::normalize::{desired_as_stored, last_applied, Mode};
use gitops_core::state::key_of;
use gitops_core::state::namespace::placed_in;
use gitops_core::text::tape::Tape;
use gitops_core::value::ValueRef;
use serde_json::Value;

macro_rules! pair {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("fixtures/argo-cd/diff/", $name, "-config.json")),
            include_str!(concat!("fixtures/argo-cd/diff/", $name, "-live.json")),
        )
    };
}

const PAIRS: [(&str, &str, &str); 9] = [
    pair!("deployment"),
    pair!("elasticsearch"),
    pair!("elasticsearch-changed"),
    pair!("endpoints"),
    pair!("grafana-clusterrole"),
    pair!("mutatingwebhookconfig"),
    pair!("sealedsecret"),
    pair!("spinnaker-sa"),
    pair!("wordpress"),
];

const EXPECTED: &str = include_str!("fixtures/argo-cd/expected.json");

/// The paths that differ between a config (Git) and a live object, the
/// config placed in its application's destination namespace (`placed_in`),
/// which is where the live object was deployed. The changes found in tapes of
/// the two objects must be those found in them built.
fn changed_paths(config: &str, live: &str) -> Vec<String> {
    let config: Value = serde_json::from_str(config).unwrap();
    let live: Value = serde_json::from_str(live).unwrap();
    let destination = live.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or("default");
    let config = placed_in(&config, destination).unwrap_or(config);
    let last = last_applied(&live);
    let rules = Rules {
        mode: Mode::Kubernetes,
        ignored: &[],
    };
    let desired = desired_as_stored(&config).into_owned();
    let built = changes(&desired, &live, last.as_ref().map(ValueRef::from), rules);
    let tape = |value: &Value| Tape::parse("object", serde_json::to_string(value).unwrap().into()).unwrap();
    let (desired_tape, live_tape) = (tape(&desired), tape(&live));
    let taped = changes(desired_tape.root(), live_tape.root(), last.as_ref().map(ValueRef::from), rules);
    assert_eq!(built, taped, "built and taped");
    built.into_iter().map(|change: Change| change.path).collect()
}

everywhere! {
    fn every_pair_is_judged_as_argo_cd_judges_it() {
        let expected: Value = serde_json::from_str(EXPECTED).unwrap();
        let mut wrong = Vec::new();
        for (name, config, live) in PAIRS {
            let outcome = &expected["diff"][name];
            let paths = changed_paths(config, live);
            let in_sync = outcome["in_sync"].as_bool().expect("expected.json says in_sync");
            if paths.is_empty() != in_sync {
                wrong.push(format!("{name}: Argo CD says in_sync={in_sync}, we found {paths:?}"));
            }
            if let Some(Value::Array(want)) = outcome.get("changed_paths") {
                let mut want: Vec<&str> = want.iter().filter_map(Value::as_str).collect();
                let mut have: Vec<&str> = paths.iter().map(String::as_str).collect();
                want.sort_unstable();
                have.sort_unstable();
                if want != have {
                    wrong.push(format!("{name}: expected changes at {want:?}, found {have:?}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    fn elasticsearch_and_wordpress_name_no_namespace_and_land_in_their_destination() {
        for name in ["elasticsearch", "wordpress"] {
            let (_, config, live) = PAIRS.iter().find(|(pair, _, _)| *pair == name).unwrap();
            let [config, live]: [Value; 2] = [config, live].map(|text| serde_json::from_str(text).unwrap());
            assert!(config.pointer("/metadata/namespace").is_none(), "{name}");
            let placed = placed_in(&config, live["metadata"]["namespace"].as_str().unwrap()).unwrap();
            assert_eq!(key_of(&placed), key_of(&live), "{name}: Git's object and the live one are one object there");
            assert_ne!(key_of(&config), key_of(&live), "{name}: not in default");
        }
    }

    fn every_pair_names_its_expectation() {
        let expected: Value = serde_json::from_str(EXPECTED).unwrap();
        let named = expected["diff"].as_object().unwrap();
        assert_eq!(named.len(), PAIRS.len());
        assert!(PAIRS.iter().all(|(name, _, _)| named.contains_key(*name)));
    }
}
