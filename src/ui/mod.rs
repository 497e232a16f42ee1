//! The Yew front end: it shows what the core computes and sends the user's
//! edits to one reducer (`model`). No reconcile logic lives here.

pub mod app;
pub mod components;
pub mod effects;
pub mod embed;
mod interact;
pub mod model;
mod practice;
pub mod same;
mod session;
pub mod storage;

pub use app::App;
