#![cfg(not(target_arch = "wasm32"))]
//! Argo CD's own health fixtures, converted from YAML to JSON once:
//! gitops-engine's `pkg/health/testdata`, where every object `expected.json`
//! names gets the health Argo CD's tests assert for it (files it names that
//! are not in the directory are skipped); and the tests of the Lua checks
//! Argo CD ships in `resource_customizations/<group>/<kind>/`, where every
//! object a `health_test.json` names gets the status it lists. Each object
//! is assessed twice: built as a `serde_json` value, and read where it lies
//! in its text (a tape).

use gitops_core::text::tape::Tape;
use gitops_core::{health, Health};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/argo-cd")
}

fn read_text(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&read_text(path))
        .unwrap_or_else(|error| panic!("{} is not JSON: {error}", path.display()))
}

/// The object's health as a built value, and as a tape.
fn healths(path: &Path) -> [(&'static str, Option<Health>); 2] {
    let tape = Tape::parse("fixture", read_text(path).into())
        .unwrap_or_else(|error| panic!("{} does not read: {error}", path.display()));
    [("built", health(&read_json(path))), ("taped", health(tape.root()))]
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
        checked += 1;
        for (read, got) in healths(&path) {
            if got != want {
                mismatches.push(format!("{name} ({read}): expected {want:?}, got {got:?}"));
            }
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

#[test]
fn every_resource_customization_fixture_gets_argo_cds_health() {
    let root = fixtures().join("resource_customizations");
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for kind in subdirectories(&root)
        .iter()
        .flat_map(|group| subdirectories(group))
    {
        let tests = read_json(&kind.join("health_test.json"));
        let tests = tests["tests"]
            .as_array()
            .unwrap_or_else(|| panic!("{}: no \"tests\" list", kind.display()));
        assert!(!tests.is_empty(), "{}: no test", kind.display());
        for test in tests {
            let input = test["inputPath"].as_str().expect("an inputPath");
            let want: Health = serde_json::from_value(test["healthStatus"]["status"].clone())
                .unwrap_or_else(|error| panic!("{input}: bad expectation: {error}"));
            let path = kind.join(input).with_extension("json");
            checked += 1;
            for (read, got) in healths(&path) {
                if got != Some(want) {
                    let name = path.strip_prefix(&root).unwrap_or(&path).display();
                    mismatches.push(format!("{name} ({read}): expected {want:?}, got {got:?}"));
                }
            }
        }
    }
    assert!(checked > 0, "no fixture found under {}", root.display());
    assert!(
        mismatches.is_empty(),
        "{} of {checked} fixtures disagree with Argo CD:\n  {}",
        mismatches.len(),
        mismatches.join("\n  ")
    );
}

/// The directories in `directory`, in name order.
fn subdirectories(directory: &Path) -> Vec<PathBuf> {
    let entries = fs::read_dir(directory)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", directory.display()));
    let mut directories: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_dir())
        .collect();
    directories.sort();
    directories
}
