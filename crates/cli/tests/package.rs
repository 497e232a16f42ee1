//! `gitops-sim package`: the SCORM 1.2 package of exercises an author hands to
//! a course's LMS, and what it refuses. tests/e2e/scorm.test.mjs imports one
//! into a SCORM runtime.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::gitops_sim;
use std::io::Read;
use std::path::{Path, PathBuf};

const EXERCISE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/exercises/flapping.yaml");

/// A folder shaped as the playground's release build: its page, a packed wasm, and the exercise.
fn release_build(folder: &Path) -> PathBuf {
    let build = folder.join("dist");
    std::fs::create_dir_all(build.join("exercises")).unwrap();
    std::fs::create_dir_all(build.join(".stage")).unwrap();
    std::fs::write(build.join("index.html"), "<!doctype html><title>playground</title>").unwrap();
    std::fs::write(build.join("playground-0_bg.wasm.xz"), [0xfd, b'7', b'z']).unwrap();
    std::fs::write(build.join(".stage/half-built.js"), "").unwrap();
    std::fs::copy(EXERCISE, build.join("exercises/flapping.yaml")).unwrap();
    build
}

fn temporary(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("gitops-sim-package-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

fn entries(zip: &Path) -> Vec<(String, String)> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
    (0..archive.len())
        .map(|index| {
            let mut file = archive.by_index(index).unwrap();
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            (file.name().to_string(), text)
        })
        .collect()
}

#[test]
fn package_writes_a_manifest_a_launch_page_an_exercise_and_the_playground() {
    let folder = temporary("writes");
    let build = release_build(&folder);
    let zip = folder.join("course.zip");
    let output = gitops_sim(&["package", EXERCISE, "--playground", build.to_str().unwrap(), "--out", zip.to_str().unwrap(), "--title", "GitOps & you"], "");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let files = entries(&zip);
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        ["imsmanifest.xml", "scorm.js", "flapping.html", "playground/exercises/flapping.yaml", "playground/index.html", "playground/playground-0_bg.wasm.xz"],
        "a build's hidden files stay out"
    );
    let manifest = &files[0].1;
    assert!(manifest.contains("<schemaversion>1.2</schemaversion>"), "{manifest}");
    assert!(manifest.contains("<title>GitOps &amp; you</title>"), "{manifest}");
    assert!(manifest.contains(r#"<resource identifier="sco-0" type="webcontent" adlcp:scormtype="sco" href="flapping.html">"#), "{manifest}");
    assert!(manifest.contains(r#"<file href="playground/index.html"/>"#), "{manifest}");
    let launch = &files[2].1;
    // The build holds the same exercise, so the launch page opens it by its file: a short link.
    let link = gitops_world::share::encode_link(&gitops_world::share::Session::of_preset("exercises/flapping.yaml")).unwrap();
    assert!(launch.contains(&format!(r##"data-start="#{link}""##)), "{launch}");
    assert!(launch.contains("<title>Exercise 1: stop the flapping</title>"), "{launch}");
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn package_carries_an_exercise_the_build_lacks_whole() {
    let folder = temporary("whole");
    let build = release_build(&folder);
    let own = folder.join("my-exercise.yaml");
    std::fs::write(&own, std::fs::read_to_string(EXERCISE).unwrap().replace("Exercise 1: stop the flapping", "My own exercise")).unwrap();
    let zip = folder.join("course.zip");
    let output = gitops_sim(&["package", own.to_str().unwrap(), "--playground", build.to_str().unwrap(), "--out", zip.to_str().unwrap()], "");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let files = entries(&zip);
    let launch = &files.iter().find(|(name, _)| name == "my-exercise.html").unwrap().1;
    let text = std::fs::read_to_string(&own).unwrap();
    let link = gitops_world::share::encode_link(&gitops_world::share::Session::of_scenario(&text)).unwrap();
    assert!(launch.contains(&format!(r##"data-start="#{link}""##)), "{launch}");
    assert!(files[0].1.contains("<title>My own exercise</title>"), "the course takes the first exercise's title");
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn package_refuses_a_development_build_and_a_scenario_without_an_exercise() {
    let folder = temporary("refuses");
    let build = release_build(&folder);
    std::fs::remove_file(build.join("playground-0_bg.wasm.xz")).unwrap();
    let output = gitops_sim(&["package", EXERCISE, "--playground", build.to_str().unwrap(), "--out", folder.join("a.zip").to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("it is not the playground's release build"), "{}", String::from_utf8_lossy(&output.stderr));

    let build = release_build(&folder);
    let worked = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/presets/worked-example.json");
    let output = gitops_sim(&["package", worked, "--playground", build.to_str().unwrap(), "--out", folder.join("b.zip").to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("it has no `exercise` block"), "{}", String::from_utf8_lossy(&output.stderr));
    let _ = std::fs::remove_dir_all(folder);
}
