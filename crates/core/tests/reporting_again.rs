//! A workspace's report after any sequence of small edits is the pure report:
//! the workspace patches a report it made a moment ago where objects changed
//! (`Workspace::report`), and that must never show. The edits change, add and
//! remove objects of every kind the checklist and the plan read across objects
//! (Namespaces, autoscalers, hooks, sync waves, prune protections, Secrets,
//! images), mostly in Git and now and then in the cluster, with a sync or new
//! options now and then. Natively and in the browser.

mod common;

use common::sessions::{edited, empty, first_states, session, tracked, Session, Step};
use gitops_core::{apply, report, Options, ReportMade, State, Workspace};
use gitops_testing::everywhere;
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::{json, Value};
use std::cell::Cell;

/// Cases in the browser, where they run in one task that must end within the
/// test runner's 20 s request timeout in a debug build.
const CASES_IN_THE_BROWSER: u32 = 48;

/// Reports through one workspace after each step, each compared with the pure
/// report; how many of them were patched, of how many.
fn run(session: &Session) -> Result<(usize, usize), TestCaseError> {
    let mut workspace = Workspace::new();
    let (mut desired, mut actual) = first_states(session);
    let mut options = session.options.clone();
    let mut patched = 0;
    for (number, step) in std::iter::once(None)
        .chain(session.steps.iter().map(Some))
        .enumerate()
    {
        match step {
            None => {}
            Some(Step::Desired(edit)) => desired = edited(&desired, edit, session.named),
            Some(Step::Actual(edit)) => actual = edited(&actual, edit, session.named),
            Some(Step::Sync) => actual = apply(&report(&desired, &actual, &options).plan, &actual),
            Some(Step::Options(new)) => options = new.clone(),
        }
        let reported = workspace.report(&desired, &actual, &options);
        prop_assert_eq!(
            &reported,
            &report(&desired, &actual, &options),
            "after step {}: {:?}",
            number,
            step
        );
        if let ReportMade::Patched { .. } = workspace.last_report_made() {
            patched += 1;
        }
    }
    Ok((patched, session.steps.len() + 1))
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_report_after_any_small_edits_is_the_pure_report() {
    let config = gitops_testing::config_with_cases_in_the_browser(CASES_IN_THE_BROWSER);
    let mut runner = TestRunner::new(proptest::test_runner::Config {
        source_file: Some(file!()),
        ..config
    });
    let (patched, reports) = (Cell::new(0), Cell::new(0));
    let outcome = runner.run(&session(), |session| {
        let (patched_here, reports_here) = run(&session)?;
        patched.set(patched.get() + patched_here);
        reports.set(reports.get() + reports_here);
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
    // The property says something only if many of the reports were patched.
    assert!(
        patched.get() * 3 > reports.get(),
        "{} of {} reports were patched",
        patched.get(),
        reports.get()
    );
}

/// Deployments in namespace `shop` as a person types them, one scaled by an
/// autoscaler, and the Namespace: enough objects that the workspace's memos
/// remember what they found, and its reads keep the text.
fn shop_text(replicas: u32) -> String {
    let mut objects: Vec<Value> = (0..200)
        .map(|index| {
            let name = format!("service-{index:03}");
            json!({
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": name, "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": (index % 3).to_string()}},
                "spec": {"replicas": if index == 42 { replicas } else { 1 }, "template": {"spec": {"containers": [{"name": "app", "image": format!("registry.example/{name}:1.{index}")}]}}}
            })
        })
        .collect();
    objects.push(common::autoscaler_of("service-005"));
    objects.push(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}}));
    serde_json::to_string_pretty(&objects).expect("serializes")
}

/// The cluster after a sync of `desired`, by the application `shop`.
fn synced(desired: &State, options: &Options) -> State {
    gitops_core::sync(desired, &empty(false), options).actual
}

everywhere! {
    fn a_report_after_a_keystroke_is_the_last_one_patched_where_the_object_changed() {
        let options = Options { prune: true, application: Some("shop".into()), ..Options::default() };
        let mut workspace = Workspace::new();
        let desired = workspace.read("desired", &shop_text(2)).unwrap();
        let actual = synced(&desired, &options);
        let first = workspace.report(&desired, &actual, &options);
        assert_eq!(workspace.last_report_made(), ReportMade::Afresh);
        assert_eq!(workspace.report(&desired, &actual, &options), first);
        assert_eq!(workspace.last_report_made(), ReportMade::Patched { changed: 0 }, "the same states");

        // A digit typed over: the reread shares every other object.
        let typed = workspace.read("desired", &shop_text(3)).unwrap();
        let patched = workspace.report(&typed, &actual, &options);
        assert_eq!(workspace.last_report_made(), ReportMade::Patched { changed: 1 });
        assert_eq!(patched, report(&typed, &actual, &options));
        assert_ne!(patched.plan, first.plan, "the typed object is updated");

        // A name typed over: the object leaves its key for another.
        let renamed = workspace.read("desired", &shop_text(3).replace("service-042", "service-042b")).unwrap();
        assert_eq!(workspace.report(&renamed, &actual, &options), report(&renamed, &actual, &options));
        assert_eq!(workspace.last_report_made(), ReportMade::Patched { changed: 2 });
        workspace.report(&typed, &actual, &options);

        // An object the cluster holds alone: the live side changed.
        let mut drifted = actual.clone();
        drifted.insert("ConfigMap/shop/extra", tracked(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "extra", "namespace": "shop"}})));
        assert_eq!(workspace.report(&typed, &drifted, &options), report(&typed, &drifted, &options));
        assert_eq!(workspace.last_report_made(), ReportMade::Patched { changed: 1 });
    }

    fn what_reaches_other_objects_or_other_options_make_a_report_afresh() {
        let options = Options { prune: true, application: Some("shop".into()), ..Options::default() };
        let mut workspace = Workspace::new();
        let desired = workspace.read("desired", &shop_text(2)).unwrap();
        let actual = synced(&desired, &options);
        // The autoscaler's maximum changed: its targets are read for the other
        // objects' findings.
        let mut scaled = desired.clone();
        let autoscaler = "HorizontalPodAutoscaler/shop/service-005";
        let mut changed = scaled.get(autoscaler).unwrap().clone();
        changed["spec"]["maxReplicas"] = json!(9);
        scaled.insert(autoscaler, changed);
        // The Namespace leaves Git: a prune deletes it with all it holds.
        let mut without = desired.clone();
        without.remove("Namespace/shop");
        // Then an object in it changes: named in the Namespace's warning.
        let mut inside = without.clone();
        inside.insert("Deployment/shop/service-100", json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "service-100", "namespace": "shop"}}));
        let other = Options { prune: false, ..options.clone() };
        for (before, after, then, what) in [
            (&desired, &scaled, &options, "an autoscaler"),
            (&desired, &without, &options, "a Namespace of the cluster"),
            (&without, &inside, &options, "an object in a Namespace a prune deletes"),
            (&desired, &desired, &other, "other options"),
        ] {
            workspace.report(before, &actual, &options);
            let reported = workspace.report(after, &actual, then);
            assert_eq!(workspace.last_report_made(), ReportMade::Afresh, "{what}");
            assert_eq!(reported, report(after, &actual, then), "{what}");
        }
        let pruned = workspace.report(&without, &actual, &options);
        assert!(pruned.warnings.iter().any(|warning| warning.rule == "pruned-namespace"));
    }

    fn an_ignore_rule_whose_last_object_is_gone_selects_nothing_in_the_patched_report() {
        let rule = json!([{"group": "batch", "kind": "*", "jsonPointers": ["/spec/parallelism"]}]);
        let options = Options { ignore: serde_json::from_value(rule).unwrap(), ..Options::pruning(false) };
        let mut workspace = Workspace::new();
        let mut desired = workspace.read("desired", &shop_text(2)).unwrap();
        desired.insert("Job/shop/migrate", json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate", "namespace": "shop"}}));
        let actual = empty(false);
        assert!(workspace.report(&desired, &actual, &options).warnings.iter().all(|warning| warning.rule != "ignore-rule-selects-nothing"));
        let mut without = desired.clone();
        without.remove("Job/shop/migrate");
        let reported = workspace.report(&without, &actual, &options);
        assert_eq!(workspace.last_report_made(), ReportMade::Patched { changed: 1 });
        assert_eq!(reported, report(&without, &actual, &options));
        assert!(reported.warnings.iter().any(|warning| warning.rule == "ignore-rule-selects-nothing"));
    }

    fn each_of_a_few_states_reported_on_in_turn_is_patched_from_its_own_last_report() {
        let options = Options::pruning(true);
        let mut workspace = Workspace::new();
        let staging = workspace.read("staging", &shop_text(2)).unwrap();
        let production = workspace.read("production", &shop_text(4)).unwrap();
        let (staging_live, production_live) = (synced(&staging, &options), synced(&production, &options));
        workspace.report(&staging, &staging_live, &options);
        workspace.report(&production, &production_live, &options);
        let typed = workspace.read("staging", &shop_text(3)).unwrap();
        assert_eq!(workspace.report(&typed, &staging_live, &options), report(&typed, &staging_live, &options));
        assert_eq!(workspace.last_report_made(), ReportMade::Patched { changed: 1 });
        assert_eq!(workspace.report(&production, &production_live, &options), report(&production, &production_live, &options));
        assert_eq!(workspace.last_report_made(), ReportMade::Patched { changed: 0 });
    }
}
