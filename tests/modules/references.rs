//! What a module's code refers to: the leaves of its `use` trees and every
//! path in its items, macro arguments and attributes included.

use super::items::{is_test_only, item_parts};
use super::Ref;
use proc_macro2::{Spacing, Span, TokenStream, TokenTree};
use std::collections::BTreeMap;
use syn::visit::{self, Visit};
use syn::{Attribute, Item, Meta, UseTree};

fn line(span: Span) -> usize {
    span.start().line
}

/// Calls `leaf(path, imported name, line)` for each leaf of a `use` tree; the
/// name is `None` for a glob.
pub(super) fn use_leaves(
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
pub(super) struct Refs {
    pub(super) refs: Vec<Ref>,
    /// `use`s met inside functions.
    pub(super) imports: BTreeMap<String, Vec<String>>,
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
