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

use proc_macro2::{Spacing, Span, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::path::{Path, PathBuf};
use syn::visit::{self, Visit};
use syn::{Attribute, Item, Meta, UseTree};

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

    /// Adds the module `path` whose items are `items` (in `file`); its
    /// `mod x;` are looked for in `dir`, and their `#[path]` from `path_dir`.
    fn add(
        &mut self,
        path: Vec<String>,
        parent: Option<Id>,
        file: &Path,
        items: &[Item],
        dir: &Path,
        path_dir: &Path,
    ) -> Id {
        let id = self.modules.len();
        self.modules.push(Module {
            path: path.clone(),
            parent,
            file: file.to_owned(),
            children: BTreeMap::new(),
            items: BTreeSet::new(),
            imports: BTreeMap::new(),
            local_imports: BTreeMap::new(),
            globs: Vec::new(),
            refs: Vec::new(),
        });
        let mut refs = Refs {
            refs: Vec::new(),
            imports: BTreeMap::new(),
        };
        for item in items {
            let (attrs, ident) = item_parts(item);
            if is_test_only(attrs) {
                continue;
            }
            match item {
                Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let child_path = [&path[..], std::slice::from_ref(&name)].concat();
                    let path_attr = path_attr(&m.attrs);
                    let child = if let Some((_, inner)) = &m.content {
                        let sub = dir.join(path_attr.as_deref().unwrap_or(&name));
                        self.add(child_path, Some(id), file, inner, &sub, &sub)
                    } else {
                        let candidates = match &path_attr {
                            Some(p) => vec![path_dir.join(p)],
                            None => vec![
                                dir.join(format!("{name}.rs")),
                                dir.join(&name).join("mod.rs"),
                            ],
                        };
                        let Some(found) = candidates.iter().find(|f| f.is_file()) else {
                            // A module of another configuration may have no file here.
                            if m.attrs.iter().any(|a| a.path().is_ident("cfg")) {
                                continue;
                            }
                            panic!(
                                "{}: `mod {name};` has no file: {candidates:?}",
                                file.display()
                            );
                        };
                        let sub = match path_attr {
                            Some(_) => found.parent().unwrap().to_owned(),
                            None => dir.join(&name),
                        };
                        let parsed = parse(found);
                        self.add(
                            child_path,
                            Some(id),
                            found,
                            &parsed.items,
                            &sub,
                            found.parent().unwrap(),
                        )
                    };
                    self.modules[id].children.insert(name, child);
                }
                Item::Use(u) => {
                    if u.leading_colon.is_none() {
                        let m = &mut self.modules[id];
                        use_leaves(&u.tree, &mut Vec::new(), &mut |path, name, _| match name {
                            Some(name) => {
                                m.imports.insert(name, path);
                            }
                            None => m.globs.push(path),
                        });
                    }
                    refs.visit_item(item);
                }
                _ => {
                    if let Some(ident) = ident {
                        self.modules[id].items.insert(ident.to_string());
                    }
                    refs.visit_item(item);
                }
            }
        }
        let m = &mut self.modules[id];
        m.refs = refs.refs;
        for (name, path) in refs.imports {
            if !m.imports.contains_key(&name) {
                m.local_imports.insert(name, path);
            }
        }
        id
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

    /// The absolute path (from the crate root) of `raw` as written in module
    /// `m`, or `None` if it leads out of the crate (std, a dependency) or to
    /// something local (a variable, a generic parameter, the prelude).
    fn absolute(&self, m: Id, raw: &[String], local: bool, depth: u32) -> Option<Vec<String>> {
        let module = &self.modules[m];
        if depth > 16 || raw.is_empty() {
            return None;
        }
        let (mut base, rest) = match raw[0].as_str() {
            "crate" => (Vec::new(), &raw[1..]),
            "self" | "super" => {
                let mut at = m;
                let mut i = usize::from(raw[0] == "self");
                while raw.get(i).is_some_and(|s| s == "super") {
                    at = self.modules[at].parent?;
                    i += 1;
                }
                (self.modules[at].path.clone(), &raw[i..])
            }
            first if module.children.contains_key(first) || module.items.contains(first) => {
                (module.path.clone(), raw)
            }
            first => {
                let imported = module.imports.get(first);
                let imported = imported
                    .or_else(|| local.then(|| module.local_imports.get(first)).flatten())?;
                // `use serde;` would find itself again: that is a dependency.
                if imported.len() == 1 && imported[0] == first {
                    return None;
                }
                (self.absolute(m, imported, false, depth + 1)?, &raw[1..])
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The module that defines the item at the absolute path `abs`.
    fn definer(&self, abs: &[String], depth: u32) -> Id {
        let (m, rest) = self.walk(abs);
        let Some(name) = rest.first() else { return m };
        let module = &self.modules[m];
        if depth > 16 || module.items.contains(name) {
            return m;
        }
        if let Some(imported) = module.imports.get(name) {
            return match self.absolute(m, imported, false, depth + 1) {
                Some(mut to) => {
                    to.extend(rest[1..].iter().cloned());
                    self.definer(&to, depth + 1)
                }
                None => m, // a dependency's item, re-exported here
            };
        }
        for glob in &module.globs {
            let Some(mut to) = self.absolute(m, glob, false, depth + 1) else {
                continue;
            };
            let (g, g_rest) = self.walk(&to);
            let from = &self.modules[g];
            let has = |n: &String| {
                from.items.contains(n)
                    || from.imports.contains_key(n)
                    || from.children.contains_key(n)
            };
            if g_rest.is_empty() && has(name) {
                to.extend(rest.iter().cloned());
                return self.definer(&to, depth + 1);
            }
        }
        m
    }

    /// The deepest module on the absolute path `abs`, and what follows it.
    fn walk<'a>(&self, abs: &'a [String]) -> (Id, &'a [String]) {
        let mut m = 0;
        for (i, seg) in abs.iter().enumerate() {
            match self.modules[m].children.get(seg) {
                Some(&c) => m = c,
                None => return (m, &abs[i..]),
            }
        }
        (m, &[])
    }

    /// Every edge among siblings, in tree order of their parents.
    pub fn edges(&self) -> Vec<Edge> {
        let mut edges: BTreeMap<(Id, Id, Id), Vec<Evidence>> = BTreeMap::new();
        for (a, module) in self.modules.iter().enumerate() {
            for r in &module.refs {
                let Some(abs) = self.absolute(a, &r.path, true, 0) else {
                    continue;
                };
                let b = self.definer(&abs, 0);
                if self.is_ancestor_or_self(a, b) || self.is_ancestor_or_self(b, a) {
                    continue;
                }
                // The children of the lowest common ancestor that hold a and b.
                let depth = |m: Id| self.modules[m].path.len();
                let up = |m: Id| self.modules[m].parent.unwrap();
                let (mut x, mut y) = (a, b);
                while depth(x) > depth(y) {
                    x = up(x);
                }
                while depth(y) > depth(x) {
                    y = up(y);
                }
                while up(x) != up(y) {
                    (x, y) = (up(x), up(y));
                }
                let file = module.file.strip_prefix(&self.base).unwrap_or(&module.file);
                edges
                    .entry((self.modules[x].parent.unwrap(), x, y))
                    .or_default()
                    .push(Evidence {
                        file: file.display().to_string(),
                        line: r.line,
                        path: r.path.join("::"),
                    });
            }
        }
        edges
            .into_iter()
            .map(|((p, x, y), mut evidence)| {
                evidence.sort();
                evidence.dedup();
                Edge {
                    parent: self.name(p),
                    from: self.name(x),
                    to: self.name(y),
                    evidence,
                }
            })
            .collect()
    }

    /// The cycles among the children of every module: for each edge that is
    /// on a cycle, one shortest cycle through it (each cycle once).
    pub fn cycles(&self) -> Vec<Cycle> {
        let edges = self.edges();
        let mut by_parent: BTreeMap<&str, BTreeMap<&str, BTreeMap<&str, &Edge>>> = BTreeMap::new();
        for e in &edges {
            by_parent
                .entry(&e.parent)
                .or_default()
                .entry(&e.from)
                .or_default()
                .insert(&e.to, e);
        }
        let mut cycles = Vec::new();
        for (parent, graph) in &by_parent {
            let mut seen = BTreeSet::new();
            let mut found = Vec::new();
            for (from, tos) in graph {
                for to in tos.keys() {
                    let Some(back) = shortest_path(graph, to, from) else {
                        continue;
                    };
                    let mut chain: Vec<&str> = vec![from];
                    chain.extend(&back[..back.len() - 1]);
                    let start = (0..chain.len()).min_by_key(|&i| chain[i]).unwrap();
                    chain.rotate_left(start);
                    if seen.insert(chain.clone()) {
                        found.push(chain);
                    }
                }
            }
            found.sort_by_key(|c| c.len());
            for chain in found {
                let hops: Vec<&Edge> = (0..chain.len())
                    .map(|i| graph[chain[i]][chain[(i + 1) % chain.len()]])
                    .collect();
                cycles.push(Cycle {
                    parent: parent.to_string(),
                    chain: chain.iter().map(|s| s.to_string()).collect(),
                    edges: hops.iter().map(|e| e.evidence[0].clone()).collect(),
                    more: hops.iter().map(|e| e.evidence.len() - 1).collect(),
                });
            }
        }
        cycles
    }
}

/// A shortest path from `from` to `to`, both included.
fn shortest_path<'a>(
    graph: &BTreeMap<&'a str, BTreeMap<&'a str, &Edge>>,
    from: &'a str,
    to: &'a str,
) -> Option<Vec<&'a str>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut path = vec![to];
            while let Some(&prev) = came_from.get(path.last().unwrap()) {
                path.push(prev);
            }
            path.reverse();
            return Some(path);
        }
        for &next in graph.get(at).into_iter().flat_map(|t| t.keys()) {
            if next != from && !came_from.contains_key(next) {
                came_from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

fn parse(file: &Path) -> syn::File {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    syn::parse_file(&text).unwrap_or_else(|e| {
        panic!(
            "{}:{}: cannot parse: {e}",
            file.display(),
            e.span().start().line
        )
    })
}

fn line(span: Span) -> usize {
    span.start().line
}

/// Calls `leaf(path, imported name, line)` for each leaf of a `use` tree; the
/// name is `None` for a glob.
fn use_leaves(
    tree: &UseTree,
    prefix: &mut Vec<String>,
    leaf: &mut dyn FnMut(Vec<String>, Option<String>, usize),
) {
    let named = |prefix: &Vec<String>, ident: &syn::Ident| {
        if ident == "self" {
            (prefix.clone(), prefix.last().cloned())
        } else {
            let mut p = prefix.clone();
            p.push(ident.to_string());
            (p, Some(ident.to_string()))
        }
    };
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, leaf);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let (path, name) = named(prefix, &n.ident);
            leaf(path, name, line(n.ident.span()));
        }
        UseTree::Rename(r) => {
            let (path, _) = named(prefix, &r.ident);
            let name = (r.rename != "_").then(|| r.rename.to_string());
            leaf(path, name, line(r.ident.span()));
        }
        UseTree::Glob(g) => leaf(prefix.clone(), None, line(g.star_token.spans[0])),
        UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, leaf);
            }
        }
    }
}

/// Collects the paths of a module's items (not of its child modules).
struct Refs {
    refs: Vec<Ref>,
    /// `use`s met inside functions.
    imports: BTreeMap<String, Vec<String>>,
}

impl Refs {
    fn push(&mut self, path: Vec<String>, line: usize) {
        self.refs.push(Ref { path, line });
    }

    /// Paths in tokens that syn leaves unparsed (macro arguments, attributes):
    /// `a::b::c` sequences, and strings that hold such a path.
    fn scan(&mut self, tokens: TokenStream, strings: bool) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let colons = |i: usize| {
            matches!((tokens.get(i), tokens.get(i + 1)),
                (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                    if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
        };
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Group(g) => self.scan(g.stream(), strings),
                TokenTree::Literal(l) if strings => {
                    if let syn::Lit::Str(s) = syn::Lit::new(l.clone()) {
                        let value = s.value();
                        if let (true, Ok(p)) =
                            (value.contains("::"), syn::parse_str::<syn::Path>(&value))
                        {
                            if p.leading_colon.is_none() {
                                self.push(
                                    p.segments.iter().map(|s| s.ident.to_string()).collect(),
                                    line(l.span()),
                                );
                            }
                        }
                    }
                }
                TokenTree::Ident(first) if !(i >= 2 && colons(i - 2)) && colons(i + 1) => {
                    let mut path = vec![first.to_string()];
                    while colons(i + 1) {
                        match tokens.get(i + 3) {
                            Some(TokenTree::Ident(next)) => path.push(next.to_string()),
                            _ => break,
                        }
                        i += 3;
                    }
                    self.push(path, line(first.span()));
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Refs {
    fn visit_item(&mut self, i: &'ast Item) {
        if !is_test_only(item_parts(i).0) {
            visit::visit_item(self, i);
        }
    }

    /// A module inside a function is not part of the tree.
    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {}

    fn visit_impl_item_fn(&mut self, i: &'ast syn::ImplItemFn) {
        if !is_test_only(&i.attrs) {
            visit::visit_impl_item_fn(self, i);
        }
    }

    fn visit_item_use(&mut self, i: &'ast syn::ItemUse) {
        if i.leading_colon.is_some() {
            return;
        }
        use_leaves(&i.tree, &mut Vec::new(), &mut |path, name, line| {
            if let Some(name) = name {
                self.imports.entry(name).or_insert_with(|| path.clone());
            }
            self.push(path, line);
        });
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.leading_colon.is_none() {
            let path = p.segments.iter().map(|s| s.ident.to_string()).collect();
            self.push(path, line(p.segments[0].ident.span()));
        }
        visit::visit_path(self, p);
    }

    /// `pub(in crate::x)` says who may see an item, not what it uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_attribute(&mut self, a: &'ast Attribute) {
        if a.path().is_ident("doc") || a.path().is_ident("path") {
            return;
        }
        match &a.meta {
            Meta::Path(_) => {}
            Meta::List(l) => self.scan(l.tokens.clone(), true),
            Meta::NameValue(nv) => self.visit_expr(&nv.value),
        }
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.visit_path(&m.path);
        self.scan(m.tokens.clone(), false);
    }
}

/// An item's attributes, and the name it defines in the module's type or
/// value namespace.
fn item_parts(item: &Item) -> (&[Attribute], Option<&syn::Ident>) {
    match item {
        Item::Const(i) => (&i.attrs, Some(&i.ident)),
        Item::Enum(i) => (&i.attrs, Some(&i.ident)),
        Item::Fn(i) => (&i.attrs, Some(&i.sig.ident)),
        Item::Static(i) => (&i.attrs, Some(&i.ident)),
        Item::Struct(i) => (&i.attrs, Some(&i.ident)),
        Item::Trait(i) => (&i.attrs, Some(&i.ident)),
        Item::TraitAlias(i) => (&i.attrs, Some(&i.ident)),
        Item::Type(i) => (&i.attrs, Some(&i.ident)),
        Item::Union(i) => (&i.attrs, Some(&i.ident)),
        Item::ExternCrate(i) => (&i.attrs, None),
        Item::ForeignMod(i) => (&i.attrs, None),
        Item::Impl(i) => (&i.attrs, None),
        Item::Macro(i) => (&i.attrs, None),
        Item::Mod(i) => (&i.attrs, None),
        Item::Use(i) => (&i.attrs, None),
        _ => (&[], None),
    }
}

/// `#[test]`, `#[cfg(test)]` or `#[cfg(all(test, ...))]`.
fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        if a.path().is_ident("test") {
            return true;
        }
        let Meta::List(l) = &a.meta else { return false };
        if !a.path().is_ident("cfg") {
            return false;
        }
        let tokens: Vec<TokenTree> = l.tokens.clone().into_iter().collect();
        match tokens.as_slice() {
            [TokenTree::Ident(t)] => t == "test",
            [TokenTree::Ident(all), TokenTree::Group(g)] if all == "all" => g
                .stream()
                .into_iter()
                .any(|t| matches!(t, TokenTree::Ident(t) if t == "test")),
            _ => false,
        }
    })
}

/// The value of `#[path = "..."]`.
fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("path"))
        .map(|a| match &a.meta {
            Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }),
                ..
            }) => s.value(),
            _ => panic!("a #[path] that is not #[path = \"...\"]"),
        })
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
