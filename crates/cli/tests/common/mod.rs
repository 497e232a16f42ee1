//! What the command-line tool's tests share: running `gitops-sim` and reading
//! what it prints.

#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

pub const WORKED_EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../static/presets/worked-example.json"
);

pub fn gitops_sim(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gitops-sim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gitops-sim starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

pub fn succeeds(args: &[&str], stdin: &str) -> Value {
    let output = gitops_sim(args, stdin);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the output is JSON")
}

/// Runs a failing command; returns its one line of error.
pub fn fails(args: &[&str], stdin: &str) -> String {
    let output = gitops_sim(args, stdin);
    assert_eq!(output.status.code(), Some(2), "bad input exits with 2");
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr.trim_end().to_string()
}
