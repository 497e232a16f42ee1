//! What the page's browser tests share: reading and driving the DOM.

#![allow(dead_code)]

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
pub mod dom;
