//! The JavaScript API's typed errors for bad input, in headless Chromium: each a
//! `GitopsInputError` that says its kind, its source, and where and what went wrong.

#![cfg(target_arch = "wasm32")]

mod common;

use common::{actual, back, desired, input_error, js, message, property, prune};
use gitops_api as api;
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

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
    assert_eq!(
        plan[0]["object"]["image"], "web:1",
        "an object without a prototype is plain"
    );
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
