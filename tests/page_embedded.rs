//! The embedded page mounted in headless Chromium: the origins it obeys, what it
//! says of a load that does not open, and what its address chooses.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

mod common;

use common::dom::{all, rendered, texts};
use common::page::{
    button, cards, embedded_with_host, js, mount_embedded, mount_with, notices, post, started,
    until, Host, ANOTHER_SCENARIO,
};

#[wasm_bindgen_test]
async fn an_embedded_load_that_does_not_open_says_why_and_keeps_the_scenario() {
    let origin = gloo::utils::window().location().origin().unwrap();
    let root = mount_embedded(&[&origin]);
    started(&root).await;
    let stays = |words: &'static str| {
        let root = root.clone();
        move || {
            let notice = notices(&root).concat();
            notice.starts_with("The scenario the lesson page sent does not open: ")
                && notice.contains(words)
                && notice.ends_with("The scenario on screen stays.")
        }
    };
    for (message, words) in [
        // A preset's name waits for the presets' texts, which the test page does
        // not serve (the end-to-end tests, which do, see "no preset named").
        (
            r#"{"type": "gitops:load", "preset": "nosuch.yaml"}"#,
            "the presets could not be loaded (scenarios.json: HTTP 404)",
        ),
        (
            r#"{"type": "gitops:load", "scenario": {"version": 1, "desierd": {}}}"#,
            "unknown field `desierd`",
        ),
        (
            r#"{"type": "gitops:load", "scenario": "{bad"}"#,
            "line 1, column 2",
        ),
        (
            r#"{"type": "gitops:load"}"#,
            "the message names neither a preset nor a scenario",
        ),
        (
            r#"{"type": "gitops:load", "preset": 7}"#,
            "its preset is not a preset's file name",
        ),
    ] {
        button(&root, "Dismiss").click();
        until(|| notices(&root), Vec::<String>::new()).await;
        post(message);
        until(stays(words), true).await;
        assert_eq!(cards(&root), ["delete debug", "update web"], "{message}");
        assert_eq!(texts(&root, "h1"), ["The lesson's worked example"]);
    }
    post(&format!(
        r#"{{"type": "gitops:load", "scenario": {}}}"#,
        ANOTHER_SCENARIO
    ));
    until(|| cards(&root), ["create api"]).await;
    assert_eq!(notices(&root), Vec::<String>::new(), "the notice goes");
}

#[wasm_bindgen_test]
async fn an_embedded_view_without_an_allowed_origin_warns_once_of_what_it_ignores() {
    let origin = gloo::utils::window().location().origin().unwrap();
    let root = mount_embedded(&["*"]);
    started(&root).await;
    let console = js_sys::Reflect::get(&gloo::utils::window(), &"console".into()).unwrap();
    let warn = js_sys::Reflect::get(&console, &"warn".into()).unwrap();
    let warnings = js_sys::Array::new();
    let record =
        js_sys::Function::new_with_args("message", "this.push(String(message))").bind0(&warnings);
    js_sys::Reflect::set(&console, &"warn".into(), &record).unwrap();
    post(r#"{"type": "another-library"}"#);
    post(r#"{"type": "gitops:step"}"#);
    post(r#"{"type": "gitops:step"}"#);
    gloo::timers::future::TimeoutFuture::new(100).await;
    rendered().await;
    js_sys::Reflect::set(&console, &"warn".into(), &warn).unwrap();
    let warnings: Vec<String> = warnings.iter().filter_map(|w| w.as_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let allow = format!(
        "&origin={}",
        String::from(js_sys::encode_uri_component(&origin))
    );
    assert!(
        warnings[0].contains(&format!("gitops:step message from {origin}")),
        "{warnings:?}"
    );
    assert!(warnings[0].contains(&allow), "{warnings:?}");
    assert_eq!(
        cards(&root),
        ["delete debug", "update web"],
        "nothing obeyed"
    );
}

#[wasm_bindgen_test]
async fn an_embedded_load_json_cannot_carry_says_what_and_where_and_tells_the_host() {
    let (host, root) = embedded_with_host().await;
    let before = cards(&root);
    for (message, words) in [
        (
            "let o = 1; for (let i = 0; i < 127; i++) o = {a: o}; \
             return {type: 'gitops:load', scenario: {desired: {web: o}}};",
            "scenario at /desired/web/a/a/…: the value is nested too deeply (more than 128 levels)",
        ),
        (
            "return {type: 'gitops:load', scenario: \
             {desired: {web: {image: 'busybox:1.36', replicas: 2n ** 70n}}}};",
            "scenario at /desired/web/replicas: a BigInt (1180591620717411303424n), which JSON cannot write: pass it as a number or a string",
        ),
        (
            "const web = {image: 'busybox:1.36'}; web.self = web; \
             return {type: 'gitops:load', scenario: {desired: {web}}};",
            "scenario at /desired/web/self: this refers back to /desired/web: a cycle, which JSON cannot write",
        ),
    ] {
        button(&root, "Dismiss").click();
        until(|| notices(&root), Vec::<String>::new()).await;
        let told = host.messages("gitops:error").len();
        gloo::utils::window()
            .post_message(&js(message), "*")
            .unwrap();
        let notice = format!(
            "The scenario the lesson page sent does not open: {words}. The scenario on screen stays."
        );
        until(|| notices(&root), [notice.clone()]).await;
        assert_eq!(cards(&root), before, "{message}");
        assert_eq!(texts(&root, "h1"), ["The lesson's worked example"]);
        until(|| host.messages("gitops:error").len(), told + 1).await;
        let error = host.messages("gitops:error").pop().unwrap();
        assert_eq!(
            (&error["type"], &error["request"], &error["message"]),
            (&"gitops:error".into(), &"gitops:load".into(), &notice.into()),
        );
        let pointer = error["pointer"].as_str().unwrap_or_default();
        let said = words.split_once(": ").unwrap().0.trim_start_matches("scenario at ").trim_end_matches('…');
        assert!(pointer.starts_with(said), "the host is told the whole pointer: {pointer} for {said}");
    }
    // What else a message holds is not the playground's business: it is obeyed.
    gloo::utils::window()
        .post_message(&js("return {type: 'gitops:step', sentAt: 12n};"), "*")
        .unwrap();
    until(
        || cards(&root).iter().any(|card| card.ends_with("(done)")),
        true,
    )
    .await;
    post(&format!(
        r#"{{"type": "gitops:load", "scenario": {}}}"#,
        ANOTHER_SCENARIO
    ));
    until(|| cards(&root), ["create api"]).await;
}

#[wasm_bindgen_test]
async fn an_embedded_address_chooses_the_panes_and_the_lessons_colours() {
    let origin = gloo::utils::window().location().origin().unwrap();
    let host = Host::listen();
    let root = mount_with(Some(&format!(
        "?embed=1&origin={}&panes=desired&theme=dark",
        js_sys::encode_uri_component(&origin)
    )));
    started(&root).await;
    assert_eq!(all(&root, "#desired-state").len(), 1);
    assert!(
        all(&root, "#actual-state").is_empty(),
        "only the pane named"
    );
    assert!(all(&root, ".results").is_empty(), "and no plan");
    let theme = || gloo::utils::document_element().get_attribute("data-theme");
    until(theme, Some("dark".to_string())).await;
    let stored = gloo::utils::window()
        .local_storage()
        .unwrap()
        .unwrap()
        .get_item("gitops-playground.theme")
        .unwrap();
    assert_ne!(
        stored.as_deref(),
        Some("dark"),
        "the reader's own choice is not changed"
    );
    until(|| host.messages("gitops:height").is_empty(), false).await;
    let height = host.messages("gitops:height").pop().unwrap()["height"]
        .as_u64()
        .unwrap();
    assert_eq!(height, gloo::utils::body().scroll_height() as u64);
    drop(root);
    gloo::utils::document_element()
        .remove_attribute("data-theme")
        .unwrap();
}
