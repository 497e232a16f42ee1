//! The lesson's laws over generated states, natively and in the browser.

mod common;

use common::generate::{config, desired_and_actual, named_state};
use gitops_playground::core::{apply, diff, drift, report, sync, Form, Operation, Options, State};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn keys_of<'a>(plan: &'a [Operation], verb: &str) -> Vec<&'a str> {
    plan.iter()
        .filter(|operation| operation.verb() == verb)
        .map(Operation::key)
        .collect()
}

fn extras(desired: &State, actual: &State) -> BTreeSet<String> {
    actual
        .objects()
        .keys()
        .filter(|key| desired.get(key).is_none())
        .cloned()
        .collect()
}

proptest! {
    #![proptest_config(config())]

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn with_prune_one_pass_converges((desired, actual) in desired_and_actual()) {
        let prune = Options::pruning(true);
        let after = apply(&diff(&desired, &actual, &prune), &actual);
        prop_assert!(diff(&desired, &after, &prune).is_empty(), "a second pass does nothing");
        prop_assert!(drift(&desired, &after, &prune).is_empty());
        let keys = |state: &State| state.objects().keys().cloned().collect::<Vec<_>>();
        prop_assert_eq!(keys(&after), keys(&desired));
        if *desired.form() == Form::Named {
            prop_assert_eq!(after.objects(), desired.objects(), "the lesson's form compares exactly");
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn without_prune_extras_stay_untouched_and_show_in_drift((desired, actual) in desired_and_actual()) {
        let keep = Options::pruning(false);
        let plan = diff(&desired, &actual, &keep);
        prop_assert!(keys_of(&plan, "delete").is_empty());
        let after = apply(&plan, &actual);
        for key in extras(&desired, &actual) {
            prop_assert_eq!(after.get(&key), actual.get(&key));
        }
        prop_assert!(diff(&desired, &after, &keep).is_empty());
        let left = drift(&desired, &after, &keep);
        prop_assert!(left.missing.is_empty() && left.changed.is_empty());
        prop_assert_eq!(left.extra.into_iter().collect::<BTreeSet<_>>(), extras(&desired, &actual));
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_converged_state_gives_an_empty_plan(desired in named_state(), prune in any::<bool>()) {
        let options = Options::pruning(prune);
        prop_assert!(diff(&desired, &desired, &options).is_empty());
        prop_assert!(drift(&desired, &desired, &options).is_empty());
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn drift_and_plan_agree((desired, actual) in desired_and_actual(), prune in any::<bool>()) {
        let options = Options::pruning(prune);
        let report = report(&desired, &actual, &options);
        prop_assert_eq!(keys_of(&report.plan, "create"), report.drift.missing.iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert_eq!(keys_of(&report.plan, "update"), report.drift.changed.iter().map(String::as_str).collect::<Vec<_>>());
        let mut deleted = keys_of(&report.plan, "delete");
        deleted.reverse();
        let expected: Vec<&str> = if prune { report.drift.extra.iter().map(String::as_str).collect() } else { Vec::new() };
        prop_assert_eq!(deleted, expected);
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_bad_version_then_the_previous_one_restores_the_state(
        (good, bad) in desired_and_actual(),
    ) {
        let prune = Options::pruning(true);
        let start = State::empty(good.form().clone());
        let running = sync(&good, &start, &prune).actual;
        let broken = sync(&bad, &running, &prune).actual;
        let restored = sync(&good, &broken, &prune).actual;
        prop_assert_eq!(restored.to_value(), running.to_value());
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn the_plan_is_ordered_and_deterministic((desired, actual) in desired_and_actual()) {
        let prune = Options::pruning(true);
        let plan = diff(&desired, &actual, &prune);
        prop_assert_eq!(&plan, &diff(&desired.clone(), &actual.clone(), &prune));
        let split = plan.iter().position(|operation| operation.verb() == "delete").unwrap_or(plan.len());
        let (writes, deletes) = plan.split_at(split);
        prop_assert!(writes.windows(2).all(|pair| pair[0].key() < pair[1].key()));
        prop_assert!(deletes.iter().all(|operation| operation.verb() == "delete"));
        prop_assert!(deletes.windows(2).all(|pair| pair[0].key() > pair[1].key()));
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_state_reads_back_what_it_writes((state, _) in desired_and_actual()) {
        let text = serde_json::to_string(&state.to_value()).unwrap();
        prop_assert_eq!(State::parse("round trip", &text).unwrap(), state);
    }
}
