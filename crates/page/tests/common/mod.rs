//! What the page model's tests share.

use gitops_page::Preset;

/// The worked example and the mutable-tag preset, read from `static/presets`.
pub fn presets() -> Vec<Preset> {
    let root = format!("{}/../../static/presets", env!("CARGO_MANIFEST_DIR"));
    ["worked-example.json", "mutable-tag.yaml"]
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
            Preset::read(file, &text).expect("it reads").0
        })
        .collect()
}
