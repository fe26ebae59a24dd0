//! The benches' clients of a server on loopback: one kept-alive HTTP/1 connection each,
//! without Nagle's delay (a request is one small write), and the wait for a server
//! process to listen.

// Each bench includes this file as a module of its own and uses what it needs of it.
#![allow(dead_code)]

use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// A kept-alive HTTP/1 connection to `127.0.0.1:port`, its driver spawned.
pub async fn connect(port: u16) -> SendRequest<Full<Bytes>> {
    let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream.set_nodelay(true).unwrap();
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    sender
}

/// Waits until something listens on `port` (at most five seconds).
pub async fn wait_for(port: u16) {
    for _ in 0..500 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("nothing listens on {port}");
}
