//! The page mounted in headless Chromium: links pasted into the open page, the
//! progress of each exercise a link opens, and what Share says of a scenario too
//! large for a link.

#![cfg(target_arch = "wasm32")]

use gitops_world::share::{encode, Interaction, Session};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;

use common::dom::{after_queued_tasks, after_window_event, all, find, rendered, texts};
use common::page::{
    actual_too_large_for_a_link, button, cards, dialog, mount, notices, paste, started, type_into,
    until, ANOTHER_SCENARIO,
};
use web_sys::HtmlInputElement;

/// Changes only the fragment of the page's address, as pasting a link into the
/// address bar of an open tab does: the browser fires `hashchange`.
fn follow(fragment: &str) {
    gloo::utils::window().location().set_hash(fragment).unwrap();
}

#[wasm_bindgen_test]
async fn a_link_pasted_into_the_open_page_opens_and_share_does_not_open_it_again() {
    let root = mount();
    started(&root).await;
    follow(&encode(&Session::of_scenario(ANOTHER_SCENARIO)));
    until(|| cards(&root), ["create api"]).await;
    let menu: web_sys::HtmlSelectElement = find(&root, "#preset-select").unchecked_into();
    let options = all(&root, "#preset-select option");
    let shown = options
        .get(menu.selected_index() as usize)
        .and_then(|option| option.text_content());
    let title = find(&root, ".preset-title").text_content().unwrap();
    assert_eq!(
        shown,
        Some(format!("{title} (shared scenario)")),
        "the menu names the scenario open, not a preset"
    );
    button(&root, "Step").click();
    rendered().await;
    assert_eq!(cards(&root), ["create api (done)"]);
    // Share writes its link into the address bar without a `hashchange`: opening it
    // again would close the panel.
    button(&root, "Share").click();
    until(
        || root.query_selector("#share-link").ok().flatten().is_some(),
        true,
    )
    .await;
    let shared = find(&root, "#share-link")
        .unchecked_into::<HtmlInputElement>()
        .value();
    let fragment = gloo::utils::window().location().hash().unwrap();
    assert!(shared.ends_with(&fragment), "{shared} carries {fragment}");
    after_queued_tasks().await;
    assert!(dialog(&root, "Share").is_some(), "the panel stays open");
    assert_eq!(cards(&root), ["create api (done)"]);
}

#[wasm_bindgen_test]
async fn a_broken_link_pasted_into_the_open_page_says_so_and_keeps_the_scenario() {
    let root = mount();
    started(&root).await;
    button(&root, "Step").click();
    rendered().await;
    follow("v1.AAAA%%%");
    until(
        || {
            notices(&root)
                .iter()
                .any(|notice| notice.contains("damaged or cut short"))
        },
        true,
    )
    .await;
    let notice = notices(&root).concat();
    assert!(notice.starts_with("The link does not open: "), "{notice}");
    assert!(
        notice.ends_with("The scenario on screen stays."),
        "{notice}"
    );
    assert_eq!(cards(&root), ["delete debug (done)", "update web"]);
    // A fragment that names an element of the page is a place in it, not a link.
    let place = gloo::utils::document().create_element("div").unwrap();
    place.set_id("further-down");
    root.append_child(&place).unwrap();
    button(&root, "Dismiss").click();
    rendered().await;
    after_window_event("hashchange", || follow("further-down")).await;
    assert_eq!(notices(&root), Vec::<String>::new());
    assert_eq!(cards(&root), ["delete debug (done)", "update web"]);
}

#[wasm_bindgen_test]
async fn a_link_pasted_into_the_open_page_keeps_ones_own_work_on_its_preset() {
    let root = mount();
    started(&root).await;
    type_into(&root, "actual-state", "{}");
    gloo::timers::future::TimeoutFuture::new(400).await;
    rendered().await;
    assert_eq!(cards(&root), ["create api", "create web"]);
    let mut shared = Session::of_preset("worked-example.json");
    shared.record(Interaction::Step, true);
    follow(&encode(&shared));
    until(|| cards(&root), ["delete debug (done)", "update web"]).await;
    let kept = texts(&root, ".notice[role=status] p");
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(kept[0].contains("Your own work on"), "{kept:?}");
    button(&root, "Back to my work").click();
    until(|| cards(&root), ["create api", "create web"]).await;
}

/// An exercise a link opens whose goal holds at its start: Check solves it.
fn exercise_scenario(title: &str, task: &str) -> String {
    format!(
        r#"{{"version": 1, "title": "{title}",
            "desired": {{"web": {{"image": "busybox:1.36", "replicas": 1}}}},
            "actual": {{"web": {{"image": "busybox:1.36", "replicas": 1}}}},
            "exercise": {{"task": "{task}", "settle": 1, "goals": [{{"synced": {{}}}}]}}}}"#
    )
}

#[wasm_bindgen_test]
async fn each_exercise_a_link_opens_keeps_its_own_progress() {
    let root = mount();
    started(&root).await;
    let first = encode(&Session::of_scenario(&exercise_scenario(
        "First exercise",
        "Keep it in sync.",
    )));
    let second = encode(&Session::of_scenario(&exercise_scenario(
        "Second exercise",
        "Keep this one in sync too.",
    )));
    let task = || texts(&root, "section.exercise .task");
    let solved = || texts(&root, ".solved-badge");
    follow(&first);
    until(task, ["Keep it in sync."]).await;
    assert_eq!(solved(), Vec::<String>::new());
    button(&root, "Check").click();
    until(|| texts(&root, ".verdict.solved").len(), 1).await;
    assert_eq!(
        solved(),
        Vec::<String>::new(),
        "not \"before\" right after the first solve"
    );
    follow(&second);
    until(task, ["Keep this one in sync too."]).await;
    assert_eq!(
        solved(),
        Vec::<String>::new(),
        "another link's exercise is not solved"
    );
    follow(&first);
    until(task, ["Keep it in sync."]).await;
    assert_eq!(solved(), ["You have solved this exercise before."]);
}

#[wasm_bindgen_test]
async fn share_says_a_scenario_too_large_for_a_link_cannot_be_shared_as_one() {
    let root = mount();
    started(&root).await;
    paste(&root, "actual-state", &actual_too_large_for_a_link());
    gloo::timers::future::TimeoutFuture::new(400).await;
    rendered().await;
    assert!(
        !cards(&root).iter().any(|card| card.contains("debug")),
        "the pasted text is the cluster"
    );
    button(&root, "Share").click();
    rendered().await;
    let share = dialog(&root, "Share").expect("the Share panel");
    until(|| texts(&share, ".refused[role=alert]").len(), 1).await;
    let said = texts(&share, ".refused[role=alert]");
    assert!(
        said[0].starts_with(
            "This scenario, with what was done in it, is too large to share as a link: it \
             comes to more than 4 MB, and the playground does not open links that expand past \
             that. To share it, save the scenario as a file"
        ),
        "{said:?}"
    );
    assert!(
        all(&share, "#share-link").is_empty(),
        "no link that would not open"
    );
    assert!(all(&share, "#embed-code").is_empty());
    assert_eq!(
        gloo::utils::window().location().hash().unwrap(),
        "",
        "nor is one written into the address"
    );
    button(&share, "Close").click();
    type_into(&root, "actual-state", "{}");
    gloo::timers::future::TimeoutFuture::new(400).await;
    button(&root, "Share").click();
    until(
        || root.query_selector("#share-link").ok().flatten().is_some(),
        true,
    )
    .await;
    let link = find(&root, "#share-link")
        .unchecked_into::<HtmlInputElement>()
        .value();
    let fragment = link.split_once('#').unwrap().1;
    assert!(gitops_world::share::decode(fragment).is_ok(), "{link}");
}
