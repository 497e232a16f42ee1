//! gitops-playground: a GitOps reconciler to see and poke at, in the browser.
//! This crate is the Yew front end (wasm only); the layers under it are
//! crates of their own, each depending only on those below it:
//!
//! - `gitops_core`: the reconcile core (plain Rust, no web dependency);
//! - `gitops_world`: the simulated world on it, with exercises and sessions;
//! - `gitops_page`: the page's model and its one reducer (native);
//! - `gitops_js`: what the page and the API module share in the browser;
//! - `gitops_api`: the JS API for lesson pages, a wasm module of its own;
//! - `gitops_sim`: the command-line tool.

#[cfg(target_arch = "wasm32")]
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;
