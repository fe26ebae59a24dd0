//! HTTP/1.1 spoken by hand to `mcp_tool::http`, as a client that misbehaves would:
//! a server on a loopback port, a POST with chosen headers, a response's head read off
//! the connection, which stays open for what follows.

#![allow(dead_code)] // each test file uses its share

use mcp_tool::http::HttpServer;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// A server being served on a loopback port, stopped by [`Serving::stop`].
pub struct Serving {
    pub port: u16,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl Serving {
    /// Stops the server and waits for `serve_until` to return.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.unwrap();
    }
}

/// Serves `handler` with `server` on a loopback port.
pub async fn start<H: rmcp::ServerHandler>(server: HttpServer, handler: H) -> Serving {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    start_with(listener, server, handler).await
}

/// Serves `handler` with `server` on `listener`.
pub async fn start_with<H: rmcp::ServerHandler>(
    listener: TcpListener,
    server: HttpServer,
    handler: H,
) -> Serving {
    let port = listener.local_addr().unwrap().port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        server
            .serve_until(handler, listener, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
    });
    Serving { port, stop, task }
}

/// The text of a POST of `body` to `/mcp` with `host`, `origin` and the `extra` header
/// lines (each ending in `\r\n`).
pub fn post_text(host: &str, origin: Option<&str>, extra: &str, body: &str) -> String {
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\n{origin}{extra}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Sends a POST of `body` with `host` and `origin`; returns the status code and the
/// response's headers, leaving the connection open in the returned reader.
pub async fn post(
    port: u16,
    host: &str,
    origin: Option<&str>,
    extra: &str,
    body: &str,
) -> (u16, Vec<String>, BufReader<TcpStream>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream
        .write_all(post_text(host, origin, extra, body).as_bytes())
        .await
        .unwrap();
    read_head(BufReader::new(stream)).await
}

/// The status code and headers of the next response on `reader`.
pub async fn read_head(
    mut reader: BufReader<TcpStream>,
) -> (u16, Vec<String>, BufReader<TcpStream>) {
    let mut status = String::new();
    reader.read_line(&mut status).await.unwrap();
    let code = status
        .split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("no status line: {status:?}"))
        .parse()
        .unwrap();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).await.unwrap();
        if line.trim().is_empty() {
            break;
        }
        headers.push(line.trim().to_owned());
    }
    (code, headers, reader)
}

/// The value of the header `name` (any case) among `headers`.
pub fn header<'a>(headers: &'a [String], name: &str) -> Option<&'a str> {
    headers.iter().find_map(|h| {
        let (key, value) = h.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

/// The body of a response whose head was read, by its `Content-Length`.
pub async fn read_body(reader: &mut BufReader<TcpStream>, headers: &[String]) -> String {
    let length: usize = header(headers, "content-length")
        .expect("a Content-Length")
        .parse()
        .unwrap();
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await.unwrap();
    String::from_utf8(body).unwrap()
}
