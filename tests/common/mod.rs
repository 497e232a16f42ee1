//! What the page's browser tests share: reading and driving the DOM, and the whole
//! page, the code editor and the timeline, each mounted for a test.

#![allow(dead_code)]

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
pub mod dom;

#[cfg(target_arch = "wasm32")]
pub mod code_editor;

#[cfg(target_arch = "wasm32")]
pub mod page;

#[cfg(target_arch = "wasm32")]
pub mod timeline;
