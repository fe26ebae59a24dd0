//! What `mcp_tool::http` does with clients that are slow, idle, many or wrong: a head
//! or a body that never arrives, a connection kept open with nothing to say, two
//! thousand of those, every connection busy, and a body that is no JSON-RPC message.
//! Each gets an answer or a closed connection within the limits, and a normal client
//! still gets its answer.

use std::sync::Arc;
use std::time::Duration;

use mcp_tool::http::HttpServer;
use mcp_tool::{McpTool, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;

#[path = "support/raw_http.rs"]
mod raw_http;
use raw_http::{INITIALIZE, post, post_text, read_body, read_head, start};

/// Say hello.
#[derive(McpTool, Deserialize, Debug)]
struct Hello {
    name: String,
}

async fn hello(args: Hello) -> Result<String, ToolError> {
    Ok(format!("Hello, {}!", args.name))
}

/// Wait until the test lets the call end.
#[derive(McpTool, Deserialize, Debug)]
struct Hold {}

async fn hold(latch: Arc<Semaphore>, _: Hold) -> Result<String, ToolError> {
    let _pass = latch
        .acquire()
        .await
        .map_err(|_| ToolError::transient("closed"))?;
    Ok("released".into())
}

fn tools() -> Toolbox {
    Toolbox::new().tool(hello)
}

/// How long a test waits for what must happen well before: a limit of a few hundred
/// milliseconds that did not act shows as this test failing, never as a hang.
const PATIENCE: Duration = Duration::from_secs(10);

/// Whether the server closes `stream` (reads end) before `PATIENCE`, discarding what it
/// sends first.
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut sink = Vec::new();
    matches!(
        tokio::time::timeout(PATIENCE, stream.read_to_end(&mut sink)).await,
        Ok(Ok(_) | Err(_))
    )
}

async fn initialize_answered(port: u16) {
    let host = format!("127.0.0.1:{port}");
    let answered = tokio::time::timeout(PATIENCE, post(port, &host, None, "", INITIALIZE)).await;
    let (code, _, _) = answered.expect("a normal client is answered");
    assert_eq!(code, 200);
}

#[tokio::test]
async fn a_body_that_is_no_jsonrpc_message_gets_a_jsonrpc_error() {
    let serving = start(HttpServer::new().max_body(4000), tools()).await;
    let host = format!("127.0.0.1:{}", serving.port);
    let cases: &[(&str, String, u16, i64, Value)] = &[
        (
            "not JSON",
            "{\"jsonrpc\": \"2.0\", \"id\": 3,".into(),
            400,
            -32700,
            Value::Null,
        ),
        (
            "a string cut short",
            "\"abc".into(),
            400,
            -32700,
            Value::Null,
        ),
        (
            "a lone surrogate",
            r#"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#.into(),
            400,
            -32700,
            Value::Null,
        ),
        (
            "nested 1 000 deep",
            format!("{}{}", "[".repeat(1000), "]".repeat(1000)),
            400,
            -32700,
            Value::Null,
        ),
        (
            "no method",
            r#"{"jsonrpc":"2.0","id":5}"#.into(),
            400,
            -32600,
            json!(5),
        ),
        ("a number", "42".into(), 400, -32600, Value::Null),
        (
            "too big",
            format!("{{\"x\": \"{}\"}}", "a".repeat(5000)),
            413,
            -32600,
            Value::Null,
        ),
    ];
    for (what, body, status, code, id) in cases {
        let (got, headers, mut reader) = post(serving.port, &host, None, "", body).await;
        assert_eq!(got, *status, "{what}");
        assert_eq!(
            raw_http::header(&headers, "content-type"),
            Some("application/json"),
            "{what}"
        );
        let answer: Value = serde_json::from_str(&read_body(&mut reader, &headers).await).unwrap();
        assert_eq!(answer["jsonrpc"], "2.0", "{what}: {answer}");
        assert_eq!(answer["error"]["code"], *code, "{what}: {answer}");
        assert_eq!(answer["id"], *id, "{what}: {answer}");
    }
    // Bytes that are not UTF-8 at all, sent as such.
    let mut stream = TcpStream::connect(("127.0.0.1", serving.port))
        .await
        .unwrap();
    let head = post_text(&host, None, "", "xx");
    let head = head.strip_suffix("xx").unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&[0xff, 0xfe]).await.unwrap();
    let (got, headers, mut reader) = read_head(BufReader::new(stream)).await;
    assert_eq!(got, 400);
    let answer: Value = serde_json::from_str(&read_body(&mut reader, &headers).await).unwrap();
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    serving.stop().await;
}

#[tokio::test]
async fn a_head_or_a_body_that_stops_coming_does_not_hold_the_connection() {
    let server = HttpServer::new()
        .header_timeout(Duration::from_millis(300))
        .body_timeout(Duration::from_millis(300));
    let serving = start(server, tools()).await;
    let port = serving.port;

    // Connects and says nothing.
    let mut silent = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    assert!(closed_by_server(&mut silent).await, "a silent connection");

    // Stops in the middle of its head.
    let mut halting = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    halting
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
        .await
        .unwrap();
    assert!(closed_by_server(&mut halting).await, "a head cut short");

    // Sends its head and a tenth of its body.
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let text = post_text(&format!("127.0.0.1:{port}"), None, "", &"x".repeat(100));
    stream
        .write_all(&text.as_bytes()[..text.len() - 90])
        .await
        .unwrap();
    let (code, headers, mut reader) = read_head(BufReader::new(stream)).await;
    assert_eq!(code, 408);
    let answer: Value = serde_json::from_str(&read_body(&mut reader, &headers).await).unwrap();
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert!(closed_by_server(reader.get_mut()).await, "after a 408");

    initialize_answered(port).await;
    serving.stop().await;
}

#[tokio::test]
async fn an_idle_connection_is_closed_and_an_open_event_stream_is_not() {
    let server = HttpServer::new().idle_timeout(Duration::from_millis(300));
    let serving = start(server, tools()).await;
    let port = serving.port;
    let host = format!("127.0.0.1:{port}");
    let (code, headers, mut reader) = post(port, &host, None, "", INITIALIZE).await;
    assert_eq!(code, 200);
    let session = raw_http::header(&headers, "mcp-session-id")
        .expect("a session")
        .to_owned();
    // The answer is an event stream that ends with the response; then the connection
    // is idle, kept alive, until the timeout.
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    while !String::from_utf8_lossy(&answer).contains("\"id\":1") {
        let n = reader.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the answer was cut short");
        answer.extend_from_slice(&chunk[..n]);
    }
    assert!(
        closed_by_server(reader.get_mut()).await,
        "an idle connection"
    );

    // The client's standing event stream stays open past the idle timeout: it is a
    // response still being sent.
    let extra = format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-11-25\r\n");
    let (code, _, _) = post(
        port,
        &host,
        None,
        &extra,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert!(code == 202 || code == 200, "initialized: {code}");
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let get =
        format!("GET /mcp HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n{extra}\r\n");
    stream.write_all(get.as_bytes()).await.unwrap();
    let (code, _, mut open) = read_head(BufReader::new(stream)).await;
    assert_eq!(code, 200, "the event stream");
    let mut sink = Vec::new();
    let read = tokio::time::timeout(Duration::from_millis(1500), open.read_to_end(&mut sink)).await;
    assert!(read.is_err(), "the event stream was ended: {read:?}");
    serving.stop().await;
}

#[tokio::test]
async fn two_thousand_idle_connections_do_not_keep_a_client_out() {
    let serving = start(HttpServer::new(), tools()).await;
    let port = serving.port;
    let mut idle = Vec::with_capacity(2000);
    for _ in 0..2000 {
        idle.push(TcpStream::connect(("127.0.0.1", port)).await.unwrap());
    }
    // Each of them half a request, too.
    for stream in idle.iter_mut().step_by(2) {
        let _ = stream.write_all(b"POST /mcp HTTP/1.1\r\nHo").await;
    }
    initialize_answered(port).await;
    // The server made room by closing the connections idle the longest.
    let mut first = idle.swap_remove(0);
    assert!(
        closed_by_server(&mut first).await,
        "the oldest idle connection"
    );
    drop(idle);
    serving.stop().await;
}

#[tokio::test]
async fn when_every_connection_is_answering_a_new_one_gets_503() {
    let latch = Arc::new(Semaphore::new(0));
    let tools = Toolbox::with_shared_state(Arc::clone(&latch)).tool(hold);
    let serving = start(HttpServer::new().max_connections(2), tools).await;
    let port = serving.port;
    let host = format!("127.0.0.1:{port}");
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hold","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}}}"#;
    let extra = "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: hold\r\n";
    let mut busy = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        stream
            .write_all(post_text(&host, None, extra, call).as_bytes())
            .await
            .unwrap();
        busy.push(stream);
    }
    // Both calls are under way once the handler waits on the latch twice.
    tokio::time::timeout(PATIENCE, async {
        while Arc::strong_count(&latch) < 4 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("both calls started");
    let (code, headers, mut reader) = post(port, &host, None, "", INITIALIZE).await;
    assert_eq!(code, 503);
    let answer: Value = serde_json::from_str(&read_body(&mut reader, &headers).await).unwrap();
    assert_eq!(answer["error"]["code"], -32000, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 2 connections"),
        "{answer}"
    );
    latch.add_permits(2);
    for stream in busy {
        let (code, _, _) = read_head(BufReader::new(stream)).await;
        assert_eq!(code, 200);
    }
    initialize_answered(port).await;
    serving.stop().await;
}
