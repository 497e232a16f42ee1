//! Reading a crate's module tree from its files: each `mod` to its file or
//! inline body, each module's items and imports, test-only code left out.

use super::items::{is_test_only, item_parts};
use super::references::{use_leaves, Refs};
use super::{Crate, Id, Module};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use syn::visit::Visit;
use syn::{Attribute, Item, Meta};

impl Crate {
    /// Adds the module `path` whose items are `items` (in `file`); its
    /// `mod x;` are looked for in `dir`, and their `#[path]` from `path_dir`.
    pub(super) fn add(
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
}

pub(super) fn parse(file: &Path) -> syn::File {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    syn::parse_file(&text).unwrap_or_else(|e| {
        panic!(
            "{}:{}: cannot parse: {e}",
            file.display(),
            e.span().start().line
        )
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
