//! The checker behind `tests/modules.rs`: reads a crate's module tree from its
//! sources with `syn`, finds which module refers to which, and reports the
//! cycles among the children of each module.
//!
//! - The tree: `mod name;` (to `name.rs`, `name/mod.rs` or its `#[path]`) and
//!   inline `mod name { ... }`. A `#[cfg(test)]` module or item is left out:
//!   tests may use anything.
//! - A module's references: every leaf of its `use` trees, every path in its
//!   code (types, expressions, patterns, bounds, macro calls) that starts with
//!   `crate::`, `super::` or `self::`, or with a child module, an item of the
//!   module or a name it imports; the same inside macro arguments and in the
//!   strings of attributes such as `#[serde(with = "crate::x")]`. Doc comments
//!   and visibilities (`pub(in crate::x)`) are not references.
//! - A reference goes to the module that defines the item: the longest module
//!   path that exists, then through that module's `use`s (re-exports,
//!   `pub use x::*` included) to where the item really is.
//! - A reference from A to B, B neither A nor an ancestor nor a descendant of
//!   A, is an edge between the two children of their lowest common ancestor
//!   that hold A and B. At every module, the edges among its children must
//!   not form a cycle.
//!
//! Modules of every configuration are read when their file is there (the
//! wasm-only ones too). Not seen: names brought in only by a glob and then
//! used bare (no crate code does that outside tests today), and modules
//! declared inside functions.
//!
//! The checker's parts, beside this file: `tree.rs` reads the module tree
//! from the files, `references.rs` collects what each module's code refers
//! to, `items.rs` tells both what an item is, `resolve.rs` finds the module
//! that defines what a path names, and `cycles.rs` lifts the references to
//! edges among siblings and finds the cycles among them.

mod cycles;
mod items;
mod references;
mod resolve;
mod tree;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use tree::parse;

type Id = usize;

/// A path as written in module `Module`, with the line it is on.
struct Ref {
    path: Vec<String>,
    line: usize,
}

struct Module {
    /// Segments from the crate root (empty for the root).
    path: Vec<String>,
    parent: Option<Id>,
    file: PathBuf,
    children: BTreeMap<String, Id>,
    /// Names of the items defined here (not modules, not imports).
    items: BTreeSet<String>,
    /// The module's own `use`s: name -> path as written.
    imports: BTreeMap<String, Vec<String>>,
    /// `use`s inside its functions, only for its own paths.
    local_imports: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
    refs: Vec<Ref>,
}

/// One place in the sources that causes an edge.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Evidence {
    pub file: String,
    pub line: usize,
    pub path: String,
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{} `{}`", self.file, self.line, self.path)
    }
}

/// An edge between two children of `parent`, with every place that causes it
/// (sorted: the first is in the first file, at the first line).
pub struct Edge {
    pub parent: String,
    pub from: String,
    pub to: String,
    pub evidence: Vec<Evidence>,
}

/// A cycle among the children of `parent`: `chain[0] -> chain[1] -> ... ->
/// chain[0]`, `edges[i]` being the edge that leaves `chain[i]`.
pub struct Cycle {
    pub parent: String,
    pub chain: Vec<String>,
    pub edges: Vec<Evidence>,
    /// How many more places cause each edge.
    pub more: Vec<usize>,
}

impl Cycle {
    /// `a -> b -> a`.
    pub fn chain(&self) -> String {
        let mut s = self.chain.join(" -> ");
        s.push_str(" -> ");
        s.push_str(&self.chain[0]);
        s
    }
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "  {}", self.chain())?;
        for (i, at) in self.edges.iter().enumerate() {
            let to = &self.chain[(i + 1) % self.chain.len()];
            write!(f, "      {} -> {}: {at}", self.chain[i], to)?;
            match self.more[i] {
                0 => writeln!(f)?,
                n => writeln!(f, " (and {n} more)")?,
            }
        }
        Ok(())
    }
}

pub struct Crate {
    /// Where file names are shown from.
    base: PathBuf,
    modules: Vec<Module>,
}

impl Crate {
    /// Reads the crate whose root file is `root`; files are named relative to
    /// `base` in what it reports.
    pub fn load(root: &Path, base: &Path) -> Crate {
        let mut krate = Crate {
            base: base.to_owned(),
            modules: Vec::new(),
        };
        let file = parse(root);
        let dir = root.parent().unwrap().to_owned();
        krate.add(Vec::new(), None, root, &file.items, &dir, &dir);
        krate
    }

    fn name(&self, id: Id) -> String {
        match self.modules[id].path.as_slice() {
            [] => "crate".to_owned(),
            p => p.join("::"),
        }
    }

    fn is_ancestor_or_self(&self, ancestor: Id, mut of: Id) -> bool {
        loop {
            if of == ancestor {
                return true;
            }
            match self.modules[of].parent {
                Some(p) => of = p,
                None => return false,
            }
        }
    }
}

/// The crate roots of the workspace at `root`: the root package's and those
/// of each package in `crates/`, each a library, a main binary or a binary
/// in `src/bin/`.
pub fn crate_roots(root: &Path) -> Vec<PathBuf> {
    let mut packages = vec![root.to_owned()];
    if let Ok(entries) = std::fs::read_dir(root.join("crates")) {
        let mut dirs: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("Cargo.toml").is_file())
            .collect();
        dirs.sort();
        packages.extend(dirs);
    }
    let mut roots = Vec::new();
    for package in packages {
        let src = package.join("src");
        roots.extend(
            ["lib.rs", "main.rs"]
                .iter()
                .map(|f| src.join(f))
                .filter(|f| f.is_file()),
        );
        if let Ok(entries) = std::fs::read_dir(src.join("bin")) {
            let mut bins: Vec<PathBuf> = entries
                .map(|e| e.unwrap().path())
                .map(|p| if p.is_dir() { p.join("main.rs") } else { p })
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rs"))
                .collect();
            bins.sort();
            roots.extend(bins);
        }
    }
    roots
}
