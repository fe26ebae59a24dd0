//! A confirmed call whose connection drops, sent again: it runs at most once per
//! confirmation, and the answer never says it did not run when it did. Over Streamable
//! HTTP, spoken by hand so that the connection can be dropped at every point of each
//! request: before the body is whole, once it is sent, once the response's head is
//! read, and after the whole response; under protocol 2026-07-28 (rounds carried by a
//! `requestState`) and 2025-11-25 (the question asked within the call). The side
//! effects are counted at the handler. Each scenario runs against a `Toolbox` and
//! against an rmcp `#[tool_router]` server served through `structured`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool::ask::Rounds;
use mcp_tool::http::HttpServer;
use mcp_tool::rmcp::Parameters;
use mcp_tool::{McpTool, StateKey, ToolError, Toolbox};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

#[path = "support/raw_http.rs"]
mod raw_http;
use raw_http::{Serving, header, post_text, read_head, start};

/// Cancel an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Cancel order {order_id}?", destructive)]
struct CancelOrder {
    order_id: String,
}

/// Book a table.
#[derive(McpTool, Deserialize)]
struct BookTable {
    #[validate(ask = "How many guests?", range(min = 1, max = 8))]
    guests: u8,
}

/// The cancellations done.
#[derive(Default)]
struct Shop {
    cancelled: AtomicUsize,
}

async fn cancel(shop: Arc<Shop>, args: CancelOrder) -> Result<String, ToolError> {
    // Long enough that a request sent again may find the first one running.
    tokio::time::sleep(Duration::from_millis(50)).await;
    shop.cancelled.fetch_add(1, Ordering::SeqCst);
    Ok(format!("cancelled {}", args.order_id))
}

fn key() -> StateKey {
    StateKey::new(*b"a fixed key for the tests only!!").unwrap()
}

/// The same tool as an rmcp method, its arguments through `Parameters`.
#[derive(Clone)]
struct Desk {
    tool_router: ToolRouter<Self>,
    shop: Arc<Shop>,
    rounds: Rounds,
}

#[tool_router]
impl Desk {
    #[tool(name = "cancel_order", description = "Cancel an order.")]
    async fn cancel_order(
        &self,
        Parameters(args): Parameters<CancelOrder>,
    ) -> Result<String, ToolError> {
        cancel(Arc::clone(&self.shop), args).await
    }

    #[tool(name = "book_table", description = "Book a table.")]
    async fn book_table(
        &self,
        Parameters(args): Parameters<BookTable>,
    ) -> Result<String, ToolError> {
        if args.guests == 7 {
            return Err(ToolError::transient("No table for seven tonight."));
        }
        Ok(format!("a table for {}", args.guests))
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).rounds(&self.rounds))]
impl ServerHandler for Desk {}

/// The server of a scenario: a `Toolbox`, or the rmcp router.
#[derive(Debug, Clone, Copy)]
enum Server {
    Toolbox,
    Router,
}

async fn serve(server: Server) -> (Serving, Arc<Shop>) {
    let shop = Arc::new(Shop::default());
    let serving = match server {
        Server::Toolbox => {
            let tools = Toolbox::with_shared_state(Arc::clone(&shop))
                .state_key(key())
                .tool(cancel);
            start(HttpServer::new(), tools).await
        }
        Server::Router => {
            let desk = Desk {
                tool_router: Desk::tool_router(),
                shop: Arc::clone(&shop),
                rounds: Rounds::new().state_key(key()),
            };
            start(HttpServer::new(), desk).await
        }
    };
    (serving, shop)
}

/// Where a request's connection is dropped.
#[derive(Debug, Clone, Copy)]
enum Drop {
    /// Half of the body sent.
    MidBody,
    /// The request sent whole, nothing read.
    Sent,
    /// The response's head read.
    Head,
    /// Nothing dropped: the whole response read.
    Never,
}

const EVERY_POINT: [Drop; 4] = [Drop::MidBody, Drop::Sent, Drop::Head, Drop::Never];

/// Sends `request` (the text of a whole HTTP request) and drops the connection at
/// `at`; the JSON-RPC message of id `id` in the response when it is read whole.
async fn exchange(port: u16, request: &str, at: Drop, id: i64) -> Option<Value> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    if let Drop::MidBody = at {
        let cut = request.len() - request.split_once("\r\n\r\n").unwrap().1.len() / 2;
        stream.write_all(&request.as_bytes()[..cut]).await.unwrap();
        return None;
    }
    stream.write_all(request.as_bytes()).await.unwrap();
    if let Drop::Sent = at {
        return None;
    }
    let (code, headers, mut reader) = read_head(BufReader::new(stream)).await;
    assert_eq!(code, 200, "{headers:?}");
    if let Drop::Head = at {
        return None;
    }
    Some(message_of(&mut reader, &headers, id).await)
}

/// The JSON-RPC message of id `id` in the response being read: its JSON body, or the
/// `data:` of one of its events.
async fn message_of(reader: &mut BufReader<TcpStream>, headers: &[String], id: i64) -> Value {
    if header(headers, "content-type").is_some_and(|t| t.starts_with("application/json")) {
        let body = raw_http::read_body(reader, headers).await;
        return serde_json::from_str(&body).unwrap();
    }
    next_event(reader, |m| m["id"] == id && m.get("method").is_none()).await
}

/// The next event's message on an event stream that `wanted` picks (chunked framing
/// and other events skipped).
async fn next_event(reader: &mut BufReader<TcpStream>, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let mut line = String::new();
        let read = tokio::time::timeout(Duration::from_secs(10), reader.read_line(&mut line))
            .await
            .expect("an event in time")
            .unwrap();
        assert!(read > 0, "the stream ended");
        if let Some(data) = line.trim_end().strip_prefix("data:")
            && let Ok(message) = serde_json::from_str::<Value>(data.trim())
            && wanted(&message)
        {
            return message;
        }
    }
}

const CAPABILITIES: &str = r#"{"elicitation": {"form": {}}}"#;

/// A stateless `tools/call` of `cancel_order` (protocol 2026-07-28), with the answers
/// of a round.
fn call_2026(port: u16, id: i64, responses: Option<Value>, state: Option<&str>) -> String {
    call_tool_2026(
        port,
        id,
        "cancel_order",
        json!({"order_id": "ORD-7"}),
        responses,
        state,
    )
}

/// A stateless `tools/call` of `tool` (protocol 2026-07-28).
fn call_tool_2026(
    port: u16,
    id: i64,
    tool: &str,
    arguments: Value,
    responses: Option<Value>,
    state: Option<&str>,
) -> String {
    let mut params = json!({
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": serde_json::from_str::<Value>(CAPABILITIES).unwrap(),
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        },
    });
    if let Some(responses) = responses {
        params["inputResponses"] = responses;
    }
    if let Some(state) = state {
        params["requestState"] = json!(state);
    }
    let body =
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}).to_string();
    let extra = format!(
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n\
         Mcp-Name: {tool}\r\nConnection: close\r\n"
    );
    post_text(&format!("127.0.0.1:{port}"), None, &extra, &body)
}

/// The question of an input-required result: its key and the state to send back.
fn question(result: &Value) -> (String, String) {
    assert_eq!(result["resultType"], "input_required", "{result}");
    let key = result["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap();
    (
        key.clone(),
        result["requestState"].as_str().unwrap().to_owned(),
    )
}

/// Sends a request until it is answered with something other than "running now"
/// (a round that a dropped request began may still be running).
async fn answered(port: u16, request: &str, id: i64) -> Value {
    for _ in 0..100 {
        let message = exchange(port, request, Drop::Never, id).await.unwrap();
        let text = message["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or("");
        if !text.contains("running now") {
            return message;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the round kept running");
}

/// Lets a handler that a dropped request started finish.
async fn let_handlers_finish() {
    tokio::time::sleep(Duration::from_millis(200)).await;
}

#[tokio::test]
async fn under_2026_07_28_a_round_sent_again_runs_once_whatever_dropped() {
    for server in [Server::Toolbox, Server::Router] {
        a_round_sent_again_runs_once_whatever_dropped(server).await;
    }
}

async fn a_round_sent_again_runs_once_whatever_dropped(server: Server) {
    let (serving, shop) = serve(server).await;
    let port = serving.port;
    for first_drop in EVERY_POINT {
        for retry_drop in EVERY_POINT {
            let before = shop.cancelled.load(Ordering::SeqCst);
            // The first round, dropped: it asks and runs nothing. Sent again, it asks
            // again (a state of its own).
            exchange(port, &call_2026(port, 1, None, None), first_drop, 1).await;
            let asked = answered(port, &call_2026(port, 1, None, None), 1).await;
            let (key, state) = question(&asked["result"]);
            let_handlers_finish().await;
            assert_eq!(
                shop.cancelled.load(Ordering::SeqCst),
                before,
                "{first_drop:?}"
            );

            // The confirmed round, dropped, then sent again until answered.
            let yes = json!({ key: {"action": "accept", "content": {}} });
            let retry = call_2026(port, 2, Some(yes), Some(&state));
            exchange(port, &retry, retry_drop, 2).await;
            let done = answered(port, &retry, 2).await;
            let result = &done["result"];
            assert_eq!(
                result["isError"], false,
                "{first_drop:?}, {retry_drop:?}: {done}"
            );
            assert_eq!(result["content"][0]["text"], "cancelled ORD-7");
            // And once more: the same answer, and still one cancellation.
            let again = answered(port, &retry, 2).await;
            assert_eq!(again["result"], *result);
            let_handlers_finish().await;
            assert_eq!(
                shop.cancelled.load(Ordering::SeqCst),
                before + 1,
                "{first_drop:?}, {retry_drop:?}"
            );
        }
    }
    serving.stop().await;
}

#[tokio::test]
async fn under_2026_07_28_a_round_sent_again_while_it_runs_is_told_so() {
    for server in [Server::Toolbox, Server::Router] {
        a_round_sent_again_while_it_runs_is_told_so(server).await;
    }
}

async fn a_round_sent_again_while_it_runs_is_told_so(server: Server) {
    let (serving, shop) = serve(server).await;
    let port = serving.port;
    let asked = answered(port, &call_2026(port, 1, None, None), 1).await;
    let (key, state) = question(&asked["result"]);
    let yes = json!({ key: {"action": "accept", "content": {}} });
    let retry = call_2026(port, 2, Some(yes), Some(&state));
    exchange(port, &retry, Drop::Sent, 2).await;
    // The handler takes 50 ms: the request sent at once finds it running.
    let running = exchange(port, &retry, Drop::Never, 2).await.unwrap();
    let result = &running["result"];
    assert_eq!(result["isError"], true, "{running}");
    assert_eq!(result["structuredContent"]["errorCategory"], "transient");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("running now") && !text.contains("not run"),
        "{text}"
    );
    let done = answered(port, &retry, 2).await;
    assert_eq!(done["result"]["content"][0]["text"], "cancelled ORD-7");
    let_handlers_finish().await;
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 1);
    serving.stop().await;
}

/// A session of protocol 2025-11-25, opened by hand: its id.
async fn open_session(port: u16) -> String {
    let host = format!("127.0.0.1:{port}");
    let init = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": serde_json::from_str::<Value>(CAPABILITIES).unwrap(),
            "clientInfo": {"name": "raw", "version": "1"},
        },
    });
    let request = post_text(&host, None, "Connection: close\r\n", &init.to_string());
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let (code, headers, mut reader) = read_head(BufReader::new(stream)).await;
    assert_eq!(code, 200);
    let session = header(&headers, "mcp-session-id").unwrap().to_owned();
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).await.unwrap();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    post_in(port, &session, initialized).await;
    session
}

fn session_headers(session: &str) -> String {
    format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-11-25\r\n")
}

/// Posts `body` in the session and reads its answer (202 for a notification or a
/// response).
async fn post_in(port: u16, session: &str, body: &str) {
    let host = format!("127.0.0.1:{port}");
    let extra = format!("{}Connection: close\r\n", session_headers(session));
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream
        .write_all(post_text(&host, None, &extra, body).as_bytes())
        .await
        .unwrap();
    let (code, _, _) = read_head(BufReader::new(stream)).await;
    assert!(code == 202 || code == 200, "{code}");
}

/// Calls `cancel_order` in the session: the call's stream, and the id of the question
/// it asks.
async fn call_in(port: u16, session: &str, id: i64) -> (BufReader<TcpStream>, Value) {
    let host = format!("127.0.0.1:{port}");
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "cancel_order", "arguments": {"order_id": "ORD-7"}}});
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let request = post_text(&host, None, &session_headers(session), &body.to_string());
    stream.write_all(request.as_bytes()).await.unwrap();
    let (code, _, mut reader) = read_head(BufReader::new(stream)).await;
    assert_eq!(code, 200);
    let question = next_event(&mut reader, |m| m["method"] == "elicitation/create").await;
    (reader, question["id"].clone())
}

fn reply(question: &Value, action: &str) -> String {
    json!({"jsonrpc": "2.0", "id": question, "result": {"action": action, "content": {}}})
        .to_string()
}

#[tokio::test]
async fn under_2025_11_25_a_call_sent_again_asks_again_and_runs_once_per_yes() {
    for server in [Server::Toolbox, Server::Router] {
        a_call_sent_again_asks_again_and_runs_once_per_yes(server).await;
    }
}

async fn a_call_sent_again_asks_again_and_runs_once_per_yes(server: Server) {
    let (serving, shop) = serve(server).await;
    let port = serving.port;
    let session = open_session(port).await;

    // Dropped before the user answers: nothing runs.
    let (stream, _) = call_in(port, &session, 2).await;
    drop(stream);
    let_handlers_finish().await;
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 0);

    // The user says yes, and the call's stream drops before its result: it ran once.
    let (stream, question) = call_in(port, &session, 3).await;
    post_in(port, &session, &reply(&question, "accept")).await;
    drop(stream);
    let_handlers_finish().await;
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 1);

    // Sent again, the call is a new one and asks again: a no runs nothing more.
    let (mut stream, question) = call_in(port, &session, 4).await;
    post_in(port, &session, &reply(&question, "decline")).await;
    let result = next_event(&mut stream, |m| m["id"] == 4).await;
    assert_eq!(result["result"]["isError"], true, "{result}");
    let text = result["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("declined"), "{text}");
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 1);

    // Read whole, a yes runs once.
    let (mut stream, question) = call_in(port, &session, 5).await;
    post_in(port, &session, &reply(&question, "accept")).await;
    let result = next_event(&mut stream, |m| m["id"] == 5).await;
    assert_eq!(result["result"]["content"][0]["text"], "cancelled ORD-7");
    assert_eq!(shop.cancelled.load(Ordering::SeqCst), 2);
    serving.stop().await;
}

#[tokio::test]
async fn an_rmcp_method_asks_its_user_for_a_field_as_a_toolbox_does() {
    let (serving, _) = serve(Server::Router).await;
    let port = serving.port;
    let call = |id: i64, arguments: Value, responses: Option<Value>, state: Option<&str>| {
        call_tool_2026(port, id, "book_table", arguments, responses, state)
    };
    // Left out by the model: asked of the user, in a form made from its rules.
    let asked = answered(port, &call(1, json!({}), None, None), 1).await;
    let result = &asked["result"];
    let (key, state) = question(result);
    assert_eq!(key, "mcp-tool/fields");
    let form = &result["inputRequests"][&key]["params"]["requestedSchema"];
    assert_eq!(form["properties"]["guests"]["maximum"], 8, "{form}");
    let answer = json!({ key: {"action": "accept", "content": {"guests": 4}} });
    let done = answered(port, &call(2, json!({}), Some(answer), Some(&state)), 2).await;
    assert_eq!(
        done["result"]["content"][0]["text"], "a table for 4",
        "{done}"
    );
    // A method that fails after the user answered shows the model what it sent, not
    // the user's answer, as a toolbox's handler does.
    let asked = answered(port, &call(3, json!({}), None, None), 3).await;
    let (key, state) = question(&asked["result"]);
    let answer = json!({ key: {"action": "accept", "content": {"guests": 7}} });
    let failed = answered(port, &call(4, json!({}), Some(answer), Some(&state)), 4).await;
    let structured = &failed["result"]["structuredContent"];
    assert_eq!(structured["errorCategory"], "transient", "{failed}");
    assert_eq!(
        structured["attempted_query"]["arguments"],
        json!({}),
        "{failed}"
    );
    serving.stop().await;
}
