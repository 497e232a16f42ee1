//! How long a plan takes as states grow: 1,000 to 10,000 Deployment-sized
//! objects with 1% drift, natively (`cargo bench --bench plan`) and in
//! headless Chromium (`cargo bench --bench plan --target wasm32-unknown-unknown`).
//! It prints figures; it asserts nothing about time.

use gitops_playground::core::{report, sync, Options, State};
use serde_json::{json, Value};

const SIZES: [usize; 3] = [1_000, 5_000, 10_000];
const DRIFT_EVERY: usize = 100;

fn deployment(index: usize) -> Value {
    let name = format!("service-{index:05}");
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": name,
            "namespace": format!("team-{}", index % 20),
            "labels": {"app.kubernetes.io/name": name, "app.kubernetes.io/part-of": "shop", "tier": "backend"},
            "annotations": {"argocd.argoproj.io/sync-wave": (index % 3).to_string()}
        },
        "spec": {
            "replicas": 2 + index % 3,
            "selector": {"matchLabels": {"app.kubernetes.io/name": name}},
            "template": {
                "metadata": {"labels": {"app.kubernetes.io/name": name}},
                "spec": {
                    "containers": [{
                        "name": "app",
                        "image": format!("registry.example/{name}@sha256:{index:064x}"),
                        "ports": [{"containerPort": 8080, "name": "http"}],
                        "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "REGION", "value": "eu-west-1"}],
                        "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}},
                        "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 5}
                    }]
                }
            }
        }
    })
}

/// What the cluster adds to an applied Deployment: defaults and status.
fn as_live(mut object: Value) -> Value {
    object["metadata"]["uid"] = json!("5b6f1f0e-0000-4000-8000-000000000000");
    object["metadata"]["resourceVersion"] = json!("123456");
    object["metadata"]["generation"] = json!(1);
    object["spec"]["revisionHistoryLimit"] = json!(10);
    object["spec"]["progressDeadlineSeconds"] = json!(600);
    object["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"] = json!("IfNotPresent");
    let replicas = object["spec"]["replicas"].clone();
    object["status"] = json!({"observedGeneration": 1, "replicas": replicas, "updatedReplicas": replicas,
                               "readyReplicas": replicas, "availableReplicas": replicas});
    object
}

struct Workload {
    desired_text: String,
    actual_text: String,
}

fn workload(size: usize) -> Workload {
    let desired = State::from_value("desired", Value::Array((0..size).map(deployment).collect()))
        .expect("valid");
    let applied = sync(
        &desired,
        &State::from_value("actual", json!([])).expect("valid"),
        &Options::default(),
    )
    .actual;
    let live: Vec<Value> = applied
        .objects()
        .values()
        .enumerate()
        .map(|(index, object)| {
            let mut live = as_live(object.clone());
            if index % DRIFT_EVERY == 0 {
                live["spec"]["template"]["spec"]["containers"][0]["image"] =
                    json!("registry.example/hotfix:latest");
            }
            live
        })
        .collect();
    Workload {
        desired_text: serde_json::to_string(&desired.to_value()).expect("serializes"),
        actual_text: serde_json::to_string(&Value::Array(live)).expect("serializes"),
    }
}

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

/// The median of `runs` timings of `work`, in milliseconds. Between runs it
/// yields, so that a browser page stays responsive.
async fn median_ms(runs: usize, mut work: impl FnMut()) -> f64 {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = clock::now_ms();
        work();
        times.push(clock::now_ms() - start);
        clock::pause().await;
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
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
        let plan_ms = median_ms(runs, || drop(report(&desired, &actual, &options))).await;
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

#[cfg(not(target_arch = "wasm32"))]
mod clock {
    use std::sync::OnceLock;
    use std::time::Instant;

    pub const WHERE: &str = "native";

    pub fn now_ms() -> f64 {
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
    }

    pub async fn pause() {}
}

#[cfg(target_arch = "wasm32")]
mod clock {
    pub const WHERE: &str = "wasm in headless Chromium";

    pub fn now_ms() -> f64 {
        web_sys::window()
            .and_then(|window| window.performance())
            .map_or(0.0, |performance| performance.now())
    }

    pub async fn pause() {
        gloo::timers::future::TimeoutFuture::new(0).await;
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    pollster::block_on(measure(|line| println!("{line}")));
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(target_arch = "wasm32")]
mod in_the_browser {
    use wasm_bindgen_test::Criterion;

    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    /// The runner's entry point for benchmarks; the figures are ours, not
    /// Criterion's, so that they read the same as the native ones.
    #[wasm_bindgen_test::wasm_bindgen_bench]
    async fn plan_benchmark(_: &mut Criterion) {
        super::measure(|line| wasm_bindgen_test::console_log!("{line}")).await;
    }
}
