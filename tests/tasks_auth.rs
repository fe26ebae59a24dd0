//! Tasks under authorization: a task is its creator's (the token's subject): another
//! subject's `tasks/get`, `tasks/update` and `tasks/cancel` are answered as for a task
//! that does not exist, and a caller without the tool's scope is refused before any
//! task exists (the 403 of today).

use std::time::Duration;

use mcp_tool::http::HttpServer;
use mcp_tool::http::auth::{Authorization, JwtVerifier};
use mcp_tool::{McpTool, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/issuer.rs"]
mod issuer;
#[path = "support/raw_http.rs"]
mod raw_http;
#[path = "support/tasks_wire.rs"]
mod tasks_wire;
use issuer::{bearer, claims, mint};

/// Exports the orders, slowly.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:read"), task_support = "optional")]
struct ExportOrders {
    /// How long it takes, in milliseconds.
    millis: u64,
}

async fn export_orders(args: ExportOrders) -> Result<Value, ToolError> {
    tokio::time::sleep(Duration::from_millis(args.millis)).await;
    Ok(json!({ "rows": 3 }))
}

/// A stateless request declaring the tasks extension, with `token`: status and message.
async fn request(port: u16, token: &str, method: &str, params: Value) -> (u16, Value) {
    tasks_wire::request_as(port, true, &bearer(token), method, params).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_is_its_subjects_and_a_caller_without_the_scope_gets_none() {
    let issuer = issuer::issuer().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let verifier = JwtVerifier::new(issuer.url(), &resource);
    let auth = Authorization::new(verifier, &resource, issuer.url());
    let tools = Toolbox::new().tool(export_orders);
    let serving =
        raw_http::start_with(listener, HttpServer::new().authorization(auth), tools).await;
    let token = |sub: &str, scope: &str| {
        let mut claims = claims(&issuer.url(), &resource, scope);
        claims["sub"] = json!(sub);
        mint(&claims, "k1")
    };
    let alice = token("alice", "orders:read");
    let mallory = token("mallory", "orders:read");
    let carol = token("carol", "");

    let (code, created) = request(
        port,
        &alice,
        "tools/call",
        json!({
            "name": "export_orders", "arguments": { "millis": 200 }
        }),
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();

    // Another subject, with the same scopes, finds no such task, whatever it asks.
    for (method, params) in [
        ("tasks/get", json!({ "taskId": id })),
        ("tasks/cancel", json!({ "taskId": id })),
        (
            "tasks/update",
            json!({ "taskId": id, "inputResponses": {} }),
        ),
    ] {
        let (code, answer) = request(port, &mallory, method, params).await;
        assert_eq!(code, 200, "{method}");
        assert_eq!(answer["error"]["code"], -32602, "{method}: {answer}");
    }
    // Its cancel did nothing: the task runs on to its result for its own subject.
    let mut status = Value::Null;
    for _ in 0..100 {
        let (_, got) = request(port, &alice, "tasks/get", json!({ "taskId": id })).await;
        status = got["result"]["status"].clone();
        if status != "working" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(status, "completed");

    // A caller without the tool's scope is refused before anything of the call.
    let (code, _) = request(
        port,
        &carol,
        "tools/call",
        json!({
            "name": "export_orders", "arguments": { "millis": 0 }
        }),
    )
    .await;
    assert_eq!(code, 403);
    serving.stop().await;
}
