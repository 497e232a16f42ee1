//! What the checker reads of an item: its attributes, the name it defines,
//! and whether it is test-only code, which may use anything.

use proc_macro2::TokenTree;
use syn::{Attribute, Item, Meta};

/// An item's attributes, and the name it defines in the module's type or
/// value namespace.
pub(super) fn item_parts(item: &Item) -> (&[Attribute], Option<&syn::Ident>) {
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
pub(super) fn is_test_only(attrs: &[Attribute]) -> bool {
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
