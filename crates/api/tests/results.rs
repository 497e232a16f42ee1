//! The JavaScript API lesson pages call, in headless Chromium: plain objects in, plain
//! objects out; states as JSON or YAML, as text or as its bytes; options, scenarios
//! and the version.

#![cfg(target_arch = "wasm32")]

mod common;

use common::{actual, back, desired, input_error, js, message, property, prune, steps};
use gitops_api as api;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn diff_plans_the_worked_example() {
    let plan = api::diff(js(desired()), js(actual()), prune()).unwrap();
    assert!(js_sys::Array::is_array(&plan));
    let plan = back(&plan);
    assert_eq!(
        steps(&plan),
        ["delete debug", "update web"],
        "prunes run first in their wave"
    );
    assert_eq!(plan[1]["object"], desired()["web"]);
    assert_eq!(plan[1]["changes"][0]["path"], "/replicas");
}

#[wasm_bindgen_test]
fn results_are_plain_objects_not_maps() {
    let plan = api::diff(js(desired()), js(actual()), prune()).unwrap();
    let update = js_sys::Reflect::get(&plan, &JsValue::from_f64(1.0)).unwrap();
    assert!(!update.is_instance_of::<js_sys::Map>());
    let object = js_sys::Reflect::get(&update, &JsValue::from_str("object")).unwrap();
    assert!(!object.is_instance_of::<js_sys::Map>());
    let replicas = js_sys::Reflect::get(&object, &JsValue::from_str("replicas")).unwrap();
    assert_eq!(replicas.as_f64(), Some(3.0));
}

#[wasm_bindgen_test]
fn apply_of_the_plan_gives_the_desired_state() {
    let plan = api::diff(js(desired()), js(actual()), prune()).unwrap();
    let next = api::apply(plan, js(actual())).unwrap();
    assert_eq!(back(&next), desired());
}

#[wasm_bindgen_test]
fn apply_keeps_the_form_of_the_actual_state() {
    let desired = json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"x": "1"}}]);
    let plan = api::diff(js(desired.clone()), js(json!([])), None).unwrap();
    let next = back(&api::apply(plan, js(json!([]))).unwrap());
    assert!(next.is_array(), "{next}");
    assert_eq!(next[0]["data"], json!({"x": "1"}));
}

#[wasm_bindgen_test]
fn drift_lists_the_changed_and_the_extra() {
    let drift = back(&api::drift(js(desired()), js(actual()), prune()).unwrap());
    assert_eq!(drift["changed"], json!(["web"]));
    assert_eq!(drift["extra"], json!(["debug"]));
    assert_eq!(drift["missing"], json!([]));
    assert_eq!(drift["changes"]["web"][0]["path"], "/replicas");
}

#[wasm_bindgen_test]
fn report_has_plan_drift_status_objects_and_warnings() {
    let report = back(&api::report(js(desired()), js(actual()), prune()).unwrap());
    assert_eq!(report["status"]["sync"], "OutOfSync");
    assert_eq!(steps(&report["plan"]), ["delete debug", "update web"]);
    assert_eq!(report["drift"]["extra"], json!(["debug"]));
    assert!(report["objects"].is_array());
    assert!(report["warnings"].is_array());
}

#[wasm_bindgen_test]
fn states_may_be_json_or_yaml_text() {
    let desired = "web:\n  image: registry.example/web:2.0.1\n  replicas: 3\n";
    let actual = r#"{"web": {"image": "registry.example/web:2.0.1", "replicas": 3}}"#;
    let report =
        back(&api::report(JsValue::from_str(desired), JsValue::from_str(actual), None).unwrap());
    assert_eq!(report["status"]["sync"], "Synced");
}

/// `text`'s UTF-8 bytes, as `fetch`'s `bytes()` gives them.
fn bytes(text: &str) -> js_sys::Uint8Array {
    js_sys::Uint8Array::from(text.as_bytes())
}

#[wasm_bindgen_test]
fn states_may_be_the_bytes_of_their_text() {
    let desired = r#"{"café": {"image": "a:1"}, "web": {"image": "registry.example/web:2.0.1", "replicas": 3}}"#;
    let actual = "web:\n  image: registry.example/web:2.0.1\n  replicas: 10\n";
    let from_text =
        back(&api::diff(JsValue::from_str(desired), JsValue::from_str(actual), None).unwrap());
    let from_bytes = back(&api::diff(bytes(desired).into(), bytes(actual).into(), None).unwrap());
    assert_eq!(steps(&from_bytes), ["create café", "update web"]);
    assert_eq!(from_bytes, from_text);
    let buffer = bytes(desired).buffer();
    let from_buffer = back(&api::diff(buffer.into(), bytes(actual).into(), None).unwrap());
    assert_eq!(from_buffer, from_text, "an ArrayBuffer reads as its bytes");
}

#[wasm_bindgen_test]
fn bytes_that_are_not_utf8_throw_where_they_stop_being_text() {
    let mut text = b"{\n  \"web\": \"a".to_vec();
    text.push(0xff);
    let error = input_error(
        api::diff(
            js_sys::Uint8Array::from(&text[..]).into(),
            js(actual()),
            None,
        ),
        "syntax",
        "desired",
    );
    assert_eq!(property(&error, "line").as_f64(), Some(2.0));
    assert_eq!(
        property(&error, "column").as_f64(),
        Some(12.0),
        "the byte after `  \"web\": \"a`"
    );
    assert_eq!(
        message(&error),
        "desired, line 2, column 12: the bytes are not UTF-8 text"
    );
}

#[wasm_bindgen_test]
fn texts_keep_every_character() {
    let desired =
        r#"{"café": {"image": "a:1"}, "𝄞-web": {"image": "b:1"}, "名前": {"image": "c:1"}}"#;
    let plan = back(&api::diff(JsValue::from_str(desired), JsValue::from_str("{}"), None).unwrap());
    assert_eq!(steps(&plan), ["create café", "create 名前", "create 𝄞-web"]);
    let ascii =
        back(&api::diff(js(json!({})), JsValue::from_str(r#"{"web": {}}"#), prune()).unwrap());
    assert_eq!(steps(&ascii), ["delete web"]);
}

#[wasm_bindgen_test]
fn a_lone_surrogate_in_a_text_reads_as_the_replacement_character() {
    let lone = js_sys::JsString::from_char_code1(0xD800);
    let desired = js_sys::JsString::from(r#"{""#)
        .concat(&lone)
        .concat(&JsValue::from_str(r#"x": {"image": "a:1"}}"#));
    let plan = back(&api::diff(desired.into(), JsValue::from_str("{}"), None).unwrap());
    assert_eq!(steps(&plan), ["create \u{FFFD}x"]);
}

#[wasm_bindgen_test]
fn undefined_or_null_options_are_the_defaults() {
    for options in [
        None,
        Some(JsValue::UNDEFINED),
        Some(JsValue::NULL),
        Some(js(json!({}))),
    ] {
        let plan = back(&api::diff(js(desired()), js(actual()), options).unwrap());
        assert_eq!(steps(&plan), ["update web"], "without prune, debug stays");
    }
}

#[wasm_bindgen_test]
fn ignore_rules_are_read_as_in_scenarios() {
    let options = js(json!({"prune": true, "ignore": ["/replicas"]}));
    let plan = back(&api::diff(js(desired()), js(actual()), Some(options)).unwrap());
    assert_eq!(steps(&plan), ["delete debug"]);
}

#[wasm_bindgen_test]
fn run_of_a_preset_returns_events_and_the_final_world() {
    let text = include_str!("../../../static/presets/compromise-pull.yaml");
    let result = back(&api::run(JsValue::from_str(text)).unwrap());
    assert!(!result["events"].as_array().unwrap().is_empty());
    assert_eq!(result["final"]["status"]["prod"]["sync"], "Synced");
}

#[wasm_bindgen_test]
fn run_accepts_a_scenario_object() {
    let scenario: Value =
        serde_json::from_str(include_str!("../../../static/presets/worked-example.json")).unwrap();
    let result = back(&api::run(js(scenario)).unwrap());
    assert!(result["events"].is_array());
    assert_eq!(result["final"]["status"]["prod"]["sync"], "Synced");
    assert_eq!(result["final"]["actual"]["prod"], desired());
}

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    assert_eq!(api::version(), env!("CARGO_PKG_VERSION"));
}
