//! A `redis-server` of the test's own, on a loopback port, and the pieces of starting
//! processes that the tests of replicas share.

#![allow(dead_code)] // each test file uses its share

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::net::TcpStream;

/// `redis-server` on PATH; `None` (after saying why) where it is not and CI is not on.
pub fn redis_server() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("redis-server"))
            .find(|path| path.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "redis-server is not on PATH, and CI=true: .ci/run installs it (Debian's redis-server)"
        );
        eprintln!(
            "SKIPPED: redis-server is not on PATH (install Debian's redis-server to run the replica tests)"
        );
    }
    found
}

/// A free loopback port (free when asked; the parts bind it right after).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A process ended when dropped.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A Redis server of this test: no configuration file, nothing written to disk.
pub struct Redis {
    binary: PathBuf,
    pub port: u16,
    process: Option<Process>,
}

impl Redis {
    pub async fn start(binary: PathBuf) -> Redis {
        let mut redis = Redis {
            binary,
            port: free_port(),
            process: None,
        };
        redis.restart().await;
        redis
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Starts it again on its port (after [`Redis::stop`]), empty.
    pub async fn restart(&mut self) {
        let child = Command::new(&self.binary)
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.process = Some(Process(child));
        wait_for_port(self.port).await;
    }

    pub fn stop(&mut self) {
        self.process = None;
    }
}

pub async fn wait_for_port(port: u16) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "nothing listens on {port}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
