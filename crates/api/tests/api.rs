//! The JavaScript API lesson pages call, in headless Chromium: plain objects
//! in, plain objects out, and typed errors for bad input.

#![cfg(target_arch = "wasm32")]

use gitops_api as api;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A JavaScript value from JSON text, as a page would build it.
fn js(value: Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).expect("valid JSON")
}

/// A JavaScript result back as JSON.
fn back(value: &JsValue) -> Value {
    let text: String = js_sys::JSON::stringify(value)
        .expect("a result is JSON")
        .into();
    serde_json::from_str(&text).expect("JSON text")
}

fn desired() -> Value {
    json!({
        "api": {"image": "registry.example/api:1.4.2", "replicas": 2},
        "web": {"image": "registry.example/web:2.0.1", "replicas": 3}
    })
}

fn actual() -> Value {
    json!({
        "api": {"image": "registry.example/api:1.4.2", "replicas": 2},
        "web": {"image": "registry.example/web:2.0.1", "replicas": 10},
        "debug": {"image": "busybox:1.36"}
    })
}

fn prune() -> Option<JsValue> {
    Some(js(json!({"prune": true})))
}

/// Each operation of a plan as `op key`.
fn steps(plan: &Value) -> Vec<String> {
    plan.as_array()
        .expect("a plan is an array")
        .iter()
        .map(|operation| {
            format!(
                "{} {}",
                operation["op"].as_str().unwrap(),
                operation["key"].as_str().unwrap()
            )
        })
        .collect()
}

/// A property of a thrown error.
fn property(error: &js_sys::Error, name: &str) -> JsValue {
    js_sys::Reflect::get(error, &JsValue::from_str(name)).expect("a readable property")
}

/// The thrown error, checked to be a `GitopsInputError` of `kind` about `source`.
fn input_error(result: Result<JsValue, js_sys::Error>, kind: &str, source: &str) -> js_sys::Error {
    let error = result.expect_err("the input is bad");
    assert!(error.is_instance_of::<js_sys::Error>());
    assert_eq!(String::from(error.name()), "GitopsInputError");
    assert_eq!(
        property(&error, "kind").as_string().as_deref(),
        Some(kind),
        "{}",
        String::from(error.message())
    );
    assert_eq!(
        property(&error, "source").as_string().as_deref(),
        Some(source)
    );
    error
}

fn message(error: &js_sys::Error) -> String {
    error.message().into()
}

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
    let from_text = back(&api::diff(JsValue::from_str(desired), JsValue::from_str(actual), None).unwrap());
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
        api::diff(js_sys::Uint8Array::from(&text[..]).into(), js(actual()), None),
        "syntax",
        "desired",
    );
    assert_eq!(property(&error, "line").as_f64(), Some(2.0));
    assert_eq!(property(&error, "column").as_f64(), Some(12.0), "the byte after `  \"web\": \"a`");
    assert_eq!(message(&error), "desired, line 2, column 12: the bytes are not UTF-8 text");
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

#[wasm_bindgen_test]
fn a_desired_of_the_wrong_shape_throws_a_shape_error() {
    let error = input_error(
        api::diff(JsValue::from_f64(42.0), js(actual()), None),
        "shape",
        "desired",
    );
    assert_eq!(property(&error, "pointer").as_string().as_deref(), Some(""));
    assert!(property(&error, "line").is_undefined());
    assert!(property(&error, "column").is_undefined());
    assert!(property(&error, "key").is_undefined());
    assert!(
        message(&error).starts_with("desired: a state is an object of named objects"),
        "{}",
        message(&error)
    );
    assert!(
        message(&error).ends_with("found a number"),
        "{}",
        message(&error)
    );
}

#[wasm_bindgen_test]
fn states_of_two_forms_throw() {
    let service = json!([{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"}}]);
    let error = input_error(
        api::report(js(desired()), js(service), prune()),
        "shape",
        "actual",
    );
    assert!(
        message(&error).contains("`desired` holds named objects (the lesson's form) and `actual` holds Kubernetes objects"),
        "{}",
        message(&error)
    );
    assert!(
        api::diff(js(desired()), js(json!([])), None).is_ok(),
        "an empty state goes with either form"
    );
}

#[wasm_bindgen_test]
fn a_named_object_that_is_not_an_object_is_located() {
    let error = input_error(
        api::drift(js(json!({"web": 3})), js(actual()), None),
        "shape",
        "desired",
    );
    assert_eq!(
        property(&error, "pointer").as_string().as_deref(),
        Some("/web")
    );
    assert_eq!(
        message(&error),
        "desired at /web: `web` should be an object, found a number"
    );
}

#[wasm_bindgen_test]
fn undefined_inputs_throw() {
    let errors = [
        input_error(
            api::diff(js(desired()), JsValue::UNDEFINED, None),
            "shape",
            "actual",
        ),
        input_error(
            api::report(JsValue::UNDEFINED, JsValue::UNDEFINED, None),
            "shape",
            "desired",
        ),
        input_error(
            api::apply(JsValue::UNDEFINED, js(actual())),
            "shape",
            "plan",
        ),
        input_error(api::run(JsValue::UNDEFINED), "shape", "scenario"),
    ];
    for error in errors {
        assert!(
            message(&error).ends_with("found undefined"),
            "{}",
            message(&error)
        );
    }
    let error = input_error(api::run(JsValue::NULL), "shape", "scenario");
    assert!(
        message(&error).ends_with("found null"),
        "{}",
        message(&error)
    );
    let error = input_error(
        api::drift(JsValue::NULL, js(actual()), None),
        "shape",
        "desired",
    );
    assert!(
        message(&error).ends_with("found null"),
        "{}",
        message(&error)
    );
}

#[wasm_bindgen_test]
fn duplicate_keys_carry_the_key() {
    let twice = json!([
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "shop"}},
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "shop"}}
    ]);
    let error = input_error(
        api::diff(js(twice), js(json!([])), None),
        "duplicateKey",
        "desired",
    );
    assert_eq!(
        property(&error, "key").as_string().as_deref(),
        Some("Service/shop/web")
    );
    assert!(property(&error, "pointer").is_undefined());
}

#[wasm_bindgen_test]
fn broken_yaml_text_throws_with_a_line_and_column() {
    let error = input_error(
        api::run(JsValue::from_str("desired:\n  web: [1, 2\n")),
        "syntax",
        "scenario",
    );
    assert!(
        property(&error, "line").as_f64().is_some(),
        "{}",
        message(&error)
    );
    assert!(property(&error, "column").as_f64().is_some());
    assert!(
        message(&error).starts_with("scenario, line "),
        "{}",
        message(&error)
    );
}

#[wasm_bindgen_test]
fn broken_state_text_throws_with_a_line_and_column() {
    let error = input_error(
        api::diff(
            JsValue::from_str("{\n  \"web\": {\"replicas\" 3}\n}"),
            js(actual()),
            None,
        ),
        "syntax",
        "desired",
    );
    assert_eq!(property(&error, "line").as_f64(), Some(2.0));
    assert_eq!(property(&error, "column").as_f64(), Some(22.0));
    assert_eq!(message(&error), "desired, line 2, column 22: expected `:`");
}

#[wasm_bindgen_test]
fn a_scenario_object_of_the_wrong_shape_is_located() {
    let error = input_error(
        api::run(js(json!({"desired": {}, "options": {"prunee": true}}))),
        "shape",
        "scenario",
    );
    assert!(
        property(&error, "pointer")
            .as_string()
            .unwrap()
            .starts_with("/options"),
        "{}",
        message(&error)
    );
    assert!(message(&error).contains("prunee"), "{}", message(&error));
}

#[wasm_bindgen_test]
fn a_plan_with_an_unknown_op_throws() {
    let plan = js(json!([{"op": "explode", "key": "web", "wave": 0}]));
    let error = input_error(api::apply(plan, js(actual())), "shape", "plan");
    assert_eq!(
        property(&error, "pointer").as_string().as_deref(),
        Some("/0/op")
    );
    assert!(message(&error).contains("explode"), "{}", message(&error));
}

#[wasm_bindgen_test]
fn a_plan_that_is_not_an_array_throws() {
    let error = input_error(
        api::apply(js(json!({"op": "delete"})), js(actual())),
        "shape",
        "plan",
    );
    assert!(
        message(&error).ends_with("found an object"),
        "{}",
        message(&error)
    );
}

#[wasm_bindgen_test]
fn options_of_the_wrong_shape_throw() {
    let error = input_error(
        api::diff(js(desired()), js(actual()), Some(JsValue::from_f64(1.0))),
        "shape",
        "options",
    );
    assert!(
        message(&error).ends_with("found a number"),
        "{}",
        message(&error)
    );
    let error = input_error(
        api::diff(
            js(desired()),
            js(actual()),
            Some(js(json!({"prune": "yes"}))),
        ),
        "shape",
        "options",
    );
    assert_eq!(
        property(&error, "pointer").as_string().as_deref(),
        Some("/prune")
    );
    let error = input_error(
        api::drift(
            js(desired()),
            js(actual()),
            Some(js(json!({"prunee": true}))),
        ),
        "shape",
        "options",
    );
    assert!(message(&error).contains("prunee"), "{}", message(&error));
    let error = input_error(
        api::report(
            js(desired()),
            js(actual()),
            Some(js(json!({"ignore": ["no-slash"]}))),
        ),
        "shape",
        "options",
    );
    assert!(
        property(&error, "pointer")
            .as_string()
            .unwrap()
            .starts_with("/ignore"),
        "{}",
        message(&error)
    );
}

#[wasm_bindgen_test]
fn an_object_that_contains_itself_throws() {
    let web = js_sys::Object::new();
    js_sys::Reflect::set(&web, &"replicas".into(), &JsValue::from_f64(3.0)).unwrap();
    js_sys::Reflect::set(&web, &"self".into(), &web).unwrap();
    let state = js_sys::Object::new();
    js_sys::Reflect::set(&state, &"web".into(), &web).unwrap();
    let error = input_error(
        api::diff(state.into(), js(actual()), None),
        "shape",
        "desired",
    );
    assert_eq!(
        message(&error),
        "desired at /web/self: this refers back to /web: a cycle, which JSON cannot write"
    );
    assert_eq!(
        property(&error, "pointer").as_string().unwrap(),
        "/web/self"
    );
}

#[wasm_bindgen_test]
fn a_big_int_a_date_and_objects_of_classes_throw_saying_what_to_pass() {
    let values = js_sys::Function::new_no_args(
        "class Replicas { constructor() { this.count = 3; } } \
         return [{web: {image: 'web:1', replicas: 3n}}, {web: {image: 'web:1', replicas: 2n ** 70n}}, \
                 {web: {image: 'web:1', since: new Date(0)}}, {web: {image: 'web:1', labels: new Map([['app', 'web']])}}, \
                 {web: {image: 'web:1', replicas: new Replicas()}}, {web: Object.assign(Object.create(null), {image: 'web:1'})}];",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    let [small, huge, date, map, class, plain]: [JsValue; 6] =
        [0, 1, 2, 3, 4, 5].map(|at| js_sys::Reflect::get_u32(&values, at).unwrap());
    for (value, said) in [
        (small, "desired at /web/replicas: a BigInt (3n), which JSON cannot write: pass it as a number or a string"),
        (huge, "desired at /web/replicas: a BigInt (1180591620717411303424n), which JSON cannot write: pass it as a number or a string"),
        (date, "desired at /web/since: a Date, which JSON would write as its text: pass `date.toISOString()`"),
        (map, "desired at /web/labels: a Map, which JSON would write as `{}`: pass `Object.fromEntries(map)`"),
        (class, "desired at /web/replicas: an object of class Replicas, not a plain object: JSON would drop what the class holds"),
    ] {
        let error = input_error(api::diff(value, js(actual()), None), "shape", "desired");
        assert_eq!(message(&error), said);
    }
    let plan = back(&api::diff(plain, js(json!({})), None).unwrap());
    assert_eq!(plan[0]["object"]["image"], "web:1", "an object without a prototype is plain");
}

#[wasm_bindgen_test]
fn deep_nesting_throws_instead_of_overflowing_the_stack() {
    let deep = js_sys::Function::new_no_args(
        "let v = {}; for (let i = 0; i < 100000; i++) { v = {web: v}; } return v;",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    input_error(
        api::report(deep.clone(), js(actual()), None),
        "shape",
        "desired",
    );
    input_error(api::run(deep), "shape", "scenario");
}

#[wasm_bindgen_test]
fn values_json_cannot_hold_throw() {
    let values = js_sys::Function::new_no_args(
        "return [{web: {replicas: NaN}}, {web: {run: () => 1}}, {web: {id: Symbol('x')}}, {web: {n: Infinity}}];",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    for value in js_sys::Array::from(&values).iter() {
        let error = input_error(api::diff(value, js(actual()), None), "shape", "desired");
        assert!(
            property(&error, "pointer")
                .as_string()
                .unwrap()
                .starts_with("/web/"),
            "{}",
            message(&error)
        );
        assert!(!message(&error).contains("JsValue"), "{}", message(&error));
    }
}

#[wasm_bindgen_test]
fn the_error_is_thrown_as_an_error_object() {
    let error = api::diff(JsValue::from_f64(42.0), js(actual()), None).unwrap_err();
    let thrown: JsValue = error.into();
    assert!(thrown.is_instance_of::<js_sys::Error>());
    let error: js_sys::Error = thrown.unchecked_into();
    assert_eq!(
        String::from(error.to_string()),
        format!("GitopsInputError: {}", message(&error))
    );
}
