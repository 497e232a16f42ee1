//! A typed value read from JSON says what `serde_json::from_value` says, at
//! the pointer `serde_path_to_error` finds: the two are its oracle, for
//! fitting values, near misses and values drawn at random from the same
//! names, natively and in the browser; a struct written as an array is the one
//! thing it refuses that they read.

use gitops_core::text::typed::{from_json, read, typed};
use gitops_core::ErrorKind;
use gitops_testing::{everywhere, laws};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A type with every shape the scenario's types use.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Lesson {
    name: String,
    #[serde(default)]
    steps: Vec<Step>,
    #[serde(default)]
    limits: Option<Limits>,
    #[serde(default)]
    labels: BTreeMap<String, String>,
    #[serde(default)]
    pair: Option<(u32, bool)>,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    either: Option<Either>,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum Step {
    Wait,
    Sync(Option<Target>),
    Set { file: String, to: Value },
    Scale(String, u8),
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Target {
    env: String,
    #[serde(default)]
    wave: i64,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Limits {
    max_steps: u32,
    #[serde(default)]
    ratio: f64,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Push,
    Pull,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(untagged)]
enum Either {
    Number(i32),
    Names(Vec<String>),
}

/// What the oracle says: the value, or the pointer and the message.
fn oracle(value: &Value) -> Result<Lesson, (String, String)> {
    serde_path_to_error::deserialize::<_, Lesson>(value.clone()).map_err(|error| {
        let pointer = error
            .path()
            .iter()
            .filter_map(|segment| match segment {
                serde_path_to_error::Segment::Seq { index } => Some(format!("/{index}")),
                serde_path_to_error::Segment::Map { key }
                | serde_path_to_error::Segment::Enum { variant: key } => {
                    Some(format!("/{}", gitops_core::pointer::escape(key)))
                }
                serde_path_to_error::Segment::Unknown => None,
            })
            .collect();
        (pointer, error.into_inner().to_string())
    })
}

fn ours(value: &Value) -> Result<Lesson, (String, String)> {
    read::<Lesson>(value.clone()).map_err(|mismatch| {
        (
            mismatch.pointer().to_string(),
            mismatch.message().to_string(),
        )
    })
}

/// Ours says what the oracle says, but where a struct is written as an array: that
/// is refused there, where `serde_json` reads the items as the struct's fields in
/// order. With that array taken out (null in its place), the two agree again.
fn agrees(value: Value) {
    let (ours, oracle) = (ours(&value), oracle(&value));
    if let Err((pointer, message)) = &ours {
        if message.starts_with("invalid type: sequence, expected struct ") {
            let mut without = value.clone();
            let array = without.pointer_mut(pointer).filter(|found| found.is_array());
            let Some(array) = array else {
                panic!("reading {value}: {message} at {pointer}, which holds no array");
            };
            *array = Value::Null;
            return agrees(without);
        }
    }
    assert_eq!(ours, oracle, "reading {value}");
}

everywhere! {
    fn a_fitting_value_reads_as_serde_json_reads_it() {
        let value = json!({
            "name": "web",
            "steps": ["wait", {"sync": null}, {"sync": {"env": "prod", "wave": -2}},
                      {"set": {"file": "a/b", "to": {"x": [1, 2.5]}}}, {"scale": ["web", 3]}],
            "limits": {"maxSteps": 10, "ratio": 0.5},
            "labels": {"a/b~c": "d"},
            "pair": [7, true],
            "mode": "pull",
            "either": ["x"],
        });
        agrees(value.clone());
        let lesson = read::<Lesson>(value).unwrap();
        assert_eq!(lesson.steps.len(), 5);
        assert_eq!(lesson.either, Some(Either::Names(vec!["x".into()])));
    }

    fn each_near_miss_is_placed_where_the_oracle_places_it() {
        let misses = [
            json!(null),
            json!([]),
            json!({}),
            json!({"name": 1}),
            json!({"name": null}),
            json!({"name": "web", "bogus": 1}),
            json!({"name": "web", "steps": {"wait": 1}}),
            json!({"name": "web", "steps": ["wait", "jump"]}),
            json!({"name": "web", "steps": ["wait", {"wait": 3}]}),
            json!({"name": "web", "steps": [{"sync": {"env": "prod", "wave": 1.5}}]}),
            json!({"name": "web", "steps": [{"sync": {"env": "prod", "extra": 1}}]}),
            json!({"name": "web", "steps": [{"set": {"file": "a"}}]}),
            json!({"name": "web", "steps": [{"set": "a"}]}),
            json!({"name": "web", "steps": ["set"]}),
            json!({"name": "web", "steps": ["scale"]}),
            json!({"name": "web", "steps": [{"scale": ["web", 300]}]}),
            json!({"name": "web", "steps": [{"scale": ["web"]}]}),
            json!({"name": "web", "steps": [{"scale": ["web", 1, 2]}]}),
            json!({"name": "web", "steps": [{"wait": null, "sync": null}]}),
            json!({"name": "web", "steps": [7]}),
            json!({"name": "web", "limits": {"maxSteps": -1}}),
            json!({"name": "web", "limits": {"maxSteps": 4294967296u64}}),
            json!({"name": "web", "limits": {}}),
            json!({"name": "web", "limits": {"maxSteps": 1, "ratio": "half"}}),
            json!({"name": "web", "limits": [3, "x"]}),
            json!({"name": "web", "limits": [3, 0.5, 1]}),
            json!({"name": "web", "labels": {"a/b~c": 1}}),
            json!({"name": "web", "pair": [1]}),
            json!({"name": "web", "pair": [1, 2]}),
            json!({"name": "web", "pair": [-1, true]}),
            json!({"name": "web", "mode": "Push"}),
            json!({"name": "web", "mode": 1.25}),
            json!({"name": "web", "either": {"a": 1}}),
            json!({"name": "web", "either": 1e10}),
        ];
        for miss in misses {
            assert!(oracle(&miss).is_err(), "{miss} is a miss");
            agrees(miss);
        }
    }

    fn a_json_text_reads_as_its_value_does_with_the_mismatch_placed_in_the_message() {
        let text = r#"{"name": "web", "steps": ["wait", {"set": {"file": "a"}}]}"#;
        assert_eq!(
            from_json::<Lesson>(text).unwrap_err(),
            "/steps/1/set: missing field `to`"
        );
        assert_eq!(from_json::<Lesson>("[]").unwrap_err(), "invalid type: sequence, expected struct Lesson");
        assert_eq!(from_json::<Lesson>(r#"{"name": "#).unwrap_err(), "EOF while parsing a value at line 1 column 9");
        assert_eq!(from_json::<Lesson>(r#"{"name": "web"}"#).unwrap().name, "web");
    }

    fn a_mismatch_is_a_located_shape_error_of_its_source() {
        let error = typed::<Lesson>("lesson.json", json!({"name": "web", "steps": ["wait", "jump"]}))
            .unwrap_err();
        assert_eq!(error.kind, ErrorKind::Shape);
        assert_eq!(error.pointer.as_deref(), Some("/steps/1"));
        assert_eq!(
            error.to_string(),
            "lesson.json at /steps/1: unknown variant `jump`, expected one of `wait`, `sync`, `set`, `scale`"
        );
    }
}

/// Values drawn from the type's own names and shapes, mostly near misses.
fn drawn() -> impl Strategy<Value = Value> {
    let names = prop::sample::select(vec![
        "name", "steps", "limits", "labels", "pair", "mode", "either", "wait", "sync", "set",
        "scale", "file", "to", "env", "wave", "maxSteps", "ratio", "push", "pull", "a/b",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..400).prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
        names.clone().prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::vec((names.clone(), inner), 0..5).prop_map(|entries| Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect()
            )),
        ]
    })
}

laws! {
    fn any_value_reads_as_the_oracle_reads_it(value in drawn()) {
        agrees(value);
    }

    fn any_value_under_a_name_reads_as_the_oracle_reads_it(steps in drawn(), limits in drawn()) {
        agrees(json!({"name": "web", "steps": [steps], "limits": limits}));
    }
}
