//! The sessions of protocol 2025-11-25 over HTTP with authorization: each is bound to
//! the subject that opened it (another subject's request, stream, resumption, answer
//! or `DELETE` in it gets 404, as an unknown session); and with the book in Redis
//! (`http::Sessions::redis`), two replicas serve one session: it is opened on one and
//! used on the other, and a confirmation asked on one replica's stream is answered
//! through the other, the tool run once.
//!
//! The replica test needs `redis-server` on PATH: skipped, saying so, where it is not,
//! except under `CI=true`, where it fails.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool::http::auth::Authorization;
use mcp_tool::http::{HttpServer, Sessions};
use mcp_tool::{Caller, McpTool, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;
use tokio::net::TcpStream;

#[path = "support/issuer.rs"]
mod issuer;
#[path = "support/raw_http.rs"]
mod raw_http;
#[path = "support/redis.rs"]
mod redis;
use issuer::*;
use redis::{Redis, redis_server};

/// A token of `subject` for `resource`, with both scopes of the tests' tools.
fn token_of(issuer: &Issuer, resource: &str, subject: &str) -> String {
    let mut claims = claims(&issuer.url(), resource, "orders:read orders:write");
    claims["sub"] = json!(subject);
    mint(&claims, "k1")
}

/// `extra` header lines for a request of protocol 2025-11-25 by `token` in `session`.
fn in_session(token: &str, session: Option<&str>) -> String {
    let session = session
        .map(|s| format!("Mcp-Session-Id: {s}\r\n"))
        .unwrap_or_default();
    format!(
        "{}{session}MCP-Protocol-Version: 2025-11-25\r\nConnection: close\r\n",
        bearer(token)
    )
}

async fn post(
    port: u16,
    token: &str,
    session: Option<&str>,
    body: &Value,
) -> (u16, Vec<String>, String) {
    let text = raw_http::post_text(
        &format!("127.0.0.1:{port}"),
        None,
        &in_session(token, session),
        &body.to_string(),
    );
    send(port, &text).await
}

/// A request of `method` without a body (`GET` of the stream, `DELETE`), with `extra`.
async fn bare(port: u16, method: &str, token: &str, session: &str, extra: &str) -> u16 {
    let text = format!(
        "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n{}{extra}\r\n",
        in_session(token, Some(session))
    );
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stream, text.as_bytes())
        .await
        .unwrap();
    let (code, _, _) = raw_http::read_head(tokio::io::BufReader::new(stream)).await;
    code
}

/// Opens a session of 2025-11-25 on `port` as `token`'s subject, with `capabilities`.
async fn open(port: u16, token: &str, capabilities: Value) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": capabilities,
        "clientInfo": {"name": "raw", "version": "1"}}});
    let (code, headers, body) = post(port, token, None, &initialize).await;
    assert_eq!(code, 200, "{body}");
    let session = raw_http::header(&headers, "mcp-session-id")
        .expect("a session id")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (code, _, body) = post(port, token, Some(&session), &initialized).await;
    assert_eq!(code, 202, "{body}");
    session
}

fn list() -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
}

#[tokio::test]
async fn a_session_is_its_openers_and_unknown_to_anyone_else() {
    let issuer = issuer().await;
    let (serving, resource, _) = resource(&issuer).await;
    let port = serving.port;
    let alice = token_of(&issuer, &resource, "alice");
    let bob = token_of(&issuer, &resource, "bob");
    let session = open(port, &alice, json!({})).await;
    let (code, _, body) = post(port, &alice, Some(&session), &list()).await;
    assert_eq!(code, 200, "{body}");

    // Bob holds a valid token and Alice's session id: the session is unknown to him,
    // whatever he does in it.
    let (code, _, body) = post(port, &bob, Some(&session), &list()).await;
    assert_eq!(code, 404, "a request: {body}");
    let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"action": "accept", "content": {}}});
    let (code, _, body) = post(port, &bob, Some(&session), &answer).await;
    assert_eq!(code, 404, "an answer: {body}");
    assert_eq!(
        bare(port, "GET", &bob, &session, "").await,
        404,
        "its stream"
    );
    let resume = "Last-Event-ID: 0\r\n";
    assert_eq!(
        bare(port, "GET", &bob, &session, resume).await,
        404,
        "a resumption"
    );
    assert_eq!(
        bare(port, "DELETE", &bob, &session, "").await,
        404,
        "its end"
    );

    // Alice's session is untouched, and hers to end.
    let (code, _, body) = post(port, &alice, Some(&session), &list()).await;
    assert_eq!(code, 200, "{body}");
    assert!(listed(&body).contains(&"find_orders".to_owned()), "{body}");
    assert_eq!(bare(port, "DELETE", &alice, &session, "").await, 202);
    let (code, _, _) = post(port, &alice, Some(&session), &list()).await;
    assert_eq!(code, 404, "an ended session");
    serving.stop().await;
}

/// Ship an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:write"), confirm = "Ship order {id}?")]
struct Ship {
    id: String,
}

/// A replica of a server whose `ship` asks its user to confirm, its sessions in the
/// Redis at `redis`, its tokens for `resource`; the count of orders shipped.
async fn replica(
    issuer: &Issuer,
    resource: &str,
    redis: &str,
    shipped: Arc<AtomicUsize>,
) -> raw_http::Serving {
    let tools = Toolbox::new().tool(move |caller: Caller, ship: Ship| {
        let shipped = Arc::clone(&shipped);
        async move {
            shipped.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>(format!("{} shipped {}", caller.subject(), ship.id))
        }
    });
    let server = HttpServer::new()
        .authorization(Authorization::jwt(issuer.url(), resource))
        .sessions(Sessions::redis(redis).unwrap());
    raw_http::start(server, tools).await
}

#[tokio::test]
async fn two_replicas_serve_one_session_and_hand_an_answer_to_the_one_that_asked() {
    let Some(binary) = redis_server() else { return };
    let redis = Redis::start(binary).await;
    let issuer = issuer().await;
    // Both replicas answer for one resource, as behind one address.
    let resource = "http://mcp.example.test/mcp";
    let shipped = Arc::new(AtomicUsize::new(0));
    let a = replica(&issuer, resource, &redis.url(), Arc::clone(&shipped)).await;
    let b = replica(&issuer, resource, &redis.url(), Arc::clone(&shipped)).await;
    let alice = token_of(&issuer, resource, "alice");
    let bob = token_of(&issuer, resource, "bob");

    // Opened on A, listed on B, which never saw it.
    let elicitation = json!({"elicitation": {"form": {}}});
    let session = open(a.port, &alice, elicitation).await;
    let (code, _, body) = post(b.port, &alice, Some(&session), &list()).await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(listed(&body), ["ship"]);
    // Bound to Alice on B too.
    let (code, _, _) = post(b.port, &bob, Some(&session), &list()).await;
    assert_eq!(code, 404);

    // The call on A: its stream carries the question, and stays open for the result.
    let (mut stream, answer) = ship(a.port, &alice, &session, "A1").await;

    // Bob cannot answer it, on either replica.
    let (code, _, _) = post(b.port, &bob, Some(&session), &answer).await;
    assert_eq!(code, 404);
    // Alice answers through B: handed to A, which asked.
    let (code, _, body) = post(b.port, &alice, Some(&session), &answer).await;
    assert_eq!(code, 202, "{body}");
    let result = next_message(&mut stream).await;
    assert_eq!(result["id"], 3, "{result}");
    assert_eq!(result["result"]["isError"], false, "{result}");
    assert_eq!(result["result"]["content"][0]["text"], "alice shipped A1");
    assert_eq!(shipped.load(Ordering::SeqCst), 1, "shipped once");
    a.stop().await;
    b.stop().await;
}

/// The first request a replica sees in a session can be a call that asks at once, and
/// the answer can reach another replica at once, which publishes it once: Redis keeps
/// nothing for a subscriber yet to subscribe, so the replica that asks must listen for
/// answers before its question goes out. Here its way to Redis is slow to open (as at
/// a start or a reconnection under load), and the answer is sent the moment the
/// question arrives.
#[tokio::test]
async fn a_replica_listens_for_answers_before_it_asks() {
    let Some(binary) = redis_server() else { return };
    let redis = Redis::start(binary).await;
    let slow = slow_relay(redis.port, Duration::from_millis(400)).await;
    let issuer = issuer().await;
    let resource = "http://mcp.example.test/mcp";
    let shipped = Arc::new(AtomicUsize::new(0));
    let slow_url = format!("redis://127.0.0.1:{slow}/");
    let a = replica(&issuer, resource, &slow_url, Arc::clone(&shipped)).await;
    let b = replica(&issuer, resource, &redis.url(), Arc::clone(&shipped)).await;
    let alice = token_of(&issuer, resource, "alice");

    // Opened on B: the call is the first request A sees in the session.
    let session = open(b.port, &alice, json!({"elicitation": {"form": {}}})).await;
    let (mut stream, answer) = ship(a.port, &alice, &session, "A2").await;
    let (code, _, body) = post(b.port, &alice, Some(&session), &answer).await;
    assert_eq!(code, 202, "{body}");
    let result = next_message(&mut stream).await;
    assert_eq!(
        result["result"]["content"][0]["text"], "alice shipped A2",
        "{result}"
    );
    assert_eq!(shipped.load(Ordering::SeqCst), 1, "shipped once");
    a.stop().await;
    b.stop().await;
}

/// Calls `ship` of order `id` on `port` as `token`'s holder in `session`, and reads
/// the question it asks: the call's stream, open for the result, and the answer that
/// confirms.
async fn ship(
    port: u16,
    token: &str,
    session: &str,
    id: &str,
) -> (tokio::io::BufReader<TcpStream>, Value) {
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "ship", "arguments": {"id": id}}});
    let (code, _, mut stream) = raw_http::post(
        port,
        &format!("127.0.0.1:{port}"),
        None,
        &in_session(token, Some(session)),
        &call.to_string(),
    )
    .await;
    assert_eq!(code, 200);
    let question = next_message(&mut stream).await;
    assert_eq!(question["method"], "elicitation/create", "{question}");
    let answer = json!({"jsonrpc": "2.0", "id": question["id"],
        "result": {"action": "accept", "content": {}}});
    (stream, answer)
}

/// A loopback port that relays each connection to Redis at `port` after `delay`.
async fn slow_relay(port: u16, delay: Duration) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let relay = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                if let Ok(mut redis) = TcpStream::connect(("127.0.0.1", port)).await {
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut redis).await;
                }
            });
        }
    });
    relay
}

/// The next JSON-RPC message of an event stream.
async fn next_message(stream: &mut tokio::io::BufReader<TcpStream>) -> Value {
    let read = async {
        loop {
            let mut line = String::new();
            let n = stream.read_line(&mut line).await.unwrap();
            assert!(n > 0, "the stream ended");
            if let Some(data) = line.trim().strip_prefix("data:")
                && data.trim().starts_with('{')
            {
                return serde_json::from_str(data.trim()).unwrap();
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), read)
        .await
        .expect("a message within 20 s")
}
