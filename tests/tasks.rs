//! The tasks extension (SEP-2663) served by a Toolbox over Streamable HTTP, driven
//! with raw stateless requests of 2026-07-28: a tool that supports tasks, called by a
//! client that declared them, is checked first (invalid arguments answered at once,
//! no task), then answered with a flat `CreateTaskResult`; `tasks/get` shows it
//! working, then its result inline; `tasks/cancel` stops its handler, which learns it
//! through `Cancelled`, and the task stays cancelled; a handler that asks its user
//! within a task leaves it `input_required` with its questions until the client answers
//! them with `tasks/update`; an unknown task is -32602; a client that did not declare
//! the extension gets the result within its request.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool::http::HttpServer;
use mcp_tool::tasks::{MemoryTasks, TaskLimits, Tasks};
use mcp_tool::{Ask, Cancelled, McpTool, Progress, TaskSupport, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

#[path = "support/example.rs"]
mod example;
#[path = "support/raw_http.rs"]
mod raw_http;
#[path = "support/tasks_wire.rs"]
mod tasks_wire;
use raw_http::start;

use tasks_wire::TASKS;

/// Exports the orders of a month, slowly.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(task_support = "optional")]
struct Export {
    /// The month, 1 to 12.
    #[validate(range(min = 1, max = 12))]
    month: u8,
    /// How long the export takes, in milliseconds.
    #[validate(range(max = 60000))]
    millis: u64,
}

/// What the handlers saw: how many finished their work, how many stopped on the signal.
#[derive(Default)]
struct Seen {
    finished: AtomicUsize,
    stopped: AtomicUsize,
}

async fn export(
    seen: Arc<Seen>,
    cancelled: Cancelled,
    progress: Progress,
    args: Export,
) -> Result<Value, ToolError> {
    // In a task, the task's `statusMessage` (the rmcp method below says it with
    // `tasks::progress`).
    progress
        .report(1.0, None, format!("Exporting month {}", args.month))
        .await;
    tokio::select! {
        () = cancelled => {
            seen.stopped.fetch_add(1, Ordering::SeqCst);
            Err(ToolError::transient("stopped"))
        }
        () = tokio::time::sleep(Duration::from_millis(args.millis)) => {
            seen.finished.fetch_add(1, Ordering::SeqCst);
            Ok(json!({ "month": args.month, "rows": 42 }))
        }
    }
}

/// Says hello, at once.
#[derive(McpTool, Deserialize, Debug)]
struct Greet {
    name: String,
}

async fn greet(args: Greet) -> Result<String, ToolError> {
    Ok(format!("Hello, {}!", args.name))
}

/// Must run as a task.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(task_support = "required")]
struct Rebuild {}

async fn rebuild(_args: Rebuild) -> Result<String, ToolError> {
    Ok("rebuilt".into())
}

/// Fails unexpectedly.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(task_support = "optional")]
struct Crash {}

async fn crash(_args: Crash) -> Result<String, ToolError> {
    panic!("the export's disk vanished")
}

/// Purges a month's export once the user confirms it and its backups, asked at once.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(task_support = "optional")]
struct Purge {
    month: u8,
}

async fn purge(seen: Arc<Seen>, ask: Ask, args: Purge) -> Result<String, ToolError> {
    let month = format!("Purge the export of month {}?", args.month);
    let (export, backups) = tokio::join!(ask.confirm(&month), ask.confirm("Its backups too?"));
    if let Err(unanswered) = export.and(backups) {
        seen.stopped.fetch_add(1, Ordering::SeqCst);
        return Err(unanswered.into());
    }
    seen.finished.fetch_add(1, Ordering::SeqCst);
    Ok(format!("Purged month {}", args.month))
}

fn tools(seen: Arc<Seen>, limits: TaskLimits) -> Toolbox<Seen> {
    Toolbox::with_shared_state(seen)
        .tool(crash)
        .tool(export)
        .tool(greet)
        .tool(purge)
        .tool(rebuild)
        .tasks(Tasks::new(MemoryTasks::new(), limits))
}

/// The tools served over HTTP with `limits`, and what their handlers saw.
async fn serve(limits: TaskLimits) -> (Arc<Seen>, raw_http::Serving) {
    let seen = Arc::new(Seen::default());
    let serving = start(HttpServer::new(), tools(Arc::clone(&seen), limits)).await;
    (seen, serving)
}

/// One stateless request of 2026-07-28; `tasks` declares the extension in its `_meta`.
async fn request(port: u16, tasks: bool, method: &str, params: Value) -> Value {
    let (_, message) = tasks_wire::request_as(port, tasks, "", method, params).await;
    assert!(!message.is_null(), "no response to {method}");
    message
}

async fn call(port: u16, tasks: bool, name: &str, arguments: Value) -> Value {
    let params = json!({ "name": name, "arguments": arguments });
    request(port, tasks, "tools/call", params).await
}

async fn get(port: u16, id: &str) -> Value {
    request(port, true, "tasks/get", json!({ "taskId": id })).await
}

/// Polls the task until it is over (at most ten seconds: the suite's own bound).
async fn ended(port: u16, id: &str) -> Value {
    for _ in 0..200 {
        let task = get(port, id).await;
        let status = task["result"]["status"].as_str().unwrap_or_default();
        if ["completed", "failed", "cancelled"].contains(&status) {
            return task["result"].clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("task {id} never ended");
}

/// Waits for `n` handlers to have stopped on their signal (or answer), asserting it.
async fn stopped(seen: &Seen, n: usize) {
    for _ in 0..100 {
        if seen.stopped.load(Ordering::SeqCst) == n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        seen.stopped.load(Ordering::SeqCst),
        n,
        "the handler learnt it"
    );
}

/// A request of a client that declared tasks and form elicitation.
async fn asking(port: u16, method: &str, params: Value) -> Value {
    tasks_wire::request_asking(port, "", method, params).await.1
}

/// Polls the task until it waits for `n` answers: the task as `tasks/get` shows it.
async fn asks(port: u16, id: &str, n: usize) -> Value {
    for _ in 0..200 {
        let task = get(port, id).await["result"].clone();
        if task["status"] == "input_required"
            && task["inputRequests"].as_object().unwrap().len() == n
        {
            return task;
        }
        assert_eq!(task["status"], "working", "{task}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("task {id} never asked {n} questions");
}

/// The keys of the task's questions, in the order it asked them.
fn keys(task: &Value) -> Vec<String> {
    let mut keys: Vec<String> = task["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    keys.sort_by_key(|k| k.rsplit('/').next().and_then(|n| n.parse::<u32>().ok()));
    keys
}

#[test]
fn the_derive_declares_task_support_and_tools_list_shows_it() {
    assert_eq!(Export::spec().task_support, TaskSupport::Optional);
    assert_eq!(Greet::spec().task_support, TaskSupport::Forbidden);
    let export = serde_json::to_value(Export::tool()).unwrap();
    assert_eq!(export["execution"], json!({ "taskSupport": "optional" }));
    let rebuild = serde_json::to_value(Rebuild::tool()).unwrap();
    assert_eq!(rebuild["execution"], json!({ "taskSupport": "required" }));
    // Absent means forbidden: a tool without tasks is listed as before.
    assert!(
        serde_json::to_value(Greet::tool())
            .unwrap()
            .get("execution")
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_is_created_polled_and_completed_with_its_result_inline() {
    let (seen, serving) = serve(TaskLimits::default()).await;
    let port = serving.port;

    // The list says which tools run as tasks, where the clients of tasks read it.
    let listed = request(port, true, "tools/list", json!({})).await;
    let listed = listed["result"]["tools"].as_array().unwrap().clone();
    let named = |name: &str| listed.iter().find(|t| t["name"] == name).unwrap().clone();
    assert_eq!(
        named("export")["execution"],
        json!({ "taskSupport": "optional" })
    );
    assert_eq!(
        named("rebuild")["execution"],
        json!({ "taskSupport": "required" })
    );
    assert!(named("greet").get("execution").is_none());
    assert!(named("export").get("_meta").is_none(), "{listed:?}");

    let discovered = request(port, true, "server/discover", json!({})).await;
    assert!(
        discovered["result"]["capabilities"]["extensions"][TASKS].is_object(),
        "{discovered}"
    );

    let created = call(port, true, "export", json!({ "month": 3, "millis": 300 })).await;
    let created = &created["result"];
    assert_eq!(created["resultType"], "task", "{created}");
    assert_eq!(created["status"], "working");
    assert!(created.get("task").is_none() && created.get("result").is_none());
    assert!(created["ttlMs"].as_u64().unwrap() > 0);
    assert!(created["pollIntervalMs"].as_u64().unwrap() > 0);
    let id = created["taskId"].as_str().unwrap().to_owned();
    assert!(id.len() >= 32, "an id nobody can guess: {id}");

    // Stored before the answer: a get right after finds it.
    let working = get(port, &id).await;
    assert_eq!(working["result"]["taskId"], id.as_str(), "{working}");
    assert_eq!(working["result"]["resultType"], "complete");

    let done = ended(port, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["isError"], false);
    assert_eq!(
        done["result"]["structuredContent"],
        json!({ "month": 3, "rows": 42 })
    );
    assert_eq!(done["statusMessage"], "Exporting month 3");
    assert!(done.get("error").is_none());
    assert_eq!(seen.finished.load(Ordering::SeqCst), 1);

    // A handler that panics gave no result of the tool: its task fails, with a JSON-RPC
    // error and no result.
    let created = call(port, true, "crash", json!({})).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let failed = ended(port, &id).await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(failed["error"]["code"], -32603);
    assert!(failed.get("result").is_none());
    serving.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn invalid_arguments_are_answered_at_once_and_no_task_is_created() {
    let limits = TaskLimits::default().per_caller(1);
    let (_seen, serving) = serve(limits).await;
    let port = serving.port;
    let refused = call(
        port,
        true,
        "export",
        json!({ "month": 13, "millis": "soon" }),
    )
    .await;
    let refused = &refused["result"];
    assert_eq!(refused["resultType"], "complete", "{refused}");
    assert_eq!(refused["isError"], true);
    assert!(refused.get("taskId").is_none());
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("month") && text.contains("millis"), "{text}");
    // No task was kept for it: the caller's one task is still free.
    let created = call(port, true, "export", json!({ "month": 1, "millis": 0 })).await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    serving.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cancelled_task_stops_its_handler_and_stays_cancelled() {
    let (seen, serving) = serve(TaskLimits::default()).await;
    let port = serving.port;
    let created = call(port, true, "export", json!({ "month": 5, "millis": 60000 })).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let ack = request(port, true, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(ack["result"], json!({ "resultType": "complete" }), "{ack}");
    let over = ended(port, &id).await;
    assert_eq!(over["status"], "cancelled", "{over}");
    stopped(&seen, 1).await;
    assert_eq!(seen.finished.load(Ordering::SeqCst), 0);
    // What the handler returned after is not reported, and a second cancel is no error.
    let again = request(port, true, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(again["result"]["resultType"], "complete", "{again}");
    assert_eq!(get(port, &id).await["result"]["status"], "cancelled");
    serving.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn unknown_tasks_removed_methods_and_clients_without_the_extension() {
    let (_seen, serving) = serve(TaskLimits::default()).await;
    let port = serving.port;
    for method in ["tasks/get", "tasks/cancel"] {
        let unknown = request(port, true, method, json!({ "taskId": "nope" })).await;
        assert_eq!(unknown["error"]["code"], -32602, "{method}: {unknown}");
    }
    let unknown = request(
        port,
        true,
        "tasks/update",
        json!({ "taskId": "nope", "inputResponses": {} }),
    )
    .await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    for method in ["tasks/result", "tasks/list"] {
        let removed = request(port, true, method, json!({ "taskId": "nope" })).await;
        assert_eq!(removed["error"]["code"], -32601, "{method}: {removed}");
    }
    // Without the extension: tasks/* are -32021, an optional tool answers within the
    // request, a required one is -32021 naming the extension.
    let undeclared = request(port, false, "tasks/get", json!({ "taskId": "nope" })).await;
    assert_eq!(undeclared["error"]["code"], -32021, "{undeclared}");
    let plain = call(port, false, "export", json!({ "month": 2, "millis": 0 })).await;
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(plain["result"]["structuredContent"]["month"], 2);
    let required = call(port, false, "rebuild", json!({})).await;
    assert_eq!(required["error"]["code"], -32021, "{required}");
    let data = &required["error"]["data"]["requiredCapabilities"]["extensions"];
    assert!(data[TASKS].is_object(), "{required}");
    // A tool without task support answers within the request, even to a declaring
    // client.
    let greeted = call(port, true, "greet", json!({ "name": "Ada" })).await;
    assert_eq!(greeted["result"]["resultType"], "complete", "{greeted}");
    serving.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn bounds_refuse_a_new_task_and_keep_the_running_ones() {
    let limits = TaskLimits::default().per_caller(1).max_result_bytes(10);
    let (_seen, serving) = serve(limits).await;
    let port = serving.port;
    let first = call(port, true, "export", json!({ "month": 7, "millis": 300 })).await;
    let id = first["result"]["taskId"].as_str().unwrap().to_owned();
    let second = call(port, true, "export", json!({ "month": 8, "millis": 0 })).await;
    let second = &second["result"];
    assert_eq!(second["isError"], true, "{second}");
    assert!(second.get("taskId").is_none());
    let text = second["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("limit"), "{text}");
    // The first runs on, and its result, over the size kept, fails it saying so.
    let over = ended(port, &id).await;
    assert_eq!(over["status"], "failed", "{over}");
    assert_eq!(over["error"]["code"], -32603);
    assert!(over["error"]["message"].as_str().unwrap().contains("bytes"));
    assert!(over.get("result").is_none());
    serving.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_is_gone_once_its_time_to_live_passed() {
    let limits = TaskLimits::default().ttl(Duration::from_millis(300));
    let (_seen, serving) = serve(limits).await;
    let port = serving.port;
    let created = call(port, true, "export", json!({ "month": 9, "millis": 0 })).await;
    assert_eq!(created["result"]["ttlMs"], 300);
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    assert_eq!(ended(port, &id).await["status"], "completed");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let gone = get(port, &id).await;
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
    serving.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn stdio_lists_each_tools_execution_too() {
    use tokio::io::{AsyncBufReadExt, BufReader};
    let (mut input, server_in) = tokio::io::duplex(64 * 1024);
    let (server_out, output) = tokio::io::duplex(64 * 1024);
    let seen = Arc::new(Seen::default());
    let served = tokio::spawn(
        mcp_tool::stdio::Stdio::new(server_in, server_out)
            .serve(tools(seen, TaskLimits::default())),
    );
    let mut lines = BufReader::new(output).lines();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    for message in [initialize, initialized, list] {
        input
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let listed = loop {
        let line = lines.next_line().await.unwrap().unwrap();
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["id"] == 2 {
            break message;
        }
    };
    let tools = listed["result"]["tools"].as_array().unwrap();
    let export = tools.iter().find(|t| t["name"] == "export").unwrap();
    assert_eq!(
        export["execution"],
        json!({ "taskSupport": "optional" }),
        "{listed}"
    );
    assert!(export.get("_meta").is_none());
    drop(input);
    served.await.unwrap().unwrap();
}

/// A process killed when dropped.
struct Process(std::process::Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_orders_desk_exports_as_a_task_that_expires_after_its_ttl() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _desk = Process(
        std::process::Command::new(example::example("orders"))
            .args(["--http", &format!("127.0.0.1:{port}"), "--db", ":memory:"])
            .args(["--task-ttl-ms", "3000"])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    for _ in 0..200 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let listed = request(port, true, "tools/list", json!({})).await;
    let export = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "export_orders")
        .unwrap()
        .clone();
    assert_eq!(export["execution"]["taskSupport"], "optional", "{export}");
    // Checked first: a state that is none is answered at once.
    let refused = call(port, true, "export_orders", json!({ "status": "LOST" })).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    // A task, polled to its result.
    let created = call(port, true, "export_orders", json!({})).await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    assert_eq!(created["result"]["ttlMs"], 3000);
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let done = ended(port, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    let csv = done["result"]["structuredContent"]["csv"].as_str().unwrap();
    assert!(
        csv.starts_with("order_id,status,placed_on,total_cents\n"),
        "{csv}"
    );
    assert!(csv.contains("ORD-2026-"), "{csv}");
    // The handler's last report, as the task's status.
    let orders = done["result"]["structuredContent"]["orders"]
        .as_u64()
        .unwrap();
    let said = format!("Exported {orders} of {orders} orders");
    assert_eq!(done["statusMessage"], said.as_str(), "{done}");
    // Another, cancelled while it works.
    let created = call(port, true, "export_orders", json!({})).await;
    let cancelled = created["result"]["taskId"].as_str().unwrap().to_owned();
    request(port, true, "tasks/cancel", json!({ "taskId": cancelled })).await;
    assert_eq!(ended(port, &cancelled).await["status"], "cancelled");
    // Past its time to live, the first is gone.
    tokio::time::sleep(Duration::from_millis(3200)).await;
    assert_eq!(get(port, &id).await["error"]["code"], -32602);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_of_2025_11_25_lists_each_tools_execution_in_its_event_stream() {
    use tokio::io::AsyncBufReadExt;
    let (_seen, serving) = serve(TaskLimits::default()).await;
    let port = serving.port;
    let local = format!("127.0.0.1:{port}");
    let (code, headers, _) = raw_http::post(port, &local, None, "", raw_http::INITIALIZE).await;
    assert_eq!(code, 200);
    let session = raw_http::header(&headers, "mcp-session-id").expect("a session");
    let extra = format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-11-25\r\n");
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    raw_http::post(port, &local, None, &extra, initialized).await;
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let (code, headers, mut reader) = raw_http::post(port, &local, None, &extra, list).await;
    assert_eq!(code, 200);
    assert!(
        raw_http::header(&headers, "content-type")
            .unwrap()
            .contains("event-stream")
    );
    let listed = loop {
        let mut line = String::new();
        assert!(
            reader.read_line(&mut line).await.unwrap() > 0,
            "the stream ended"
        );
        if let Some(data) = line.trim().strip_prefix("data:")
            && let Ok(message) = serde_json::from_str::<Value>(data.trim())
            && message["id"] == 2
        {
            break message;
        }
    };
    let tools = listed["result"]["tools"].as_array().unwrap();
    let export = tools.iter().find(|t| t["name"] == "export").unwrap();
    assert_eq!(
        export["execution"],
        json!({ "taskSupport": "optional" }),
        "{listed}"
    );
    assert!(export.get("_meta").is_none());
    serving.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_asks_its_user_and_goes_on_once_every_question_is_answered() {
    let (seen, serving) = serve(TaskLimits::default()).await;
    let port = serving.port;
    let created = asking(
        port,
        "tools/call",
        json!({ "name": "purge", "arguments": { "month": 4 } }),
    )
    .await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();

    // Both questions at once, each an elicitation the client puts to its user.
    let waiting = asks(port, &id, 2).await;
    assert!(waiting.get("requestState").is_none(), "{waiting}");
    let keys = keys(&waiting);
    let first = &waiting["inputRequests"][&keys[0]];
    assert_eq!(first["method"], "elicitation/create", "{waiting}");
    assert_eq!(first["params"]["message"], "Purge the export of month 4?");
    assert_eq!(first["params"]["mode"], "form");
    assert_eq!(
        waiting["inputRequests"][&keys[1]]["params"]["message"],
        "Its backups too?"
    );

    // One answer, and one to no question: acknowledged, the second ignored; the task
    // still waits for the other.
    let yes = json!({ "action": "accept", "content": {} });
    let answers = json!({ keys[0].as_str(): yes, "mcp-tool/input/99": yes });
    let ack = asking(
        port,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": answers }),
    )
    .await;
    assert_eq!(ack["result"], json!({ "resultType": "complete" }), "{ack}");
    let still = asks(port, &id, 1).await;
    assert_eq!(self::keys(&still), [keys[1].clone()], "{still}");
    // The same answer again is ignored too: its question is answered.
    let again = json!({ keys[0].as_str(): { "action": "decline" } });
    asking(
        port,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": again }),
    )
    .await;
    assert_eq!(self::keys(&asks(port, &id, 1).await), [keys[1].clone()]);

    let last = json!({ keys[1].as_str(): yes });
    asking(
        port,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": last }),
    )
    .await;
    let done = ended(port, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["isError"], false);
    assert_eq!(done["result"]["content"][0]["text"], "Purged month 4");
    assert!(done.get("inputRequests").is_none());
    assert_eq!(seen.finished.load(Ordering::SeqCst), 1);
    serving.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_question_declined_cancelled_or_unaskable_ends_the_task_as_the_call_would() {
    let (seen, serving) = serve(TaskLimits::default()).await;
    let port = serving.port;
    let call = json!({ "name": "purge", "arguments": { "month": 6 } });

    // Declined: the tool's own answer to a user who said no, and nothing was done.
    let created = asking(port, "tools/call", call.clone()).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let keys = keys(&asks(port, &id, 2).await);
    let answers = json!({
        keys[0].as_str(): { "action": "decline" },
        keys[1].as_str(): { "action": "accept", "content": {} },
    });
    asking(
        port,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": answers }),
    )
    .await;
    let declined = ended(port, &id).await;
    assert_eq!(declined["status"], "completed", "{declined}");
    assert_eq!(declined["result"]["isError"], true);
    let text = declined["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("declined") && text.contains("month 6"),
        "{text}"
    );

    // Cancelled while it waits: the handler learns it, and the task stays cancelled.
    let created = asking(port, "tools/call", call.clone()).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    asks(port, &id, 2).await;
    asking(port, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(ended(port, &id).await["status"], "cancelled");
    stopped(&seen, 2).await;
    let late =
        json!({ "taskId": id, "inputResponses": { keys[0].as_str(): { "action": "accept" } } });
    let ack = asking(port, "tasks/update", late).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    assert_eq!(get(port, &id).await["result"]["status"], "cancelled");

    // A client that declared tasks and no elicitation cannot answer: the handler is told
    // at once, as within a request, and the task never waits.
    let created = call_tasks(port, call).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let unasked = ended(port, &id).await;
    assert_eq!(unasked["result"]["isError"], true, "{unasked}");
    assert_eq!(seen.finished.load(Ordering::SeqCst), 0);
    serving.stop().await;
}

async fn call_tasks(port: u16, params: Value) -> Value {
    request(port, true, "tools/call", params).await
}

/// A desk written with rmcp's macros: its `export` method, whose `Parameters` type
/// supports tasks, runs as a task through `structured(..).tasks(..)`.
#[derive(Clone)]
struct Desk {
    tool_router: rmcp::handler::server::tool::ToolRouter<Self>,
    tasks: Arc<Tasks>,
    seen: Arc<Seen>,
}

#[rmcp::tool_router]
impl Desk {
    #[rmcp::tool(description = "Exports the orders of a month, slowly")]
    async fn export(
        &self,
        mcp_tool::rmcp::Parameters(args): mcp_tool::rmcp::Parameters<Export>,
    ) -> Result<String, ToolError> {
        // What a method that takes no pieces reads from its task: the signal, and the
        // function that says its progress (the `Progress` given is followed by nobody).
        mcp_tool::tasks::progress(format!("Exporting month {}", args.month)).await;
        let (seen, cancelled) = (Arc::clone(&self.seen), Cancelled::current());
        let value = export(seen, cancelled, Progress::default(), args).await?;
        Ok(value.to_string())
    }
}

#[rmcp::tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).tasks(&self.tasks))]
impl rmcp::ServerHandler for Desk {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        let capabilities = rmcp::model::ServerCapabilities::builder()
            .enable_tools()
            .enable_tasks()
            .build();
        rmcp::model::ServerConfig::new(capabilities)
    }

    async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::GetTaskResult, rmcp::ErrorData> {
        self.tasks.get_task(request, context).await
    }

    async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<(), rmcp::ErrorData> {
        self.tasks.cancel_task(request, context).await
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_rmcp_tool_method_runs_as_a_task_under_structured() {
    let seen = Arc::new(Seen::default());
    let desk = Desk {
        tool_router: Desk::tool_router(),
        tasks: Arc::new(Tasks::default()),
        seen: Arc::clone(&seen),
    };
    let serving = start(HttpServer::new(), desk).await;
    let port = serving.port;

    // Listed with its execution, the key it travelled under gone.
    let listed = request(port, true, "tools/list", json!({})).await;
    let tool = &listed["result"]["tools"][0];
    assert_eq!(
        tool["execution"],
        json!({ "taskSupport": "optional" }),
        "{listed}"
    );
    assert!(
        tool["inputSchema"].get("x-mcp-tool-task-support").is_none(),
        "{tool}"
    );
    assert!(tool.get("_meta").is_none(), "{tool}");

    // Checked before the task exists: a refusal at once, naming the field, no task.
    let refused = call(port, true, "export", json!({ "month": 13, "millis": 0 })).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(refused["result"].get("taskId").is_none());
    assert!(refused["result"]["structuredContent"]["violations"][0]["path"] == "/month");
    assert_eq!(
        seen.finished.load(Ordering::SeqCst),
        0,
        "the method did not run"
    );

    // A task, polled to the method's result.
    let created = call(port, true, "export", json!({ "month": 3, "millis": 200 })).await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    assert_eq!(
        seen.finished.load(Ordering::SeqCst),
        0,
        "it runs in the task"
    );
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let done = ended(port, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    let text = done["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("\"rows\":42"), "{text}");
    assert_eq!(done["statusMessage"], "Exporting month 3");
    assert_eq!(
        seen.finished.load(Ordering::SeqCst),
        1,
        "the method ran once"
    );

    // Cancelled: the method, on its clone of the desk, learns it.
    let created = call(port, true, "export", json!({ "month": 4, "millis": 60000 })).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    request(port, true, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(ended(port, &id).await["status"], "cancelled");
    stopped(&seen, 1).await;

    // A client that did not declare tasks gets the result within its request.
    let plain = call(port, false, "export", json!({ "month": 5, "millis": 0 })).await;
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(plain["result"]["isError"], false, "{plain}");
    serving.stop().await;
}
