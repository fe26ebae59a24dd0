//! Tasks across replicas (`mcp_tool::tasks::RedisTasks`): two servers on one Redis, as
//! two replicas behind a balancer without affinity: a task created on one is polled,
//! fetched and cancelled through the other, its work running where it started and
//! learning there of the cancel, and of the answers to its questions sent through the
//! other; a task whose replica went away is shown failed, not
//! working forever, once its lease lapses; the bounds hold across replicas.
//!
//! Skipped, saying so, where `redis-server` is not on PATH, except under `CI=true`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool::http::HttpServer;
use mcp_tool::tasks::{RedisTasks, TaskLimits, TaskRecord, TaskStore, Tasks};
use mcp_tool::{Ask, Cancelled, McpTool, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/raw_http.rs"]
mod raw_http;
#[path = "support/redis.rs"]
mod redis;
#[path = "support/tasks_wire.rs"]
mod tasks_wire;

/// Builds a report, slowly.
#[derive(McpTool, Deserialize)]
#[mcp_tool(task_support = "optional")]
struct Report {
    /// How long it takes, in milliseconds.
    millis: u64,
}

async fn report(
    stopped: Arc<AtomicUsize>,
    cancelled: Cancelled,
    args: Report,
) -> Result<Value, ToolError> {
    tokio::select! {
        () = cancelled => {
            stopped.fetch_add(1, Ordering::SeqCst);
            Err(ToolError::transient("stopped"))
        }
        () = tokio::time::sleep(Duration::from_millis(args.millis)) => Ok(json!({ "pages": 12 })),
    }
}

/// Sends the report once the user approves it.
#[derive(McpTool, Deserialize)]
#[mcp_tool(task_support = "optional")]
struct SendReport {}

async fn send_report(ask: Ask, _: SendReport) -> Result<String, ToolError> {
    ask.confirm("Send the report to the board?").await?;
    Ok("Sent".to_owned())
}

fn store(url: &str) -> RedisTasks {
    RedisTasks::new(url)
        .unwrap()
        .prefix("tasks-test:")
        .lease(Duration::from_millis(400))
}

async fn replica(url: &str, limits: TaskLimits) -> (Arc<AtomicUsize>, raw_http::Serving) {
    let stopped = Arc::new(AtomicUsize::new(0));
    let tools = Toolbox::with_shared_state(Arc::clone(&stopped))
        .tool(report)
        .tool(send_report)
        .tasks(Tasks::new(store(url), limits));
    (stopped, raw_http::start(HttpServer::new(), tools).await)
}

/// One stateless request of 2026-07-28 declaring the tasks extension.
async fn request(port: u16, method: &str, params: Value) -> Value {
    tasks_wire::request_as(port, true, "", method, params)
        .await
        .1
}

async fn status_on(port: u16, id: &str) -> Value {
    request(port, "tasks/get", json!({ "taskId": id })).await["result"].clone()
}

/// Polls through `port` until the task is over.
async fn ended(port: u16, id: &str) -> Value {
    for _ in 0..200 {
        let task = status_on(port, id).await;
        if !["working", "input_required"].contains(&task["status"].as_str().unwrap_or_default()) {
            return task;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("task {id} never ended");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_created_on_one_replica_is_polled_and_cancelled_through_another() {
    let Some(binary) = redis::redis_server() else {
        return;
    };
    let server = redis::Redis::start(binary).await;
    let url = server.url();
    let (stopped_a, a) = replica(&url, TaskLimits::default()).await;
    let (stopped_b, b) = replica(&url, TaskLimits::default()).await;

    // Created on A, its result fetched through B.
    let created = request(
        a.port,
        "tools/call",
        json!({"name": "report", "arguments": {"millis": 300}}),
    )
    .await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    assert_eq!(status_on(b.port, &id).await["status"], "working");
    let done = ended(b.port, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["structuredContent"], json!({ "pages": 12 }));

    // Created on A, cancelled through B: A's handler learns it, the task stays cancelled.
    let created = request(
        a.port,
        "tools/call",
        json!({"name": "report", "arguments": {"millis": 60000}}),
    )
    .await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let ack = request(b.port, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    for _ in 0..100 {
        if stopped_a.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        stopped_a.load(Ordering::SeqCst),
        1,
        "the work stopped where it ran"
    );
    assert_eq!(stopped_b.load(Ordering::SeqCst), 0);
    assert_eq!(status_on(a.port, &id).await["status"], "cancelled");
    assert_eq!(status_on(b.port, &id).await["status"], "cancelled");
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_question_asked_on_one_replica_is_answered_through_another() {
    let Some(binary) = redis::redis_server() else {
        return;
    };
    let server = redis::Redis::start(binary).await;
    let url = server.url();
    let (_, a) = replica(&url, TaskLimits::default()).await;
    let (_, b) = replica(&url, TaskLimits::default()).await;
    let asking = |port: u16, method: &'static str, params: Value| async move {
        tasks_wire::request_asking(port, "", method, params).await.1
    };
    let call = json!({"name": "send_report", "arguments": {}});
    let created = asking(a.port, "tools/call", call).await;
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    // Its question, seen through B.
    let mut waiting = Value::Null;
    for _ in 0..100 {
        waiting = status_on(b.port, &id).await;
        if waiting["status"] == "input_required" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(waiting["status"], "input_required", "{waiting}");
    let asked = waiting["inputRequests"].as_object().unwrap();
    assert_eq!(asked.len(), 1, "{waiting}");
    let (key, question) = asked.iter().next().unwrap();
    assert_eq!(
        question["params"]["message"],
        "Send the report to the board?"
    );
    // Answered through B: the work, on A, takes it from Redis and ends.
    let answers = json!({ key.as_str(): { "action": "accept", "content": {} } });
    let ack = asking(
        b.port,
        "tasks/update",
        json!({ "taskId": id, "inputResponses": answers }),
    )
    .await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let done = ended(a.port, &id).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "Sent");
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_whose_replica_went_away_fails_once_its_lease_lapses() {
    let Some(binary) = redis::redis_server() else {
        return;
    };
    let server = redis::Redis::start(binary).await;
    let url = server.url();
    // A replica that created a task and died at once: the task is in Redis, working,
    // and nobody renews its lease.
    let orphan = TaskRecord::working("orphan-task-0001", None, "report", 60_000);
    store(&url)
        .create(orphan, &TaskLimits::default())
        .await
        .unwrap();
    let (_, b) = replica(&url, TaskLimits::default()).await;
    assert_eq!(
        status_on(b.port, "orphan-task-0001").await["status"],
        "working"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let failed = status_on(b.port, "orphan-task-0001").await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(failed["error"]["code"], -32603);
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("stopped")
    );
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_bound_of_tasks_holds_across_replicas() {
    let Some(binary) = redis::redis_server() else {
        return;
    };
    let server = redis::Redis::start(binary).await;
    let url = server.url();
    let limits = TaskLimits::default().per_caller(1);
    let (_, a) = replica(&url, limits.clone()).await;
    let (_, b) = replica(&url, limits).await;
    let first = request(
        a.port,
        "tools/call",
        json!({"name": "report", "arguments": {"millis": 60000}}),
    )
    .await;
    assert_eq!(first["result"]["resultType"], "task", "{first}");
    let second = request(
        b.port,
        "tools/call",
        json!({"name": "report", "arguments": {"millis": 0}}),
    )
    .await;
    assert_eq!(second["result"]["isError"], true, "{second}");
    let id = first["result"]["taskId"].as_str().unwrap();
    assert_eq!(
        status_on(b.port, id).await["status"],
        "working",
        "the first runs on"
    );
    a.stop().await;
    b.stop().await;
}
