//! The layers, as the compiler keeps them: each crate depends only on the
//! layers under it, and the core, the world and the page's model on no web
//! crate at all (`cargo tree`, every target, normal dependencies); and the
//! core keeps no state of its own: what it remembers is a `Workspace` its
//! caller holds.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::process::Command;

const WEB_CRATES: [&str; 5] = ["wasm-bindgen", "web-sys", "js-sys", "yew", "gloo"];

/// Every package `package` depends on, on any target, by name.
fn dependencies(package: &str) -> BTreeSet<String> {
    let output = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--offline", "--quiet", "-p", package])
        .args(["--target", "all", "-e", "normal", "--prefix", "none"])
        .args(["--format", "{p}"])
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("cargo tree writes UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != package)
        .map(str::to_string)
        .collect()
}

/// The project's own crates among `package`'s dependencies.
fn layers_under(package: &str) -> BTreeSet<String> {
    dependencies(package)
        .into_iter()
        .filter(|name| name.starts_with("gitops-"))
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|name| name.to_string()).collect()
}

#[test]
fn the_core_the_world_and_the_page_model_depend_on_no_web_crate() {
    for package in ["gitops-core", "gitops-world", "gitops-page"] {
        let web: Vec<String> = dependencies(package)
            .into_iter()
            .filter(|name| {
                WEB_CRATES
                    .iter()
                    .any(|web| name == web || name.starts_with(&format!("{web}-")))
            })
            .collect();
        assert_eq!(web, Vec::<String>::new(), "{package} depends on web crates");
    }
}

#[test]
fn each_layer_depends_only_on_the_layers_under_it() {
    assert_eq!(layers_under("gitops-core"), set(&[]));
    assert_eq!(layers_under("gitops-world"), set(&["gitops-core"]));
    assert_eq!(
        layers_under("gitops-page"),
        set(&["gitops-core", "gitops-world"])
    );
    assert_eq!(layers_under("gitops-js"), set(&["gitops-core"]));
    assert_eq!(
        layers_under("gitops-api"),
        set(&["gitops-core", "gitops-js", "gitops-world"])
    );
    assert_eq!(
        layers_under("gitops-sim"),
        set(&["gitops-core", "gitops-world"])
    );
    assert_eq!(
        layers_under("gitops-fuzz"),
        set(&["gitops-core", "gitops-world"]),
        "fuzzing feeds the core and the world as the page does"
    );
    assert_eq!(
        layers_under("gitops-playground"),
        set(&["gitops-core", "gitops-js", "gitops-page", "gitops-world"]),
        "the front end builds on the page's model, and never on the API module"
    );
}

/// Every Rust file under `directory`, with its text.
fn rust_files(directory: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(directory).expect("the directory reads").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let text = std::fs::read_to_string(&path).expect("the file reads");
            files.push((path, text));
        }
    }
    files
}

#[test]
fn the_core_keeps_no_thread_local_or_global_state() {
    let core = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let files = rust_files(&core);
    assert!(files.len() > 50, "the core's files are found: {}", files.len());
    let kept: Vec<String> = files
        .iter()
        .flat_map(|(path, text)| {
            text.lines().enumerate().filter_map(move |(number, line)| {
                let code = line.trim_start();
                let global = code.contains("thread_local!")
                    || ["static ", "pub static ", "pub(crate) static "].iter().any(|item| code.starts_with(item));
                global.then(|| format!("{}:{}: {code}", path.display(), number + 1))
            })
        })
        .collect();
    assert!(kept.is_empty(), "state kept outside a Workspace:\n{}", kept.join("\n"));
}
