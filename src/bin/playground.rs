//! The playground in the browser: Trunk builds this binary to wasm.

/// Talc in place of Rust's default dlmalloc: smaller and faster in wasm.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(target_arch = "wasm32")]
fn main() {
    gitops_playground::web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!("The playground runs in a browser: ./scripts/serve builds it and serves it at http://127.0.0.1:8080");
    std::process::ExitCode::from(2)
}
