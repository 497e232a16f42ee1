//! The Yew front end: it renders the page's model (`gitops_page`) and
//! dispatches its actions, and does what only a browser can (storage, links,
//! timers, the embed's messages). No reconcile logic lives here.

pub mod app;
pub mod components;
pub mod compression;
pub mod embed;
pub mod embedded_page;
pub mod effects;
pub mod full_page;
pub mod page_parts;
pub mod ptr_eq;
pub mod reducer;
pub mod sender;
pub mod start;
pub mod storage;

pub use app::App;
