//! gitops-playground: a GitOps reconciler to see and poke at, in the browser.
//!
//! - [`core`]: the reconcile core, plain Rust (natively and in wasm).
//! - `ui` and `web` (wasm only): the Yew page and its entry point.

pub mod core;

#[cfg(target_arch = "wasm32")]
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;
