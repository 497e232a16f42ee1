#![cfg(not(target_arch = "wasm32"))]
//! Argo CD's own health fixtures (gitops-engine's `pkg/health/testdata`,
//! converted from YAML to JSON once): every object `expected.json` names gets
//! the health Argo CD's tests assert for it. Files it names that are not in
//! the directory are skipped.

use gitops_core::{health, Health};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/argo-cd")
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("{} is not JSON: {error}", path.display()))
}

#[test]
fn every_fixture_gets_argo_cds_health() {
    let expected = read_json(&fixtures().join("expected.json"));
    let expected = expected["health"]
        .as_object()
        .expect("expected.json has a \"health\" object");
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for (name, want) in expected {
        let base = name.strip_suffix(".yaml").unwrap_or(name);
        let path = fixtures().join("health").join(format!("{base}.json"));
        if !path.exists() {
            continue;
        }
        let want: Option<Health> = serde_json::from_value(want.clone())
            .unwrap_or_else(|error| panic!("{name}: bad expectation {want}: {error}"));
        let got = health(&read_json(&path));
        checked += 1;
        if got != want {
            mismatches.push(format!("{name}: expected {want:?}, got {got:?}"));
        }
    }
    assert!(
        checked > 0,
        "no fixture found under {}",
        fixtures().display()
    );
    assert!(
        mismatches.is_empty(),
        "{} of {checked} fixtures disagree with Argo CD:\n  {}",
        mismatches.len(),
        mismatches.join("\n  ")
    );
}
