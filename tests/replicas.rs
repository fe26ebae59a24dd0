//! A confirmed call served by several replicas runs once across all of them: the
//! record of confirmed rounds in Redis (`mcp_tool::ask::RedisStates`), the sealing key
//! shared. With real parts: a `redis-server` started here on a loopback port, copies of
//! the `orders` example as separate processes on one SQLite file, and a client that
//! sends each round to another replica and drops connections mid-call. The side effect
//! counted is the refund row a cancellation writes.
//!
//! The tests that need `redis-server` are skipped, saying so, where it is not on PATH,
//! except under `CI=true`, where they fail. The tests of a store that cannot be reached
//! or is slow need none.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcp_tool::ask::{Claim, RedisStates, Stored, UsedStates};
use mcp_tool::http::HttpServer;
use mcp_tool::{McpTool, StateKey, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

#[path = "support/orders_example.rs"]
mod orders_example;
#[path = "support/raw_http.rs"]
mod raw_http;
#[path = "support/redis.rs"]
mod redis;
use orders_example::orders_binary;
use raw_http::{header, post_text, read_head};
use redis::{Process, Redis, free_port, redis_server, wait_for_port};

const STATE_KEY: &str = "5f3a9c0e7d2b4a6f8e1c3b5d7f9a0c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a";

// ---------------------------------------------------------------------------------
// The parts: redis-server, the replicas, a client.

/// A replica of the orders example, serving over HTTP.
struct Replica {
    port: u16,
    _process: Process,
}

async fn replica(db: &Path, redis: Option<&str>) -> Replica {
    let port = free_port();
    let mut command = Command::new(orders_binary());
    command
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(["--db", db.to_str().unwrap()])
        .args(["--state-key", STATE_KEY])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(url) = redis {
        command.args(["--redis", url]);
    }
    let process = Process(command.spawn().expect("the orders example starts"));
    wait_for_port(port).await;
    Replica {
        port,
        _process: process,
    }
}

/// A database of `orders` orders, all PAID and the customer's, for the replicas to
/// share; the first replica, started on it, and the rest started after it.
async fn replicas(
    count: usize,
    orders: usize,
    redis: Option<&str>,
) -> (tempdir::Dir, Vec<Replica>) {
    let dir = tempdir::Dir::new();
    let db = dir.0.join("orders.sqlite3");
    let mut replicas = vec![replica(&db, redis).await];
    let connection = rusqlite::Connection::open(&db).unwrap();
    connection.busy_timeout(Duration::from_secs(10)).unwrap();
    connection.execute_batch("BEGIN").unwrap();
    for i in 0..orders {
        connection
            .execute(
                "INSERT INTO orders VALUES (?1, 'C-1001', 'PAID', '2026-11-30', 1000, NULL)",
                [order_id(i)],
            )
            .unwrap();
    }
    connection.execute_batch("COMMIT").unwrap();
    for _ in 1..count {
        replicas.push(replica(&db, redis).await);
    }
    (dir, replicas)
}

fn order_id(i: usize) -> String {
    format!("ORD-2027-{i:05}")
}

/// The refunds written for `order`, or for every order.
fn refunds(dir: &tempdir::Dir, order: Option<&str>) -> i64 {
    let connection = rusqlite::Connection::open(dir.0.join("orders.sqlite3")).unwrap();
    connection.busy_timeout(Duration::from_secs(10)).unwrap();
    match order {
        Some(order) => connection.query_row(
            "SELECT count(*) FROM refunds WHERE order_id = ?1",
            [order],
            |row| row.get(0),
        ),
        None => connection.query_row("SELECT count(*) FROM refunds", [], |row| row.get(0)),
    }
    .unwrap()
}

/// The orders refunded more than once.
fn refunded_twice(dir: &tempdir::Dir) -> Vec<String> {
    let connection = rusqlite::Connection::open(dir.0.join("orders.sqlite3")).unwrap();
    let mut query = connection
        .prepare("SELECT order_id FROM refunds GROUP BY order_id HAVING count(*) > 1")
        .unwrap();
    query
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

mod tempdir {
    /// A directory of its own, removed when dropped.
    pub struct Dir(pub std::path::PathBuf);

    impl Dir {
        pub fn new() -> Dir {
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let path =
                std::env::temp_dir().join(format!("mcp-tool-replicas-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            Dir(path)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Where a request's connection is dropped.
#[derive(Debug, Clone, Copy)]
enum Cut {
    /// Half of the body sent.
    MidBody,
    /// The request sent whole, nothing read: the call is running.
    Sent,
    /// The response's head read.
    Head,
    /// Nothing dropped.
    Never,
}

/// Sends `request` and drops the connection at `at`; the JSON-RPC message of the
/// response when it is read whole.
async fn exchange(port: u16, request: &str, at: Cut) -> Option<Value> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    if let Cut::MidBody = at {
        let cut = request.len() - request.split_once("\r\n\r\n").unwrap().1.len() / 2;
        stream.write_all(&request.as_bytes()[..cut]).await.unwrap();
        return None;
    }
    stream.write_all(request.as_bytes()).await.unwrap();
    if let Cut::Sent = at {
        return None;
    }
    let (code, headers, mut reader) = read_head(BufReader::new(stream)).await;
    assert_eq!(code, 200, "{headers:?}");
    if let Cut::Head = at {
        return None;
    }
    if header(&headers, "content-type").is_some_and(|t| t.starts_with("application/json")) {
        let body = raw_http::read_body(&mut reader, &headers).await;
        return Some(serde_json::from_str(&body).unwrap());
    }
    loop {
        let mut line = String::new();
        let read = tokio::time::timeout(Duration::from_secs(30), reader.read_line(&mut line))
            .await
            .expect("an event in time")
            .unwrap();
        assert!(read > 0, "the stream ended");
        if let Some(data) = line.trim_end().strip_prefix("data:")
            && let Ok(message) = serde_json::from_str::<Value>(data.trim())
            && message.get("id").is_some()
        {
            return Some(message);
        }
    }
}

/// A stateless `tools/call` (protocol 2026-07-28), with the answers of a round.
fn call(port: u16, tool: &str, arguments: Value, round: Option<(&Value, &str)>) -> String {
    let mut params = json!({
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "replicas", "version": "1"},
        },
    });
    if let Some((responses, state)) = round {
        params["inputResponses"] = responses.clone();
        params["requestState"] = json!(state);
    }
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).to_string();
    let extra = format!(
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n\
         Mcp-Name: {tool}\r\nConnection: close\r\n"
    );
    post_text(&format!("127.0.0.1:{port}"), None, &extra, &body)
}

fn cancel(order: &str) -> Value {
    json!({"orderId": order, "reason": "ordered twice"})
}

/// The text of a result's first content.
fn text(message: &Value) -> &str {
    message["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("")
}

/// The confirmation asked for: the answer that says yes, and the state to send back.
fn confirmation(message: &Value) -> (Value, String) {
    let result = &message["result"];
    assert_eq!(result["resultType"], "input_required", "{message}");
    let key = result["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let yes = json!({ key: {"action": "accept", "content": {}} });
    (yes, result["requestState"].as_str().unwrap().to_owned())
}

/// Sends `request` to the replicas in turn, from `first`, until one answers other than
/// "running now" (a round a dropped request began may still run).
async fn answered(ports: &[u16], first: usize, request: impl Fn(u16) -> String) -> Value {
    for attempt in 0..500 {
        let port = ports[(first + attempt) % ports.len()];
        let message = exchange(port, &request(port), Cut::Never).await.unwrap();
        if !text(&message).contains("running now") {
            return message;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the round kept running");
}

fn assert_cancelled(message: &Value, order: &str) {
    let result = &message["result"];
    assert_eq!(result["isError"], false, "{message}");
    assert_eq!(result["structuredContent"]["orderId"], order, "{message}");
    assert_eq!(
        result["structuredContent"]["status"], "CANCELLED",
        "{message}"
    );
}

// ---------------------------------------------------------------------------------
// Replicas on one Redis.

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_confirmation_resent_to_another_replica_after_a_drop_gets_the_first_answer() {
    let Some(binary) = redis_server() else { return };
    let redis = Redis::start(binary).await;
    let (dir, replicas) = replicas(3, 1, Some(&redis.url())).await;
    let ports: Vec<u16> = replicas.iter().map(|r| r.port).collect();
    let order = order_id(0);

    // Asked on the first replica; confirmed on the second, whose connection drops
    // while the call runs; sent again to the third, then to the first.
    let asked = exchange(
        ports[0],
        &call(ports[0], "cancel_order", cancel(&order), None),
        Cut::Never,
    )
    .await
    .unwrap();
    let (yes, state) = confirmation(&asked);
    let confirmed = |port| call(port, "cancel_order", cancel(&order), Some((&yes, &state)));
    exchange(ports[1], &confirmed(ports[1]), Cut::Sent).await;
    let first = answered(&ports, 2, confirmed).await;
    assert_cancelled(&first, &order);
    for i in 0..ports.len() {
        let again = answered(&ports, i, confirmed).await;
        assert_eq!(again["result"], first["result"], "replica {i}");
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(refunds(&dir, Some(&order)), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_confirmations_at_64_clients_with_drops_refund_once_each() {
    let Some(binary) = redis_server() else { return };
    const ORDERS: usize = 1000;
    const CLIENTS: usize = 64;
    let redis = Redis::start(binary).await;
    let (dir, replicas) = replicas(3, ORDERS, Some(&redis.url())).await;
    let ports: Arc<Vec<u16>> = Arc::new(replicas.iter().map(|r| r.port).collect());
    let next = Arc::new(AtomicUsize::new(0));
    let mut clients = Vec::new();
    for client in 0..CLIENTS {
        let ports = Arc::clone(&ports);
        let next = Arc::clone(&next);
        clients.push(tokio::spawn(async move {
            let mut random = Random(0x9e37_79b9_7f4a_7c15 ^ ((client as u64 + 1) * 0x2545_f491));
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= ORDERS {
                    break;
                }
                let order = order_id(i);
                let asking = |port| call(port, "cancel_order", cancel(&order), None);
                let asked = answered(&ports, random.below(3), asking).await;
                let (yes, state) = confirmation(&asked);
                let confirmed =
                    |port| call(port, "cancel_order", cancel(&order), Some((&yes, &state)));
                // Each confirmation is sent to one replica, cut at a random point (or
                // not), then sent again to the others until answered.
                let cut = [Cut::MidBody, Cut::Sent, Cut::Head, Cut::Never][random.below(4)];
                let first = random.below(3);
                exchange(ports[first], &confirmed(ports[first]), cut).await;
                let done = answered(&ports, first + 1, confirmed).await;
                assert_cancelled(&done, &order);
            }
        }));
    }
    for client in clients {
        client.await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(refunded_twice(&dir), Vec::<String>::new());
    assert_eq!(refunds(&dir, None), ORDERS as i64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn with_redis_stopped_confirmations_are_not_run_and_other_tools_serve_then_resume() {
    let Some(binary) = redis_server() else { return };
    let mut redis = Redis::start(binary).await;
    let (dir, replicas) = replicas(2, 3, Some(&redis.url())).await;
    let ports: Vec<u16> = replicas.iter().map(|r| r.port).collect();

    // One confirmation before: it runs.
    let ask = |order: &str, port| {
        let order = order.to_owned();
        async move {
            let asked = exchange(
                port,
                &call(port, "cancel_order", cancel(&order), None),
                Cut::Never,
            )
            .await
            .unwrap();
            confirmation(&asked)
        }
    };
    let (yes, state) = ask(&order_id(0), ports[0]).await;
    let done = exchange(
        ports[1],
        &call(
            ports[1],
            "cancel_order",
            cancel(&order_id(0)),
            Some((&yes, &state)),
        ),
        Cut::Never,
    )
    .await
    .unwrap();
    assert_cancelled(&done, &order_id(0));

    // Redis stops: a confirmed round is refused, transient and retryable, saying it
    // was not run, on every replica and within the store's timeout; asking, and every
    // other tool, go on.
    redis.stop();
    let order = order_id(1);
    let (yes, state) = ask(&order, ports[0]).await;
    for port in ports.iter().chain(&ports) {
        let started = Instant::now();
        let refused = exchange(
            *port,
            &call(*port, "cancel_order", cancel(&order), Some((&yes, &state))),
            Cut::Never,
        )
        .await
        .unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        let result = &refused["result"];
        assert_eq!(result["isError"], true, "{refused}");
        assert_eq!(
            result["structuredContent"]["errorCategory"], "transient",
            "{refused}"
        );
        assert_eq!(
            result["structuredContent"]["isRetryable"], true,
            "{refused}"
        );
        assert!(text(&refused).contains("NOT run"), "{refused}");
    }
    for port in &ports {
        let found = exchange(
            *port,
            &call(*port, "find_orders", json!({"status": "PAID"}), None),
            Cut::Never,
        )
        .await
        .unwrap();
        assert_eq!(found["result"]["isError"], false, "{found}");
        let asked = exchange(
            *port,
            &call(*port, "cancel_order", cancel(&order_id(2)), None),
            Cut::Never,
        )
        .await
        .unwrap();
        confirmation(&asked);
    }
    assert_eq!(refunds(&dir, Some(&order)), 0);

    // Redis back: the same confirmation, sent again, runs, once.
    redis.restart().await;
    let confirmed = |port| call(port, "cancel_order", cancel(&order), Some((&yes, &state)));
    let mut resumed = None;
    for attempt in 0..100 {
        let port = ports[attempt % ports.len()];
        let message = exchange(port, &confirmed(port), Cut::Never).await.unwrap();
        if !text(&message).contains("NOT run") {
            resumed = Some(message);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let resumed = resumed.expect("the rounds resume once Redis is back");
    assert_cancelled(&resumed, &order);
    let again = answered(&ports, 1, confirmed).await;
    assert_eq!(again["result"], resumed["result"]);
    assert_eq!(refunds(&dir, Some(&order)), 1);
    assert_eq!(refunds(&dir, None), 2);
}

/// xorshift: the random cuts and replicas, the same each run.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

// ---------------------------------------------------------------------------------
// A store that cannot answer, in this process: no Redis needed.

/// Cancel an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Cancel order {order_id}?", destructive)]
struct CancelOrder {
    order_id: String,
}

#[derive(Default)]
struct Runs(AtomicUsize);

async fn cancel_here(runs: Arc<Runs>, args: CancelOrder) -> Result<String, ToolError> {
    runs.0.fetch_add(1, Ordering::SeqCst);
    Ok(format!("cancelled {}", args.order_id))
}

/// Find nothing.
#[derive(McpTool, Deserialize)]
struct FindOrders {}

async fn find_here(_: Arc<Runs>, _: FindOrders) -> Result<String, ToolError> {
    Ok("no orders".into())
}

/// A store that is down.
struct Down;

impl UsedStates for Down {
    fn claim<'a>(&'a self, _: &'a str, _: std::time::SystemTime) -> Stored<'a, Claim> {
        Box::pin(async { Claim::Unavailable("connection refused".into()) })
    }

    fn keep<'a>(&'a self, _: &'a str, _: String, _: std::time::SystemTime) -> Stored<'a, ()> {
        Box::pin(async {})
    }
}

async fn refused_when_unrecorded(store: impl UsedStates) {
    let runs = Arc::new(Runs::default());
    let tools = Toolbox::with_shared_state(Arc::clone(&runs))
        .state_key(StateKey::from_hex(STATE_KEY).unwrap())
        .used_states(store)
        .tool(cancel_here)
        .tool(find_here);
    let serving = raw_http::start(HttpServer::new(), tools).await;
    let port = serving.port;
    let arguments = json!({"order_id": "ORD-7"});
    let asked = exchange(
        port,
        &call(port, "cancel_order", arguments.clone(), None),
        Cut::Never,
    )
    .await
    .unwrap();
    let (yes, state) = confirmation(&asked);
    let started = Instant::now();
    let refused = exchange(
        port,
        &call(port, "cancel_order", arguments, Some((&yes, &state))),
        Cut::Never,
    )
    .await
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let result = &refused["result"];
    assert_eq!(result["isError"], true, "{refused}");
    assert_eq!(
        result["structuredContent"]["errorCategory"], "transient",
        "{refused}"
    );
    assert_eq!(
        result["structuredContent"]["isRetryable"], true,
        "{refused}"
    );
    assert!(text(&refused).contains("The call was NOT run"), "{refused}");
    assert_eq!(runs.0.load(Ordering::SeqCst), 0);
    let found = exchange(
        port,
        &call(port, "find_orders", json!({}), None),
        Cut::Never,
    )
    .await
    .unwrap();
    assert_eq!(found["result"]["isError"], false, "{found}");
    serving.stop().await;
}

#[tokio::test]
async fn a_store_that_is_down_runs_no_confirmed_round_and_other_tools_serve() {
    refused_when_unrecorded(Down).await;
}

#[tokio::test]
async fn a_redis_that_does_not_answer_is_given_up_on_within_its_timeout() {
    // Accepts connections and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((stream, _)) = silent.accept().await {
            open.push(stream);
        }
    });
    let store = RedisStates::new(&format!("redis://127.0.0.1:{port}/"))
        .unwrap()
        .timeout(Duration::from_millis(300));
    refused_when_unrecorded(store).await;
    held.abort();
}

#[tokio::test]
async fn a_redis_that_is_not_there_is_given_up_on_within_its_timeout() {
    let store = RedisStates::new(&format!("redis://127.0.0.1:{}/", free_port()))
        .unwrap()
        .timeout(Duration::from_millis(300));
    refused_when_unrecorded(store).await;
}
