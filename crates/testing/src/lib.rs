//! What the tests of every crate share: macros that declare each test once
//! for both runs, natively (`cargo test`) and in headless Chromium
//! (`wasm-bindgen-test`), and the property tests' configuration. A test
//! binary that uses them calls
//! `wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser)` once.

pub use proptest;

/// Declares tests that run natively and in the browser.
#[macro_export]
macro_rules! everywhere {
    ($($(#[$meta:meta])* fn $name:ident() $body:block)*) => {$(
        $(#[$meta])*
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        fn $name() $body
    )*};
}

/// Declares property tests (proptest, with `config()`) that run
/// natively and in the browser.
#[macro_export]
macro_rules! laws {
    ($($(#[$meta:meta])* fn $name:ident($($arg:tt)*) $body:block)*) => {
        ::proptest::proptest! {
            #![proptest_config($crate::config())]
            $(
                $(#[$meta])*
                #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
                #[cfg_attr(not(target_arch = "wasm32"), test)]
                fn $name($($arg)*) $body
            )*
        }
    };
}

use proptest::prelude::ProptestConfig;

/// `config()`, with `cases` in the browser: for a property whose cases, run in
/// one task there, would not end within the test runner's 20 s request
/// timeout in a debug build.
pub fn config_with_cases_in_the_browser(cases: u32) -> ProptestConfig {
    match cfg!(target_arch = "wasm32") {
        true => ProptestConfig { cases, ..config() },
        false => config(),
    }
}

/// The property-test configuration: 256 cases (or `PROPTEST_CASES`, natively, for
/// a longer campaign); in the browser, no failure files.
pub fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .filter(|_| cfg!(not(target_arch = "wasm32")))
        .unwrap_or(256);
    ProptestConfig {
        cases,
        failure_persistence: if cfg!(target_arch = "wasm32") {
            None
        } else {
            ProptestConfig::default().failure_persistence
        },
        ..ProptestConfig::default()
    }
}
