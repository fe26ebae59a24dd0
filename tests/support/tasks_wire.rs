//! Stateless requests of 2026-07-28 for the tests of tasks, raw over HTTP.

#![allow(dead_code)] // each test file uses its share

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const TASKS: &str = "io.modelcontextprotocol/tasks";

/// One stateless request, declaring the tasks extension in its `_meta` if `tasks`, with
/// the `extra` header lines (each ending in `\r\n`): the HTTP status and the JSON-RPC
/// message (`Null` where the body has none).
pub async fn request_as(
    port: u16,
    tasks: bool,
    extra: &str,
    method: &str,
    params: Value,
) -> (u16, Value) {
    let capabilities = if tasks {
        json!({ "extensions": { TASKS: {} } })
    } else {
        json!({})
    };
    request_with(port, capabilities, extra, method, params).await
}

/// A request of a client that declared the tasks extension and form elicitation: it
/// can answer a task's questions.
pub async fn request_asking(port: u16, extra: &str, method: &str, params: Value) -> (u16, Value) {
    let capabilities = json!({ "extensions": { TASKS: {} }, "elicitation": { "form": {} } });
    request_with(port, capabilities, extra, method, params).await
}

/// [`request_as`] with the client's `capabilities`.
pub async fn request_with(
    port: u16,
    capabilities: Value,
    extra: &str,
    method: &str,
    mut params: Value,
) -> (u16, Value) {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    });
    let name = (params.get("name").or_else(|| params.get("taskId")))
        .and_then(Value::as_str)
        .map(|n| format!("Mcp-Name: {n}\r\n"))
        .unwrap_or_default();
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}).to_string();
    let text = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: {method}\r\n{name}{extra}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).await.unwrap();
    let status = (out.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let message = out
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l.strip_prefix("data: ").unwrap_or(l)).ok())
        .find(|v| v.get("id").is_some())
        .unwrap_or(Value::Null);
    (status, message)
}
