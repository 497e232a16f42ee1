//! What the benchmarks share: generated Deployments with 1% drift, a clock
//! that reads the same natively and in a browser, and the median of runs.

// Each benchmark uses a part of what is here.
#![allow(dead_code)]

use gitops_core::{sync, Options, State};
use serde_json::{json, Value};

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

pub struct Workload {
    pub desired_text: String,
    pub actual_text: String,
}

/// `size` Deployments as Git declares them, and as the cluster holds them
/// after an apply by `application` (which stamps its tracking id on each, as
/// Argo CD does), 1% drifted.
pub fn states(size: usize, application: Option<&str>) -> (Value, Value) {
    let desired = State::from_value("desired", Value::Array((0..size).map(deployment).collect()))
        .expect("valid");
    let applied = sync(
        &desired,
        &State::from_value("actual", json!([])).expect("valid"),
        &Options {
            application: application.map(str::to_string),
            ..Options::default()
        },
    )
    .actual;
    let live: Vec<Value> = applied
        .objects()
        .values()
        .enumerate()
        .map(|(index, object)| {
            let mut live = as_live(object.value().clone());
            if index % DRIFT_EVERY == 0 {
                live["spec"]["template"]["spec"]["containers"][0]["image"] =
                    json!("registry.example/hotfix:latest");
            }
            live
        })
        .collect();
    (desired.to_value(), Value::Array(live))
}

/// The two states as compact JSON texts.
pub fn workload(size: usize) -> Workload {
    let (desired, live) = states(size, None);
    Workload {
        desired_text: serde_json::to_string(&desired).expect("serializes"),
        actual_text: serde_json::to_string(&live).expect("serializes"),
    }
}

/// The entry points of a benchmark whose figures come from `measure(print)`: `main`
/// natively, and in the browser the runner's entry point for benchmarks (the figures
/// are ours, not Criterion's, so that they read the same as the native ones).
#[macro_export]
macro_rules! benchmark {
    ($measure:ident) => {
        #[cfg(not(target_arch = "wasm32"))]
        fn main() {
            pollster::block_on($measure(|line| println!("{line}")));
        }

        #[cfg(target_arch = "wasm32")]
        fn main() {}

        #[cfg(target_arch = "wasm32")]
        mod in_the_browser {
            use wasm_bindgen_test::Criterion;

            wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

            #[wasm_bindgen_test::wasm_bindgen_bench]
            async fn benchmark(_: &mut Criterion) {
                super::$measure(|line| wasm_bindgen_test::console_log!("{line}")).await;
            }
        }
    };
}

/// The median of `runs` timings of `work` on what `prepare` made for it
/// (untimed), in milliseconds.
pub async fn median_ms_prepared<S>(
    runs: usize,
    mut prepare: impl FnMut() -> S,
    mut work: impl FnMut(&S),
) -> f64 {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let prepared = prepare();
        let start = clock::now_ms();
        work(&prepared);
        times.push(clock::now_ms() - start);
        drop(prepared);
        clock::pause().await;
    }
    median(times)
}

/// The median of `runs` timings of `work`, in milliseconds.
pub async fn median_ms(runs: usize, mut work: impl FnMut()) -> f64 {
    median_ms_prepared(runs, || (), |()| work()).await
}

/// The median of some timings.
pub fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

#[cfg(not(target_arch = "wasm32"))]
pub mod clock {
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
pub mod clock {
    pub const WHERE: &str = "wasm in headless Chromium";

    pub fn now_ms() -> f64 {
        web_sys::window()
            .and_then(|window| window.performance())
            .map_or(0.0, |performance| performance.now())
    }

    pub async fn pause() {
        gloo_timers::future::TimeoutFuture::new(0).await;
    }
}
