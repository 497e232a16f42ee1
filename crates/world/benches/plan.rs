//! How long a plan takes as states grow: 1,000 to 10,000 Deployment-sized
//! objects with 1% drift, read as the API reads them (into tapes: the `tapes`
//! feature), natively (`cargo bench --bench plan --features tapes`) and in
//! headless Chromium (the same with `--target wasm32-unknown-unknown`).
//! It prints figures; it asserts nothing about time.
//!
//! Then where a first read's time goes at 1,000 objects: the least any
//! reader of the two texts does (check that they are JSON, building nothing),
//! building `serde_json` values of them, and the core's own read of them as
//! states; in the browser, also copying the texts from JavaScript into wasm.

mod common;

use common::{clock, median_ms, median_ms_prepared, workload, Workload};
use gitops_core::text::edit::SharedText;
use gitops_core::text::tape::Tape;
use gitops_core::{report, Options, State};
use serde::de::IgnoredAny;
use serde_json::Value;
use std::cell::RefCell;

const SIZES: [usize; 3] = [1_000, 5_000, 10_000];

/// The two texts with 1 to 6 trailing spaces: the same states, but texts not
/// read a moment ago (the core keeps its last few large reads), so that each
/// run times a first read.
fn unseen_copies(work: &Workload) -> Vec<(String, String)> {
    (1..=6)
        .map(|spaces| {
            let padding = " ".repeat(spaces);
            (
                format!("{}{padding}", work.desired_text),
                format!("{}{padding}", work.actual_text),
            )
        })
        .collect()
}

async fn measure(print: impl Fn(String)) {
    print(format!(
        "plan of N Deployments with 1% drift ({})",
        clock::WHERE
    ));
    print(format!(
        "{:>8} {:>10} {:>12} {:>12} {:>12} {:>8}",
        "objects", "input MB", "parse ms", "plan ms", "total ms", "ops"
    ));
    // The floor first, on a clean slate: measured after the larger sizes, its
    // reads would also free the large reads those left kept.
    let floor = RefCell::new(Vec::new());
    reading_floor(SIZES[0], &workload(SIZES[0]), &|line| floor.borrow_mut().push(line)).await;
    let mut totals = Vec::new();
    for size in SIZES {
        let work = workload(size);
        clock::pause().await;
        let megabytes = (work.desired_text.len() + work.actual_text.len()) as f64 / 1e6;
        let copies = unseen_copies(&work);
        let mut copy = 0;
        let mut parse = || {
            copy = (copy + 1) % copies.len();
            let (desired, actual) = &copies[copy];
            (
                State::read("desired", desired).expect("valid"),
                State::read("actual", actual).expect("valid"),
            )
        };
        let (desired, actual) = parse();
        let options = Options::default();
        let operations = report(&desired, &actual, &options).plan.len();
        let runs = if size >= 10_000 { 7 } else { 11 };
        let parse_ms = median_ms(runs, || drop(parse())).await;
        // Each plan is of states read afresh: the core remembers what it found for the
        // objects of the last large states, so the same states again would be no work.
        let plan_ms = median_ms_prepared(runs, &mut parse, |(desired, actual)| {
            drop(report(desired, actual, &options))
        })
        .await;
        let total_ms = median_ms(runs, || {
            let (desired, actual) = parse();
            drop(report(&desired, &actual, &options));
        })
        .await;
        print(format!("{size:>8} {megabytes:>10.1} {parse_ms:>12.1} {plan_ms:>12.1} {total_ms:>12.1} {operations:>8}"));
        totals.push((size, plan_ms, total_ms));
    }
    let (small, small_plan, small_total) = totals[0];
    let (large, large_plan, large_total) = totals[totals.len() - 1];
    let factor = large as f64 / small as f64;
    print(format!(
        "growth from {small} to {large} objects (x{factor:.0}): plan x{:.1}, parse and plan x{:.1} (linear is x{factor:.0})",
        large_plan / small_plan,
        large_total / small_total
    ));
    floor.take().into_iter().for_each(print);
}

/// What reading the texts costs at the least, against what the core's read costs.
async fn reading_floor(objects: usize, work: &Workload, print: &impl Fn(String)) {
    const RUNS: usize = 11;
    let texts = [&work.desired_text, &work.actual_text];
    let check = median_ms(RUNS, || {
        for text in texts {
            let _: IgnoredAny = serde_json::from_str(text).expect("valid");
        }
    })
    .await;
    // What is built is freed after the clock stops, as the core frees its reads later.
    let built = RefCell::new(Vec::new());
    let values = median_ms_prepared(
        RUNS,
        || built.borrow_mut().clear(),
        |()| {
            for text in texts {
                let value: Value = serde_json::from_str(text).expect("valid");
                built.borrow_mut().push(value);
            }
        },
    )
    .await;
    let copies = unseen_copies(work);
    let mut copy = 0;
    let states = median_ms(RUNS, || {
        copy = (copy + 1) % copies.len();
        let (desired, actual) = &copies[copy];
        drop((
            State::read("desired", desired).expect("valid"),
            State::read("actual", actual).expect("valid"),
        ));
    })
    .await;
    let shared = texts.map(|text| SharedText::from(text.as_str()));
    let taped = RefCell::new(Vec::new());
    let tapes = median_ms_prepared(
        RUNS,
        || taped.borrow_mut().clear(),
        |()| {
            for text in &shared {
                let tape = Tape::parse("state", text.clone()).expect("valid");
                taped.borrow_mut().push(tape);
            }
        },
    )
    .await;
    let node_bytes: usize = taped.borrow().iter().map(Tape::heap_bytes).sum();
    let text_bytes: usize = texts.iter().map(|text| text.len()).sum();
    print(format!(
        "reading both texts of {} objects: checking they are JSON, building nothing, {check:.1} ms; \
         building serde_json values {values:.1} ms; reading them as states {states:.1} ms; \
         reading them into tapes {tapes:.1} ms, their nodes {:.1} MB beside {:.1} MB of text",
        objects,
        node_bytes as f64 / 1e6,
        text_bytes as f64 / 1e6
    ));
    #[cfg(target_arch = "wasm32")]
    {
        let in_javascript = texts.map(|text| js_sys::JsString::from(text.as_str()));
        let copying = median_ms(RUNS, || {
            for text in &in_javascript {
                drop(String::from(text));
            }
        })
        .await;
        print(format!(
            "copying both texts from JavaScript into wasm: {copying:.1} ms"
        ));
    }
}

benchmark!(measure);
