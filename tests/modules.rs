//! The module layering inside each crate, beside the crate layering that the
//! compiler enforces: at every module of every crate of the workspace, its
//! children must not refer to each other in a cycle. A use from deep inside
//! one child to deep inside another counts as a use between the two children
//! (`world::agent::x` using `world::cluster::y` is `agent -> cluster`); a
//! module and its own ancestors or descendants may use each other freely, and
//! `#[cfg(test)]` code may use anything. The checker is in `modules/check.rs`.
#![cfg(not(target_arch = "wasm32"))]

#[path = "modules/check.rs"]
mod check;

use check::Crate;
use std::path::{Path, PathBuf};

#[test]
fn no_crate_of_the_workspace_has_a_module_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = check::crate_roots(root);
    assert!(!roots.is_empty(), "no crate root under {}", root.display());
    let mut report = String::new();
    let mut count = 0;
    for file in &roots {
        let cycles = Crate::load(file, root).cycles();
        let mut parent = None;
        for cycle in &cycles {
            if parent != Some(&cycle.parent) {
                let name = file.strip_prefix(root).unwrap().display();
                report.push_str(&format!(
                    "\n{name}: among the children of `{}`:\n",
                    cycle.parent
                ));
                parent = Some(&cycle.parent);
            }
            report.push_str(&cycle.to_string());
        }
        count += cycles.len();
    }
    assert!(
        count == 0,
        "{count} module cycle(s) in the workspace's crates. Siblings must form layers: cut each \
         cycle at one of its edges (move what is used into the lower module, or into a new \
         module below both). Each edge shows one place that makes it, and how many more do.\n{report}"
    );
}

// The checker itself, on tiny crates.

/// A package made of `files` (path, text) in a fresh directory, removed when
/// dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str, files: &[(&str, &str)]) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("gitops-modules-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Scratch(dir)
    }

    fn load(&self) -> Crate {
        Crate::load(&self.0.join("src/lib.rs"), &self.0)
    }

    /// Every edge as `parent: from -> to @ file:line`.
    fn edges(&self) -> Vec<String> {
        let edges = self.load().edges();
        let at = |e: &check::Edge| format!("{}:{}", e.evidence[0].file, e.evidence[0].line);
        edges
            .iter()
            .map(|e| format!("{}: {} -> {} @ {}", e.parent, e.from, e.to, at(e)))
            .collect()
    }

    fn cycles(&self) -> Vec<String> {
        self.load()
            .cycles()
            .iter()
            .map(|c| format!("{}: {}", c.parent, c.chain()))
            .collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn checker_finds_a_cycle_among_siblings() {
    let krate = Scratch::new(
        "cycle",
        &[
            ("src/lib.rs", "mod a;\nmod b;\nmod c;\n"),
            ("src/a.rs", "use crate::b::B;\npub struct A(B);\n"),
            (
                "src/b.rs",
                "pub struct B;\npub fn f() -> super::c::C { todo!() }\n",
            ),
            (
                "src/c.rs",
                "pub struct C;\nfn g() -> Option<crate::a::A> { None }\n",
            ),
        ],
    );
    assert_eq!(krate.cycles(), ["crate: a -> b -> c -> a"]);
    let cycle = &krate.load().cycles()[0];
    let at: Vec<String> = cycle.edges.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        at,
        [
            "src/a.rs:1 `crate::b::B`",
            "src/b.rs:2 `super::c::C`",
            "src/c.rs:2 `crate::a::A`"
        ]
    );
    assert_eq!(
        cycle.more,
        [1, 0, 0],
        "`B` in `A(B)` is the `B` that a.rs imports"
    );
}

#[test]
fn checker_lets_a_module_and_its_ancestors_use_each_other() {
    let krate = Scratch::new(
        "family",
        &[
            ("src/lib.rs", "pub mod a;\npub struct Root;\nfn f() { a::inner::g(); }\n"),
            ("src/a/mod.rs", "pub mod inner;\npub use inner::g;\npub struct A(crate::Root);\n"),
            ("src/a/inner.rs", "use super::A;\npub fn g() -> Option<crate::a::A> { let _ = super::super::Root; None }\n"),
        ],
    );
    assert_eq!(krate.edges(), Vec::<String>::new());
    assert_eq!(krate.cycles(), Vec::<String>::new());
}

#[test]
fn checker_lifts_an_edge_to_the_children_of_the_common_ancestor() {
    let krate = Scratch::new(
        "lifted",
        &[
            ("src/lib.rs", "mod world;\n"),
            (
                "src/world/mod.rs",
                "mod agent;\nmod cluster;\npub struct World;\n",
            ),
            ("src/world/agent/mod.rs", "mod edge;\n"),
            (
                "src/world/agent/edge.rs",
                "\nfn run(c: &crate::world::cluster::X) {}\n",
            ),
            (
                "src/world/cluster.rs",
                "pub struct X;\nmod deep { fn f(_: super::super::World) {} }\n",
            ),
        ],
    );
    assert_eq!(
        krate.edges(),
        ["world: world::agent -> world::cluster @ src/world/agent/edge.rs:2"]
    );
    assert_eq!(krate.cycles(), Vec::<String>::new());
}

#[test]
fn checker_follows_re_exports_and_skips_test_code() {
    let krate = Scratch::new(
        "re-exports",
        &[
            ("src/lib.rs", "pub mod core;\nmod other;\n"),
            ("src/core/mod.rs", "mod state;\nmod reads;\npub use state::*;\n"),
            ("src/core/state.rs", "pub struct State;\nfn f() { super::reads::read(); }\n"),
            ("src/core/reads.rs", "use super::State;\npub fn read() -> State { State }\n"),
            (
                "src/other.rs",
                "#[cfg(test)]\nmod tests { use crate::core::State; }\n#[test]\nfn t() { crate::core::State; }\n",
            ),
        ],
    );
    assert_eq!(
        krate.cycles(),
        ["core: core::reads -> core::state -> core::reads"]
    );
    let edges = krate.edges();
    assert_eq!(
        edges,
        [
            "core: core::state -> core::reads @ src/core/state.rs:2",
            "core: core::reads -> core::state @ src/core/reads.rs:1"
        ]
    );
}

#[test]
fn checker_sees_paths_in_types_expressions_macros_attributes_and_path_attributes() {
    let krate = Scratch::new(
        "everywhere",
        &[
            ("src/lib.rs", "mod a;\nmod b;\n#[path = \"elsewhere/c.rs\"]\nmod c;\nmod d { pub fn f() {} }\n"),
            ("src/a.rs", "use crate::c as cc;\nfn f() { let v = vec![crate::b::new()]; cc::g(); }\npub struct A;\n"),
            (
                "src/b.rs",
                r#"#[derive(serde::Deserialize)]
struct S {
    #[serde(with = "crate::d::f")]
    x: u8,
}
pub fn new() {}
"#,
            ),
            ("src/elsewhere/c.rs", "pub fn g() {}\nfn h(_: impl Fn() -> crate::a::A) {}\n"),
        ],
    );
    let edges = krate.edges();
    assert_eq!(
        edges,
        [
            "crate: a -> b @ src/a.rs:2",
            "crate: a -> c @ src/a.rs:1",
            "crate: b -> d @ src/b.rs:3",
            "crate: c -> a @ src/elsewhere/c.rs:2",
        ]
    );
    assert_eq!(krate.cycles(), ["crate: a -> c -> a"]);
}

#[test]
fn crate_roots_are_the_root_package_s_and_those_in_crates() {
    let dir = Scratch::new(
        "roots",
        &[
            ("src/lib.rs", ""),
            ("src/bin/tool.rs", ""),
            ("crates/core/Cargo.toml", ""),
            ("crates/core/src/lib.rs", ""),
            ("crates/cli/Cargo.toml", ""),
            ("crates/cli/src/main.rs", ""),
            ("crates/notes/README.md", ""),
        ],
    );
    let roots = check::crate_roots(&dir.0);
    let roots: Vec<_> = roots
        .iter()
        .map(|r| r.strip_prefix(&dir.0).unwrap().to_str().unwrap())
        .collect();
    assert_eq!(
        roots,
        [
            "src/lib.rs",
            "src/bin/tool.rs",
            "crates/cli/src/main.rs",
            "crates/core/src/lib.rs"
        ]
    );
}
