//! What the API's browser tests share: values as a page builds them and reads them
//! back, the worked example's states, and the errors the API throws.

#![allow(dead_code)]

use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A JavaScript value from JSON text, as a page would build it.
pub fn js(value: Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).expect("valid JSON")
}

/// A JavaScript result back as JSON.
pub fn back(value: &JsValue) -> Value {
    let text: String = js_sys::JSON::stringify(value)
        .expect("a result is JSON")
        .into();
    serde_json::from_str(&text).expect("JSON text")
}

pub fn desired() -> Value {
    json!({
        "api": {"image": "registry.example/api:1.4.2", "replicas": 2},
        "web": {"image": "registry.example/web:2.0.1", "replicas": 3}
    })
}

pub fn actual() -> Value {
    json!({
        "api": {"image": "registry.example/api:1.4.2", "replicas": 2},
        "web": {"image": "registry.example/web:2.0.1", "replicas": 10},
        "debug": {"image": "busybox:1.36"}
    })
}

pub fn prune() -> Option<JsValue> {
    Some(js(json!({"prune": true})))
}

/// Each operation of a plan as `op key`.
pub fn steps(plan: &Value) -> Vec<String> {
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
pub fn property(error: &js_sys::Error, name: &str) -> JsValue {
    js_sys::Reflect::get(error, &JsValue::from_str(name)).expect("a readable property")
}

/// The thrown error, checked to be a `GitopsInputError` of `kind` about `source`.
pub fn input_error(
    result: Result<JsValue, js_sys::Error>,
    kind: &str,
    source: &str,
) -> js_sys::Error {
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

pub fn message(error: &js_sys::Error) -> String {
    error.message().into()
}
