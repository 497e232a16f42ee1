//! A JSON state read into a tape (`state/read.rs`, the `tapes` feature) is the
//! state its value reads as, object for object, and fails with the same error;
//! and the report on states in tapes is the report on the same states built:
//! plan, drift, statuses, health and warnings. Natively and in the browser.

mod common;

use common::generate::{desired_and_actual, options};
use gitops_core::diff::changes::{changes, Rules};
use gitops_core::diff::normalize::{last_applied_beside, with_last_applied, Mode};
use gitops_core::text::document::parse_documents;
use gitops_core::text::tape::Tape;
use gitops_core::value::{ValueCow, ValueRef};
use gitops_core::{report, Form, InputError, State};
use proptest::prelude::*;
use serde_json::{json, Value};

/// What the text reads as through `serde_json` values: its one document read
/// by `State::from_value`, or no document at all, an empty state.
#[allow(clippy::result_large_err)] // as the core's own reads
fn read_as_values(source: &str, text: &str) -> Result<State, InputError> {
    match parse_documents(source, text)?.into_iter().next() {
        Some(document) => State::from_value(source, document),
        None => Ok(State::empty(Form::Named)),
    }
}

/// A state as the text of its value, pretty or compact.
fn text_of(state: &State, pretty: bool) -> String {
    written(&state.to_value(), pretty)
}

fn written(value: &Value, pretty: bool) -> String {
    match pretty {
        true => serde_json::to_string_pretty(value),
        false => serde_json::to_string(value),
    }
    .expect("serializes")
}

/// The value with every object's fields in the reverse order: the same JSON.
fn reversed(value: &Value) -> Value {
    match value {
        Value::Object(fields) => {
            Value::Object(fields.iter().rev().map(|(name, value)| (name.clone(), reversed(value))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        other => other.clone(),
    }
}

/// The value with every object's fields sorted by name, as `kubectl` writes
/// a last-applied record.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(fields) => {
            let by_name: std::collections::BTreeMap<_, _> = fields.iter().map(|(name, value)| (name, sorted(value))).collect();
            Value::Object(by_name.into_iter().map(|(name, value)| (name.clone(), value)).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// A Kubernetes state's objects, each with a last-applied record as `records`
/// picks: none; Git's object of its kind and name (or else its own), written
/// compactly in its order, as the world writes one, or sorted, as `kubectl`
/// does; or that object with its fields reversed, which is written in
/// neither order and must be read.
fn recorded(actual: Value, desired: &Value, records: &[u8]) -> Value {
    let Value::Array(objects) = actual else { return actual };
    let same = |a: &Value, b: &Value| a["kind"] == b["kind"] && a["metadata"]["name"] == b["metadata"]["name"];
    let objects = objects.into_iter().zip(records.iter().cycle()).map(|(mut object, record)| {
        let declared = desired.as_array().and_then(|desired| desired.iter().find(|declared| same(declared, &object)));
        let applied = declared.cloned().unwrap_or_else(|| object.clone());
        let record = match record % 4 {
            0 => return object,
            1 => applied,
            2 => sorted(&applied),
            _ => reversed(&applied),
        };
        let record = format!("{}\n", serde_json::to_string(&record).expect("serializes"));
        if let Some(metadata) = object["metadata"].as_object_mut() {
            let annotations = metadata.entry("annotations").or_insert_with(|| json!({}));
            if let Some(annotations) = annotations.as_object_mut() {
                annotations.insert("kubectl.kubernetes.io/last-applied-configuration".into(), Value::String(record));
            }
        }
        object
    });
    Value::Array(objects.collect())
}

/// The state of `text` read into a tape, every object of it kept there.
fn taped(text: &str) -> Result<State, TestCaseError> {
    let state = State::read("taped", text).map_err(|error| TestCaseError::fail(error.message))?;
    prop_assert!(state.objects().values().all(|object| !object.is_built()), "every object in the tape");
    Ok(state)
}

/// A document near a state's shape, and often not one: what a person
/// might write, with every problem the reader names.
fn near_states() -> impl Strategy<Value = Value> {
    let metadata = prop_oneof![
        Just(json!({"name": "web"})),
        Just(json!({"name": "web", "namespace": "shop"})),
        Just(json!({"name": "web", "namespace": 3})),
        Just(json!({"name": ""})),
        Just(json!({"name": null, "generateName": "web-"})),
        Just(json!({"generateName": "migrate-", "annotations": {"argocd.argoproj.io/hook": "PreSync"}})),
        Just(json!({"name": 7})),
        Just(json!({})),
        Just(json!(["web"])),
    ];
    let kind = prop_oneof![
        Just(json!("Deployment")),
        Just(json!("Namespace")),
        Just(json!("")),
        Just(json!(4)),
    ];
    let object = (kind, prop::option::of(metadata)).prop_map(|(kind, metadata)| {
        let mut object = json!({"apiVersion": "v1", "kind": kind});
        if let Some(metadata) = metadata {
            object["metadata"] = metadata;
        }
        object
    });
    let items = prop::collection::vec(object, 0..4);
    prop_oneof![
        items.clone().prop_map(Value::Array),
        items.clone().prop_map(|items| json!({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": items})),
        items.prop_map(|items| items.into_iter().next().unwrap_or(json!({"apiVersion": "v1"}))),
        Just(json!({"web": {"image": "web:1"}, "api": {"image": "api:1"}})),
        Just(json!({"web": {"image": "web:1"}, "api": "api:1"})),
        Just(json!({"web/1": 3})),
        Just(json!({})),
        Just(json!([])),
        Just(json!("web")),
        Just(json!(12)),
        Just(json!(null)),
    ]
}

gitops_testing::laws! {
    /// A state's text, read into a tape, is the state itself.
    fn a_state_reads_the_same_from_a_tape((desired, actual) in desired_and_actual(), pretty in any::<bool>()) {
        for state in [&desired, &actual] {
            let text = text_of(state, pretty);
            prop_assert_eq!(&taped(&text)?, state);
            prop_assert_eq!(taped(&text)?.to_value(), state.to_value());
        }
    }

    /// The report on two states in tapes is the report on them built from the
    /// same texts, whatever order each writes its fields in, and whichever
    /// way a live object's last-applied record was written.
    fn the_report_on_tapes_is_the_report_on_values(
        (desired, actual) in desired_and_actual(),
        options in options(),
        pretty in any::<bool>(),
        reverse_actual in any::<bool>(),
        records in prop::collection::vec(any::<u8>(), 1..8),
    ) {
        let actual = recorded(actual.to_value(), &desired.to_value(), &records);
        let actual = match reverse_actual {
            true => reversed(&actual),
            false => actual,
        };
        let (desired, actual) = (text_of(&desired, pretty), written(&actual, pretty));
        let built = |text: &str| read_as_values("built", text).map_err(|error| TestCaseError::fail(error.message));
        prop_assert_eq!(
            report(&taped(&desired)?, &taped(&actual)?, &options),
            report(&built(&desired)?, &built(&actual)?, &options)
        );
    }

    /// A document near a state's shape reads as its value does: the same state
    /// or the same error, where the value's reader reads one document.
    fn a_document_reads_as_its_value_does(document in near_states(), pretty in any::<bool>()) {
        let text = written(&document, pretty);
        prop_assert_eq!(State::read("near", &text), read_as_values("near", &text));
    }

    /// A state's text cut short or spliced fails as it fails through values.
    fn a_broken_state_fails_alike((desired, _) in desired_and_actual(), cut in any::<prop::sample::Index>(), splice in "[\\]\\[{},:\" a0-]{0,3}") {
        let text = text_of(&desired, true);
        let at = cut.index(text.len() + 1);
        let at = (0..=at).rev().find(|&at| text.is_char_boundary(at)).unwrap_or(0);
        let broken = format!("{}{splice}{}", &text[..at], text.get(at + 3..).unwrap_or(""));
        prop_assume!(!broken.trim().is_empty());
        prop_assume!(parse_documents("broken", &broken).map_or(true, |documents| documents.len() == 1));
        prop_assert_eq!(State::read("broken", &broken), read_as_values("broken", &broken));
    }
}

/// Values written alike in two tapes are passed over whole, but not a
/// Kubernetes object's list merged by key: with a key written twice the
/// walk finds a change in it, and finds it in tapes too.
#[test]
fn values_written_alike_change_as_built_ones() {
    let containers = |containers: Value| {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"template": {"spec": {"containers": containers}}}})
    };
    let twice = containers(json!([{"name": "app", "image": "web:1"}, {"name": "app", "image": "web:2"}]));
    let once = containers(json!([{"name": "app", "image": "web:1"}, {"name": "proxy", "image": "proxy:1"}]));
    for (mode, value, found) in [
        (Mode::Kubernetes, &twice, 1),
        (Mode::Kubernetes, &once, 0),
        (Mode::Exact, &twice, 0),
    ] {
        let text = serde_json::to_string(value).unwrap();
        let [desired, live] = ["desired", "live"].map(|source| Tape::parse(source, text.clone().into()).unwrap());
        let rules = Rules {
            mode,
            ignored: &[],
        };
        let taped = changes(desired.root(), live.root(), None, rules);
        assert_eq!(taped, changes(value, value, None, rules), "{mode:?} {value}");
        assert_eq!(taped.len(), found, "{mode:?} {value}");
    }
}

#[test]
fn a_taped_record_is_read_where_it_lies_and_not_kept() {
    let applied = json!({"kind": "Service", "metadata": {"name": "web"}, "spec": {"a": 1}});
    let live = with_last_applied(applied.clone(), &applied);
    let tape = Tape::parse("live", serde_json::to_string(&live).unwrap().into()).unwrap();
    let before = tape.heap_bytes();
    let record = last_applied_beside(tape.root(), ValueRef::from(&applied));
    assert!(record.is_some_and(|record| record.is_same()));
    let changed = json!({"kind": "Service", "metadata": {"name": "web"}, "spec": {"a": 2}});
    let record = last_applied_beside(tape.root(), ValueRef::from(&changed));
    assert_eq!(record.map(ValueCow::into_owned), Some(applied));
    assert_eq!(tape.heap_bytes(), before, "the record was kept as it reads");
}
