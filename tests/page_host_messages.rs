//! The embedded page mounted in headless Chromium under a host page: that it is
//! ready, the host's messages it obeys in order, and the state, plan and events it
//! tells the host.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

mod common;

use common::dom::{rendered, texts};
use common::page::{
    actual_too_large_for_a_link, cards, embedded_with_host, js, mount_embedded, paste, post, until,
    Host, ANOTHER_SCENARIO,
};

/// The first state the embedded page told its host.
async fn first_state(host: &Host) -> serde_json::Value {
    until(|| host.messages("gitops:state").is_empty(), false).await;
    host.messages("gitops:state").remove(0)
}

#[wasm_bindgen_test]
async fn an_embedded_state_hands_out_no_link_that_would_not_open_and_says_why() {
    let (host, root) = embedded_with_host().await;
    let first = first_state(&host).await;
    assert!(
        first["link"]
            .as_str()
            .and_then(|link| link.strip_prefix('#'))
            .is_some_and(|fragment| gitops_world::share::decode(fragment).is_ok()),
        "{first}"
    );
    assert_eq!(first["linkError"], serde_json::Value::Null);
    paste(&root, "actual-state", &actual_too_large_for_a_link());
    until(
        || host.messages("gitops:state").pop().unwrap()["link"].is_null(),
        true,
    )
    .await;
    let last = host.messages("gitops:state").pop().unwrap();
    assert!(
        last["linkError"]
            .as_str()
            .is_some_and(|why| why.starts_with(
                "This scenario, with what was done in it, is too large to share as a link: it \
             comes to more than 4 MB"
            )),
        "{}",
        last["linkError"]
    );
}

#[wasm_bindgen_test]
async fn a_page_taken_down_tells_its_host_nothing_more() {
    let (host, root) = embedded_with_host().await;
    first_state(&host).await;
    paste(&root, "actual-state", &actual_too_large_for_a_link());
    rendered().await;
    drop(root);
    drop(host);
    let next_host = Host::listen();
    // Long enough for the large state's link to be made here and told, were it told.
    gloo::timers::future::TimeoutFuture::new(2_000).await;
    assert_eq!(
        next_host.messages("gitops:state"),
        Vec::<serde_json::Value>::new()
    );
}

/// A `message` event from the test page's own origin, as a host posts one,
/// made by the script `body`.
fn message_event(body: &str) -> wasm_bindgen::JsValue {
    let origin = gloo::utils::window().location().origin().unwrap();
    let init = web_sys::MessageEventInit::new();
    init.set_data(&js(body));
    init.set_origin(&origin);
    web_sys::MessageEvent::new_with_event_init_dict("message", &init)
        .unwrap()
        .into()
}

#[wasm_bindgen_test]
async fn an_embedded_page_says_it_is_ready_then_obeys_what_came_before_in_order() {
    let origin = gloo::utils::window().location().origin().unwrap();
    let host = Host::listen();
    // What index.html keeps while the wasm loads.
    let early = js_sys::Array::of2(
        &message_event(&format!(
            "return {{type: 'gitops:load', scenario: {ANOTHER_SCENARIO}}};"
        )),
        &message_event("return {type: 'gitops:step'};"),
    );
    js_sys::Reflect::set(
        &gloo::utils::window(),
        &"gitopsEarlyMessages".into(),
        &early,
    )
    .unwrap();
    let root = mount_embedded(&[&origin]);
    until(|| cards(&root), ["create api (done)"]).await;
    let types: Vec<String> = host
        .posted
        .iter()
        .filter_map(|message| {
            js_sys::Reflect::get(&message, &"type".into())
                .ok()?
                .as_string()
        })
        .filter(|kind| kind != "gitops:height")
        .collect();
    assert_eq!(
        types.first().map(String::as_str),
        Some("gitops:ready"),
        "{types:?}"
    );
    assert_eq!(
        types.iter().filter(|kind| *kind == "gitops:ready").count(),
        1
    );
    let ready = host.messages("gitops:ready").pop().unwrap();
    assert!(
        ready["accepts"]
            .as_array()
            .unwrap()
            .contains(&"gitops:setText".into()),
        "{ready}"
    );
    assert!(
        js_sys::Reflect::get(&gloo::utils::window(), &"gitopsEarlyMessages".into())
            .unwrap()
            .is_undefined(),
        "the page keeps no more early messages once it listens"
    );
}

#[wasm_bindgen_test]
async fn a_host_sets_a_panes_text_and_the_options_and_asks_for_the_state() {
    let (host, root) = embedded_with_host().await;
    let first = first_state(&host).await;
    assert_eq!(
        first["options"],
        serde_json::json!({"prune": true, "selfHeal": true, "autoSync": true, "respectIgnoreDifferences": false, "serverSideApply": false, "mode": "pull", "agent": "argocd", "ignore": ""}),
        "{first}"
    );

    post(
        r#"{"type": "gitops:setText", "pane": "desired", "text": "{\"web\": {\"image\": \"registry.example/web:2.0.1\", \"replicas\": 4}}"}"#,
    );
    until(
        || cards(&root),
        ["delete api", "delete debug", "update web"],
    )
    .await;
    until(
        || {
            texts(&root, "#desired-state")
                .concat()
                .contains("\"replicas\": 4")
        },
        true,
    )
    .await;

    post(r#"{"type": "gitops:setOptions", "options": {"prune": false, "mode": "push"}}"#);
    until(|| cards(&root), ["update web"]).await;
    until(
        || host.messages("gitops:state").pop().unwrap()["options"]["mode"].clone(),
        serde_json::json!("push"),
    )
    .await;
    post(r#"{"type": "gitops:setOptions", "options": {"agent": "flux", "mode": "pull"}}"#);
    until(
        || host.messages("gitops:state").pop().unwrap()["options"]["agent"].clone(),
        serde_json::json!("flux"),
    )
    .await;
    post(r#"{"type": "gitops:setOptions", "options": {"agent": "argocd", "mode": "push", "serverSideApply": true}}"#);
    until(
        || {
            let options = host.messages("gitops:state").pop().unwrap()["options"].clone();
            (options["agent"].clone(), options["serverSideApply"].clone())
        },
        (serde_json::json!("argocd"), serde_json::json!(true)),
    )
    .await;

    post(r#"{"type": "gitops:setText", "pane": "actual", "text": "{\"web\": "}"#);
    until(
        || host.messages("gitops:state").pop().unwrap()["actualError"].is_object(),
        true,
    )
    .await;
    let broken = host.messages("gitops:state").pop().unwrap();
    assert_eq!(
        (
            &broken["actualError"]["line"],
            &broken["actualError"]["column"]
        ),
        (&1.into(), &8.into()),
        "{broken}"
    );
    assert_eq!(
        texts(&root, ".stale-note"),
        ["Showing the last plan that could be computed: fix the error above to update it."],
        "the embedded plan says it is the last good one too"
    );

    let told = host.messages("gitops:state").len();
    post(r#"{"type": "gitops:getState"}"#);
    until(|| host.messages("gitops:state").len(), told + 1).await;
    assert_eq!(
        host.messages("gitops:state").pop().unwrap()["actualError"],
        broken["actualError"]
    );

    for (message, pointer, words) in [
        (
            r#"{"type": "gitops:setOptions", "options": {"prnue": true}}"#,
            "/options/prnue",
            "there is no option \"prnue\"",
        ),
        (
            r#"{"type": "gitops:setOptions", "options": {"mode": "both"}}"#,
            "/options/mode",
            "mode is \"push\" or \"pull\"",
        ),
        (
            r#"{"type": "gitops:setOptions", "options": {"agent": "kubectl"}}"#,
            "/options/agent",
            "agent is \"argocd\" or \"flux\"",
        ),
        (
            r#"{"type": "gitops:setText", "pane": "git", "text": ""}"#,
            "/pane",
            "its pane is not",
        ),
        (
            r#"{"type": "gitops:subscribe", "events": "yes"}"#,
            "/events",
            "events is true or false",
        ),
    ] {
        let errors = host.messages("gitops:error").len();
        post(message);
        until(|| host.messages("gitops:error").len(), errors + 1).await;
        let error = host.messages("gitops:error").pop().unwrap();
        assert_eq!(error["pointer"], pointer, "{error}");
        assert!(
            error["message"].as_str().unwrap().contains(words),
            "{error}"
        );
    }
    assert_eq!(
        cards(&root),
        ["update web"],
        "a wrong message changes nothing"
    );
}

#[wasm_bindgen_test]
async fn a_host_subscribed_to_events_and_the_plan_is_told_each_as_it_changes() {
    let (host, root) = embedded_with_host().await;
    post(r#"{"type": "gitops:subscribe", "events": true, "plan": true}"#);
    until(|| host.messages("gitops:plan").is_empty(), false).await;
    rendered().await;
    let plans = host.messages("gitops:plan");
    assert_eq!(plans.len(), 1, "{plans:#?}");
    let plan = plans[0].clone();
    let ops: Vec<&serde_json::Value> = plan["plan"]
        .as_array()
        .unwrap()
        .iter()
        .map(|op| &op["op"])
        .collect();
    assert_eq!(
        ops,
        [&serde_json::json!("delete"), &serde_json::json!("update")],
        "{plan}"
    );
    let told = host.messages("gitops:events").len();
    post(r#"{"type": "gitops:advance"}"#);
    until(|| host.messages("gitops:events").len() > told, true).await;
    let events = host.messages("gitops:events").pop().unwrap();
    assert!(!events["events"].as_array().unwrap().is_empty(), "{events}");
    assert!(events["events"][0]["actor"].is_string(), "{events}");

    post(r#"{"type": "gitops:reset"}"#);
    until(
        || host.messages("gitops:events").pop().unwrap()["first"].clone(),
        serde_json::json!(0),
    )
    .await;

    post(r#"{"type": "gitops:subscribe"}"#);
    let plans = host.messages("gitops:plan").len();
    post(r#"{"type": "gitops:step"}"#);
    until(
        || cards(&root).iter().any(|card| card.ends_with("(done)")),
        true,
    )
    .await;
    post(r#"{"type": "gitops:getState"}"#);
    rendered().await;
    assert_eq!(
        host.messages("gitops:plan").len(),
        plans,
        "unsubscribed: no more plans"
    );
}
