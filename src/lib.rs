//! gitops-playground: a GitOps reconciler to see and poke at, in the browser.
//!
//! - [`core`]: the reconcile core, plain Rust (natively and in wasm).
//! - [`world`]: the simulated world over time, plain Rust beside the core.
//! - [`share`]: share links and saved work, plain Rust.
//! - [`exercise`]: exercises and their checks, plain Rust.
//! - `ui` and `web` (wasm only): the Yew page and its entry point.

// An `InputError` is large, but errors are rare and never on a hot path.
#![allow(clippy::result_large_err)]

pub mod core;
pub mod exercise;
pub mod share;
pub mod world;

#[cfg(target_arch = "wasm32")]
pub mod api;
#[cfg(target_arch = "wasm32")]
mod free_later;
#[cfg(target_arch = "wasm32")]
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;
