//! The benches' clients of a server on loopback: one kept-alive HTTP/1 connection each,
//! without Nagle's delay (a request is one small write). The wait for a server process
//! to listen is the tests' `wait_for_port` (`tests/support/redis.rs`).

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
