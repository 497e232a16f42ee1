//! How long a plan takes as states grow: 1,000 to 10,000 Deployment-sized
//! objects with 1% drift, natively (`cargo bench --bench plan`) and in
//! headless Chromium (`cargo bench --bench plan --target wasm32-unknown-unknown`).
//! It prints figures; it asserts nothing about time.

mod common;

use common::{clock, median_ms, median_ms_prepared, workload, Workload};
use gitops_playground::core::{report, Options, State};

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
                State::parse("desired", desired).expect("valid"),
                State::parse("actual", actual).expect("valid"),
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
}

benchmark!(measure);
