//! A task's overhead beside the same call answered within its request: a `Toolbox`
//! served by `HttpServer` on loopback in this process, one client on one kept-alive
//! connection sending stateless requests of protocol 2026-07-28. The tool answers at
//! once, so what is measured is what a task adds: the plain call is one `tools/call`;
//! the task is its `tools/call` (the `CreateTaskResult`, stored before the answer), then
//! `tasks/get` sent again at once until the task shows `completed` with the result
//! inline. Tasks kept in memory (`MemoryTasks`), then in Redis (`RedisTasks`, a
//! `redis-server` started here; skipped, saying so, where none is on PATH).
//!
//! For each store: a warm-up, then five rounds of 400 plain calls and 400 tasks, the
//! order swapped every round; latency of each call or task (p50, p99), calls or tasks
//! per second, and the `tasks/get` a task took on average.
//!
//! `cargo bench --bench tasks` (about 30 seconds).

use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use mcp_tool::http::HttpServer;
use mcp_tool::tasks::{MemoryTasks, RedisTasks, TaskLimits, TaskStore, Tasks};
use mcp_tool::{McpTool, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpListener;

#[path = "support/http1.rs"]
mod http1;
#[path = "../tests/support/redis.rs"]
mod redis;

const ROUNDS: usize = 5;
const PER_ROUND: usize = 400;
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// Totals an order's lines.
#[derive(McpTool, Deserialize)]
#[mcp_tool(task_support = "optional")]
struct Total {
    /// The price of each line, in cents.
    #[validate(length(max = 100))]
    lines: Vec<u32>,
}

async fn total(args: Total) -> Result<Value, ToolError> {
    Ok(json!({ "total_cents": args.lines.iter().sum::<u32>() }))
}

/// One kept-alive HTTP/1.1 connection to the server.
struct Client {
    port: u16,
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
}

impl Client {
    async fn connect(port: u16) -> Client {
        Client {
            port,
            sender: http1::connect(port).await,
        }
    }

    /// One stateless request; `tasks` declares the extension. The JSON-RPC result.
    async fn request(&mut self, tasks: bool, method: &str, mut params: Value) -> Value {
        let extensions = if tasks {
            json!({ TASKS: {} })
        } else {
            json!({})
        };
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { "extensions": extensions },
            "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
        });
        let name = (params.get("name").or_else(|| params.get("taskId")))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let request = hyper::Request::post("/mcp")
            .header("host", format!("127.0.0.1:{}", self.port))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method)
            .header("mcp-name", name)
            .body(Full::new(Bytes::from(body.to_string())))
            .unwrap();
        self.sender.ready().await.unwrap();
        let response = self.sender.send_request(request).await.unwrap();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = std::str::from_utf8(&bytes).unwrap();
        let line = text
            .lines()
            .map(|l| l.strip_prefix("data: ").unwrap_or(l))
            .find(|l| l.starts_with('{'))
            .unwrap();
        let mut message: Value = serde_json::from_str(line).unwrap();
        message["result"].take()
    }

    /// One plain call, answered within its request.
    async fn plain(&mut self) {
        let call = json!({ "name": "total", "arguments": { "lines": [1250, 399, 4200] } });
        let result = self.request(false, "tools/call", call).await;
        assert_eq!(result["structuredContent"]["total_cents"], 5849, "{result}");
    }

    /// The same call as a task, polled at once until completed: the `tasks/get` sent.
    async fn task(&mut self) -> usize {
        let call = json!({ "name": "total", "arguments": { "lines": [1250, 399, 4200] } });
        let created = self.request(true, "tools/call", call).await;
        let id = created["taskId"].as_str().unwrap().to_owned();
        for polls in 1.. {
            let task = self
                .request(true, "tasks/get", json!({ "taskId": id }))
                .await;
            if task["status"] == "completed" {
                assert_eq!(task["result"]["structuredContent"]["total_cents"], 5849);
                return polls;
            }
            assert_eq!(task["status"], "working", "{task}");
        }
        unreachable!()
    }
}

/// Latencies of one mode, and the polls its tasks took.
#[derive(Default)]
struct Measured {
    latencies: Vec<Duration>,
    spent: Duration,
    polls: usize,
}

impl Measured {
    fn quantile(&mut self, q: f64) -> Duration {
        self.latencies.sort_unstable();
        let i = ((self.latencies.len() as f64 - 1.0) * q).round() as usize;
        self.latencies[i]
    }

    fn per_second(&self) -> f64 {
        self.latencies.len() as f64 / self.spent.as_secs_f64()
    }
}

async fn run(client: &mut Client, task: bool, n: usize, into: &mut Measured) {
    let began = Instant::now();
    for _ in 0..n {
        let start = Instant::now();
        if task {
            into.polls += client.task().await;
        } else {
            client.plain().await;
        }
        into.latencies.push(start.elapsed());
    }
    into.spent += began.elapsed();
}

/// Serves the tool with tasks kept in `store`, and measures both modes.
async fn measure(label: &str, store: impl TaskStore) {
    let tools = Toolbox::new().tool(total).tasks(Tasks::new(
        store,
        TaskLimits::default().in_all(1 << 20).per_caller(1 << 20),
    ));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        HttpServer::new()
            .serve_until(tools, listener, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
    });
    let mut client = Client::connect(port).await;
    let (mut plain, mut tasks) = (Measured::default(), Measured::default());
    run(&mut client, false, PER_ROUND / 4, &mut Measured::default()).await;
    run(&mut client, true, PER_ROUND / 4, &mut Measured::default()).await;
    for round in 0..ROUNDS {
        if round % 2 == 0 {
            run(&mut client, false, PER_ROUND, &mut plain).await;
            run(&mut client, true, PER_ROUND, &mut tasks).await;
        } else {
            run(&mut client, true, PER_ROUND, &mut tasks).await;
            run(&mut client, false, PER_ROUND, &mut plain).await;
        }
    }
    let micros = |d: Duration| d.as_secs_f64() * 1e6;
    let (p50, p99) = (plain.quantile(0.5), plain.quantile(0.99));
    let (t50, t99) = (tasks.quantile(0.5), tasks.quantile(0.99));
    println!(
        "{label:<8} plain call  p50 {:>7.0} µs  p99 {:>7.0} µs  {:>7.0}/s",
        micros(p50),
        micros(p99),
        plain.per_second()
    );
    println!(
        "{label:<8} task        p50 {:>7.0} µs  p99 {:>7.0} µs  {:>7.0}/s  {:.2} tasks/get each",
        micros(t50),
        micros(t99),
        tasks.per_second(),
        tasks.polls as f64 / tasks.latencies.len() as f64
    );
    println!(
        "{label:<8} task / plain: p50 {:.2}x, p99 {:.2}x, throughput {:.2}x",
        micros(t50) / micros(p50),
        micros(t99) / micros(p99),
        tasks.per_second() / plain.per_second()
    );
    let _ = stop.send(());
    server.await.unwrap();
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        measure("memory", MemoryTasks::new()).await;
        let Some(binary) = redis::redis_server() else {
            return;
        };
        let server = redis::Redis::start(binary).await;
        measure("redis", RedisTasks::new(&server.url()).unwrap()).await;
    });
}
