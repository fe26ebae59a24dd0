//! What a handler says of its work while it runs, and what it hears of its request, as
//! an rmcp client sees it over an in-process transport, and as a client of Streamable
//! HTTP reads it off the request's stream: `Progress` sends `notifications/progress`
//! under the request's `progressToken`, only growing counts, before the answer;
//! `Cancelled` comes when the client cancels the request (`notifications/cancelled`, or
//! a stateless HTTP client hanging up);
//! both taken as pieces by a Toolbox's handler and by an rmcp `#[tool]` method under
//! `structured` alike. A call nobody follows (no transport, no token) reports to nobody.
//! (In a task, `Progress` sets the task's `statusMessage`: `tests/tasks.rs`.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tool::rmcp::Parameters;
use mcp_tool::{Cancelled, McpTool, Progress, ToolError, Toolbox};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientRequest, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::{
    NotificationContext, PeerRequestOptions, RequestHandle, RoleClient, RunningService,
};
use rmcp::{ClientHandler, ServerHandler, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpStream;

#[path = "support/connect.rs"]
mod connect;
#[path = "support/raw_http.rs"]
mod raw_http;

/// Exports the orders of a month, a day at a time.
#[derive(McpTool, Deserialize, Debug)]
struct Export {
    /// How many days to export.
    #[validate(range(min = 1, max = 28))]
    days: u32,
}

/// Waits until told to stop.
#[derive(McpTool, Deserialize, Debug)]
struct Wait {}

/// Reports each day, then a day again and a count that is not a number, which are not
/// sent; says whether anyone followed.
async fn export(progress: Progress, args: Export) -> Result<Value, ToolError> {
    for day in 1..=args.days {
        let message = format!("Exported day {day} of {}", args.days);
        progress
            .report(f64::from(day), Some(f64::from(args.days)), message)
            .await;
    }
    progress.report(1.0, None, "day one again").await;
    progress.report(f64::NAN, None, "not a number").await;
    Ok(json!({ "followed": progress.is_followed() }))
}

/// How many waiting handlers heard their request cancelled; how many late reports were
/// made.
#[derive(Default)]
struct Heard(AtomicUsize, AtomicUsize);

/// Answers at once, and reports once it has answered.
#[derive(McpTool, Deserialize, Debug)]
struct Late {}

/// Leaves work running with a clone of its `Progress`, which reports after the answer
/// went out: the request is over, and MCP allows no notification under its token.
async fn late(heard: Arc<Heard>, progress: Progress, _: Late) -> Result<String, ToolError> {
    progress.report(1.0, None, "on time").await;
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        progress.report(2.0, None, "too late").await;
        heard.1.fetch_add(1, Ordering::SeqCst);
    });
    Ok("answered".into())
}

async fn wait(heard: Arc<Heard>, cancelled: Cancelled, _: Wait) -> Result<String, ToolError> {
    tokio::select! {
        () = cancelled => {
            heard.0.fetch_add(1, Ordering::SeqCst);
            Err(ToolError::transient("stopped"))
        }
        () = tokio::time::sleep(Duration::from_secs(30)) => Ok("waited".into()),
    }
}

/// A client that keeps the progress notifications it receives.
#[derive(Clone, Default)]
struct Listener(Arc<Mutex<Vec<ProgressNotificationParam>>>);

impl ClientHandler for Listener {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        self.0.lock().unwrap().push(params);
    }
}

impl Listener {
    /// The notifications received under `token`, once `count` came (or a few seconds
    /// passed): a notification is handled beside the response, not before it.
    async fn heard(&self, token: &ProgressToken, count: usize) -> Vec<(f64, Option<f64>, String)> {
        let under = || -> Vec<_> {
            let kept = self.0.lock().unwrap();
            kept.iter()
                .filter(|p| &p.progress_token == token)
                .map(|p| (p.progress, p.total, p.message.clone().unwrap_or_default()))
                .collect()
        };
        for _ in 0..200 {
            if under().len() >= count {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        under()
    }
}

/// Serves `server` on one end of an in-memory pipe; the listening client on the other.
async fn listening<S: ServerHandler>(
    server: S,
) -> (RunningService<RoleClient, Listener>, Listener) {
    let listener = Listener::default();
    (
        connect::connect_as(server, listener.clone()).await,
        listener,
    )
}

/// Sends a call of `name` with `arguments`, as rmcp's client does (with a progress
/// token); the handle of its request.
async fn send(
    client: &RunningService<RoleClient, Listener>,
    name: &'static str,
    arguments: Value,
) -> RequestHandle<RoleClient> {
    let arguments = arguments.as_object().unwrap().clone();
    let params = CallToolRequestParams::new(name).with_arguments(arguments);
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    client
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .expect("sent")
}

/// Calls `name` with `arguments`: the structured content of the result, and the
/// request's progress token.
async fn call(
    client: &RunningService<RoleClient, Listener>,
    name: &'static str,
    arguments: Value,
) -> (Value, ProgressToken) {
    let handle = send(client, name, arguments).await;
    let token = handle.progress_token.clone();
    let response = handle.await_response().await.expect("answered");
    let rmcp::model::ServerResult::CallToolResult(result) = response else {
        panic!("not a tool's result: {response:?}");
    };
    let result = serde_json::to_value(result).unwrap();
    assert_eq!(result.get("isError"), Some(&json!(false)), "{result}");
    (result["structuredContent"].clone(), token)
}

/// Waits a little for `count` to reach `n`; `what` says what it means.
async fn reaches(count: &AtomicUsize, n: usize, what: &str) {
    for _ in 0..200 {
        if count.load(Ordering::SeqCst) == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("not so: {what}");
}

/// Calls `wait`, then cancels the request once its handler waits: the handler hears it.
async fn cancel_a_wait(client: &RunningService<RoleClient, Listener>, heard: &Heard) {
    let handle = send(client, "wait", json!({})).await;
    // Give the handler time to start waiting, then cancel the request.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(heard.0.load(Ordering::SeqCst), 0);
    let reason = Some("the user gave up".to_owned());
    handle.cancel(reason).await.expect("cancelled");
    reaches(&heard.0, 1, "the handler heard its request cancelled").await;
}

fn toolbox() -> Toolbox<Heard> {
    Toolbox::with_state(Heard::default())
        .tool(export)
        .tool(wait)
        .tool(late)
}

fn days(n: u32) -> Vec<(f64, Option<f64>, String)> {
    (1..=n)
        .map(|day| {
            (
                f64::from(day),
                Some(f64::from(n)),
                format!("Exported day {day} of {n}"),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_handler_reports_its_progress_to_the_client_under_the_requests_token() {
    let (client, listener) = listening(toolbox()).await;
    let (result, token) = call(&client, "export", json!({"days": 3})).await;
    assert_eq!(result, json!({"followed": true}));
    // Three days, each once: "day one again" and the count that is not a number were
    // not sent (MCP asks that the progress grow).
    let heard = listener.heard(&token, 3).await;
    assert_eq!(heard, days(3));
    // A second call reports under its own token, from the start again.
    let (_, second) = call(&client, "export", json!({"days": 2})).await;
    assert_ne!(second, token);
    assert_eq!(listener.heard(&second, 2).await, days(2));
}

#[tokio::test]
async fn nothing_is_reported_under_a_token_once_its_request_was_answered() {
    let tools = toolbox();
    let heard = Arc::clone(tools.state());
    let (client, listener) = listening(tools).await;
    let handle = send(&client, "late", json!({})).await;
    let token = handle.progress_token.clone();
    handle.await_response().await.expect("answered");
    reaches(&heard.1, 1, "the late report was made").await;
    // Time for a notification to arrive, had one been sent.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let said = listener.heard(&token, 1).await;
    assert_eq!(said, [(1.0, None, "on time".to_owned())]);
}

#[tokio::test]
async fn a_call_without_a_transport_reports_to_nobody() {
    let result = toolbox().call("export", json!({"days": 2})).await.unwrap();
    assert!(!result.is_error);
    assert_eq!(result.structured_content, Some(json!({"followed": false})));
}

#[tokio::test]
async fn a_handler_hears_its_request_cancelled() {
    let tools = toolbox();
    let heard = Arc::clone(tools.state());
    let (client, _) = listening(tools).await;
    cancel_a_wait(&client, &heard).await;
}

/// The same tools as rmcp `#[tool]` methods under `structured`.
#[derive(Clone)]
struct Desk {
    tool_router: ToolRouter<Self>,
    heard: Arc<Heard>,
}

#[tool_router]
impl Desk {
    #[tool(description = "Exports the orders of a month, a day at a time.")]
    async fn export(
        &self,
        progress: Progress,
        Parameters(args): Parameters<Export>,
    ) -> Result<rmcp::handler::server::wrapper::Json<Value>, ToolError> {
        export(progress, args)
            .await
            .map(rmcp::handler::server::wrapper::Json)
    }

    #[tool(description = "Waits until told to stop.")]
    async fn wait(
        &self,
        cancelled: Cancelled,
        Parameters(args): Parameters<Wait>,
    ) -> Result<String, ToolError> {
        wait(Arc::clone(&self.heard), cancelled, args).await
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router))]
impl ServerHandler for Desk {}

#[tokio::test]
async fn an_rmcp_tool_method_takes_progress_and_cancelled_as_a_toolboxs_handler_does() {
    let heard = Arc::new(Heard::default());
    let desk = Desk {
        tool_router: Desk::tool_router(),
        heard: Arc::clone(&heard),
    };
    let (client, listener) = listening(desk).await;
    let (result, token) = call(&client, "export", json!({"days": 2})).await;
    assert_eq!(result, json!({"followed": true}));
    assert_eq!(listener.heard(&token, 2).await, days(2));
    cancel_a_wait(&client, &heard).await;
}

/// A stateless request of 2026-07-28 over HTTP calling `name` with `arguments`, and
/// `meta` beside the protocol's own: its connection, the request written.
async fn post_call(port: u16, name: &str, arguments: Value, meta: Value) -> TcpStream {
    use tokio::io::AsyncWriteExt;
    let mut params = json!({"name": name, "arguments": arguments, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    }});
    for (key, value) in meta.as_object().unwrap() {
        params["_meta"][key] = value.clone();
    }
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params});
    let body = body.to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: {name}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// Every JSON-RPC message of the answer to [`post_call`] of `export` (a plain body, or
/// the events of a stream), in order.
async fn export_over_http(port: u16, meta: Value) -> Vec<Value> {
    use tokio::io::AsyncReadExt;
    let mut stream = post_call(port, "export", json!({"days": 2}), meta).await;
    let mut text = String::new();
    stream.read_to_string(&mut text).await.unwrap();
    // A chunk's size reads as a number, not a message.
    text.lines()
        .filter_map(|l| serde_json::from_str(l.strip_prefix("data: ").unwrap_or(l)).ok())
        .filter(Value::is_object)
        .collect()
}

#[tokio::test]
async fn over_http_the_progress_comes_on_the_requests_stream_before_its_answer() {
    let serving = raw_http::start(mcp_tool::http::HttpServer::new(), toolbox()).await;
    let messages = export_over_http(serving.port, json!({"progressToken": "export-1"})).await;
    let said: Vec<&Value> = messages.iter().filter(|m| m.get("id").is_none()).collect();
    assert_eq!(
        said,
        [
            &json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": "export-1", "progress": 1.0, "total": 2.0,
                "message": "Exported day 1 of 2",
            }}),
            &json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": "export-1", "progress": 2.0, "total": 2.0,
                "message": "Exported day 2 of 2",
            }}),
        ],
        "{messages:#?}"
    );
    let last = messages.last().unwrap();
    assert_eq!(last["id"], 7);
    assert_eq!(
        last["result"]["structuredContent"],
        json!({"followed": true})
    );
    // Without a token, nobody follows: the answer alone.
    let messages = export_over_http(serving.port, json!({})).await;
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert_eq!(
        messages[0]["result"]["structuredContent"],
        json!({"followed": false})
    );
    serving.stop().await;
}

#[tokio::test]
async fn over_http_a_client_that_hangs_up_cancels_its_call() {
    let tools = toolbox();
    let heard = Arc::clone(tools.state());
    let serving = raw_http::start(mcp_tool::http::HttpServer::new(), tools).await;
    let stream = post_call(serving.port, "wait", json!({}), json!({})).await;
    // The handler waits while the client does.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(heard.0.load(Ordering::SeqCst), 0);
    drop(stream);
    reaches(&heard.0, 1, "the handler heard the hang-up").await;
    serving.stop().await;
}
