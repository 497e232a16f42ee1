//! A re-plan after a small edit gives what a plan from scratch gives: the
//! core remembers what it found for objects that did not change, and that
//! must never show. Natively and in the browser.

mod common;

use gitops_testing::everywhere;

use gitops_core::state::SHORTEST_KEPT;
use gitops_core::{report, IgnoreRule, Options, Report, State, Workspace, SMALLEST_REMEMBERED};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Deployments as Git declares them: some run mutable tags, one is scaled
/// by an autoscaler, one is a database. Enough that the core remembers what
/// it found (`SMALLEST_REMEMBERED` objects) and keeps the text it read
/// (`SHORTEST_KEPT` bytes), natively and in the browser, where the cases run
/// in one task that must end within the test runner's 20 s request timeout
/// in a debug build: fewer cases there (`CASES_IN_THE_BROWSER`).
const DEPLOYMENTS: usize = 200;
const CASES_IN_THE_BROWSER: u32 = 48;

fn desired_text() -> String {
    let mut objects: Vec<Value> = (0..DEPLOYMENTS)
        .map(|index| {
            let name = format!("service-{index:03}");
            let image = match index % 4 {
                0 => format!("registry.example/{name}:latest"),
                1 => format!("registry.example/{name}:1.{index}"),
                _ => format!("registry.example/{name}@sha256:{index:064x}"),
            };
            json!({
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": name, "namespace": "shop", "labels": {"tier": if index == 7 { "database" } else { "web" }}},
                "spec": {"replicas": 1 + index % 3, "template": {"spec": {"containers": [{"name": "app", "image": image}]}}}
            })
        })
        .collect();
    objects.push(common::autoscaler_of("service-005"));
    serde_json::to_string_pretty(&objects).expect("serializes")
}

/// What the cluster runs: every tenth object drifted, every ninth not ready.
fn actual(desired: &State) -> State {
    let live: Vec<Value> = desired
        .objects()
        .values()
        .enumerate()
        .map(|(index, object)| {
            let mut live = object.value().clone();
            if index % 10 == 0 {
                live["spec"]["replicas"] = json!(9);
            }
            let ready = if index % 9 == 0 { 0 } else { 1 };
            live["metadata"]["generation"] = json!(1);
            live["status"] = json!({"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1,
                                    "readyReplicas": ready, "availableReplicas": ready});
            live
        })
        .collect();
    State::from_value("actual", Value::Array(live)).expect("valid")
}

/// The same state with objects of its own: nothing remembered applies.
fn afresh(state: &State) -> State {
    State::from_value("afresh", state.to_value()).expect("valid")
}

fn from_scratch(desired: &State, actual: &State, options: &Options) -> Report {
    report(&afresh(desired), &afresh(actual), options)
}

fn options(prune: bool, ignore_replicas: bool) -> Options {
    Options {
        prune,
        ignore: if ignore_replicas {
            vec![IgnoreRule::everywhere("/spec/replicas").expect("a valid pointer")]
        } else {
            Vec::new()
        },
        respect_ignore_differences: false,
        application: None,
        force: false,
        agent: Default::default(),
        server_side_apply: false,
    }
}

/// The keys of the resources in waves before `wave`, as found with what `workspace`
/// remembers, and as the pure function finds them in a copy with objects of its own.
fn resources_before(workspace: &mut Workspace, desired: &State, wave: i64) -> (Vec<String>, Vec<String>) {
    let keys = |found: Vec<(&gitops_core::state::Key, _)>| -> Vec<String> {
        found.into_iter().map(|(key, _)| key.to_string()).collect()
    };
    let copy = afresh(desired);
    (
        keys(workspace.resources_before(desired, wave)),
        keys(gitops_core::sync::hook_tasks::resources_before(&copy, wave)),
    )
}

everywhere! {
    fn a_wave_or_hook_typed_into_an_object_is_what_the_next_look_finds() {
        let mut workspace = Workspace::new();
        let text = desired_text();
        let desired = workspace.read("desired", &text).unwrap();
        let (found, afresh) = resources_before(&mut workspace, &desired, 1);
        assert_eq!(found, afresh);
        assert_eq!(found.len(), DEPLOYMENTS + 1, "every object is in wave 0");
        assert!(resources_before(&mut workspace, &desired, 0).0.is_empty());
        let annotated = |annotations: &str| {
            let at = text.find("\"name\": \"service-004\"").unwrap();
            format!("{}\"annotations\": {annotations}, {}", &text[..at], &text[at..])
        };
        let later = workspace.read("desired", &annotated(r#"{"argocd.argoproj.io/sync-wave": "2"}"#)).unwrap();
        let (found, afresh) = resources_before(&mut workspace, &later, 1);
        assert_eq!(found, afresh);
        assert!(!found.contains(&"Deployment/shop/service-004".to_string()));
        assert_eq!(resources_before(&mut workspace, &later, 3).0.len(), DEPLOYMENTS + 1);
        let hook = workspace.read("desired", &annotated(r#"{"argocd.argoproj.io/hook": "PreSync"}"#)).unwrap();
        let (found, afresh) = resources_before(&mut workspace, &hook, 1);
        assert_eq!(found, afresh);
        assert_eq!(found.len(), DEPLOYMENTS, "a hook is no resource");
        assert_eq!(resources_before(&mut workspace, &desired, 1).0.len(), DEPLOYMENTS + 1, "and the text before it has none");
    }

    fn typing_a_mutable_tag_warns_and_typing_it_back_does_not() {
        let mut workspace = Workspace::new();
        let text = desired_text();
        let desired = workspace.read("desired", &text).unwrap();
        let actual = actual(&desired);
        let options = options(true, false);
        let first = workspace.report(&desired, &actual, &options);
        let pinned = "registry.example/service-002@sha256:";
        let latest = text.replacen(pinned, "registry.example/service-002:latest#", 1);
        let edited = workspace.read("desired", &latest).unwrap();
        let warned = workspace.report(&edited, &actual, &options);
        assert_eq!(warned, from_scratch(&edited, &actual, &options));
        assert_eq!(warned.warnings.len(), first.warnings.len() + 1);
        let back = workspace.read("desired", &text).unwrap();
        assert_eq!(workspace.report(&back, &actual, &options), first);
    }

    fn a_changed_live_object_has_its_own_health_and_sync_again() {
        let mut workspace = Workspace::new();
        let desired = workspace.read("desired", &desired_text()).unwrap();
        let mut actual = actual(&desired);
        let options = options(false, false);
        let before = workspace.report(&desired, &actual, &options);
        let key = "Deployment/shop/service-003";
        let mut broken = actual.get(key).unwrap().clone();
        broken["status"]["readyReplicas"] = json!(0);
        broken["spec"]["replicas"] = json!(4);
        actual.insert(key.to_string(), broken);
        let after = workspace.report(&desired, &actual, &options);
        assert_eq!(after, from_scratch(&desired, &actual, &options));
        assert_ne!(after.objects, before.objects);
        assert!(after.plan.len() > before.plan.len());
    }
}

proptest! {
    #![proptest_config(gitops_testing::config_with_cases_in_the_browser(CASES_IN_THE_BROWSER))]

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_re_plan_after_any_small_edit_is_the_plan_from_scratch(
        at in any::<prop::sample::Index>(),
        removed in 0..6usize,
        inserted in "[0-9a-z:@\"{}\\[\\],]{0,4}",
        before in (any::<bool>(), any::<bool>()),
        after in (any::<bool>(), any::<bool>()),
    ) {
        let mut workspace = Workspace::new();
        let text = desired_text();
        let desired = workspace.read("desired", &text).unwrap();
        prop_assert!(desired.len() >= SMALLEST_REMEMBERED && text.len() > SHORTEST_KEPT + 6, "{} objects, {} bytes", desired.len(), text.len());
        let actual = actual(&desired);
        workspace.report(&desired, &actual, &options(before.0, before.1));
        let mut edited = text.clone();
        let at = at.index(text.len());
        edited.replace_range(at..(at + removed).min(text.len()), &inserted);
        if let Ok(edited) = workspace.read("desired", &edited) {
            let options = options(after.0, after.1);
            prop_assert_eq!(workspace.report(&edited, &actual, &options), from_scratch(&edited, &actual, &options));
        }
    }
}
