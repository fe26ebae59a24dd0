//! The `orders` example as a process of the tests: built once per test binary (the test
//! harness builds examples only as tests of their own), on a free loopback port.

#![allow(dead_code)] // each test file uses its share

use std::path::{Path, PathBuf};
use std::process::Command;

/// A free loopback port (free when asked; the parts bind it right after).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The `orders` example, built once for all the tests of this binary.
pub fn orders_binary() -> &'static Path {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--quiet", "-p", "mcp-tool", "--example", "orders"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "the orders example builds");
        // This test is target/<profile>/deps/<test>-<hash>.
        let exe = std::env::current_exe().unwrap();
        let profile = exe.parent().unwrap().parent().unwrap();
        profile.join("examples").join("orders")
    })
}
