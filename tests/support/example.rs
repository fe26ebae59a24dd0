//! An example of this crate, built for the test that runs it as a process.

use std::path::PathBuf;
use std::process::Command;

/// The example `name`, built for this test (the test harness builds examples only as
/// tests of their own).
pub fn example(name: &str) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "-p", "mcp-tool", "--example", name])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the {name} example builds");
    // This test is target/<profile>/deps/<test>-<hash>.
    let exe = std::env::current_exe().unwrap();
    exe.parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join(name)
}
