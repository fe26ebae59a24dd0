//! Confirmed rounds across replicas: the `orders` example's `cancel_order`, asked on one
//! replica and confirmed on the next (three replicas on one SQLite file, the record of
//! confirmed rounds in a `redis-server` started here, the sealing key shared), beside
//! the same rounds in one process (its record in memory). Only the confirmed round is
//! timed: its claim, the cancellation written (a transaction and its refund row), its
//! answer kept. Each client has a kept-alive connection to every replica.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use serde_json::{Value, json};

use super::http1::connect;
use super::redis::{Process, Redis, free_port, redis_server, wait_for_port};
use super::{MEASURED, ROUNDS, Round, Tally, WARM_UP, example, median_round, summarize};

const STATE_KEY: &str = "5f3a9c0e7d2b4a6f8e1c3b5d7f9a0c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a";
/// Enough orders that no round runs out: more than any setting cancels in a round.
const ORDERS: usize = 40_000;

/// Prints the rows: one process, then three replicas on Redis, at 1 and 64 clients.
pub fn rows(runtime: &tokio::runtime::Runtime) {
    let Some(redis) = redis_server() else {
        println!("\n(confirmed rounds across replicas: skipped, redis-server is not on PATH)");
        return;
    };
    println!("\n| confirmed rounds | clients | calls/s | p50 µs | p99 µs |\n|---|---|---|---|---|");
    for clients in [1, 64] {
        for replicas in [1, 3] {
            let rounds: Vec<Round> = (0..ROUNDS)
                .map(|_| runtime.block_on(round(&redis, replicas, clients)))
                .collect();
            for r in &rounds {
                assert_eq!(r.failures, 0, "confirmed rounds failed");
            }
            let median = median_round(&rounds);
            let setting = if replicas == 1 {
                "one process, record in memory".to_owned()
            } else {
                format!("{replicas} replicas, record in Redis")
            };
            println!(
                "| {setting} | {clients} | {:.0} | {:.0} | {:.0} |",
                median.calls_per_second, median.p50_us, median.p99_us
            );
        }
    }
}

fn replica(db: &Path, redis: Option<&str>) -> (Process, u16) {
    let port = free_port();
    let mut command = Command::new(example("orders"));
    command
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(["--db", db.to_str().unwrap()])
        .args(["--state-key", STATE_KEY])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(url) = redis {
        command.args(["--redis", url]);
    }
    (
        Process(command.spawn().expect("the orders example starts")),
        port,
    )
}

/// One round of one setting: fresh processes (a Redis of `binary` for replicas), a
/// fresh database.
async fn round(binary: &Path, replicas: usize, clients: usize) -> Round {
    let dir = std::env::temp_dir().join(format!("mcp-tool-load-replicas-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("orders.sqlite3");
    let mut processes = Vec::new();
    let redis = if replicas > 1 {
        Some(Redis::start(binary.to_owned()).await)
    } else {
        None
    };
    let url = redis.as_ref().map(Redis::url);
    let url = url.as_deref();
    let mut ports = Vec::new();
    let (first, port) = replica(&db, url);
    processes.push(first);
    wait_for_port(port).await;
    ports.push(port);
    seed(&db);
    for _ in 1..replicas {
        let (process, port) = replica(&db, url);
        processes.push(process);
        wait_for_port(port).await;
        ports.push(port);
    }

    let ports = Arc::new(ports);
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let measure_from = started + WARM_UP;
    let until = measure_from + MEASURED;
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let ports = Arc::clone(&ports);
        let next = Arc::clone(&next);
        tasks.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut senders = Vec::new();
            for port in ports.iter() {
                senders.push((*port, connect(*port).await));
            }
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed) as usize;
                if n >= ORDERS || Instant::now() >= until {
                    return tally;
                }
                let order = format!("ORD-2027-{n:05}");
                let arguments = json!({"orderId": order, "reason": "ordered twice"});
                let (port, sender) = &mut senders[n % ports.len()];
                let asked = post(sender, *port, &arguments, None).await;
                let Some((yes, state)) = asked.as_ref().and_then(confirmation) else {
                    tally.failures += 1;
                    return tally;
                };
                // Confirmed on the next replica (the same one, in one process).
                let (port, sender) = &mut senders[(n + 1) % ports.len()];
                let sent = Instant::now();
                let done = post(sender, *port, &arguments, Some((&yes, &state))).await;
                let cancelled =
                    done.is_some_and(|m| m["result"]["structuredContent"]["status"] == "CANCELLED");
                if sent >= measure_from && sent < until {
                    if cancelled {
                        tally.latencies.push(sent.elapsed().as_micros() as u32);
                    } else {
                        tally.failures += 1;
                    }
                }
                if !cancelled {
                    return tally;
                }
            }
        }));
    }
    let mut tally = Tally::default();
    for task in tasks {
        let client = task.await.unwrap();
        tally.latencies.extend(client.latencies);
        tally.failures += client.failures;
    }
    drop(processes);
    drop(redis);
    let _ = std::fs::remove_dir_all(&dir);
    summarize(tally, MEASURED, 0)
}

/// The orders the rounds cancel, PAID and the customer's.
fn seed(db: &Path) {
    let connection = rusqlite::Connection::open(db).unwrap();
    connection.busy_timeout(Duration::from_secs(10)).unwrap();
    connection.execute_batch("BEGIN").unwrap();
    let mut insert = connection
        .prepare("INSERT INTO orders VALUES (?1, 'C-1001', 'PAID', '2026-11-30', 1000, NULL)")
        .unwrap();
    for n in 0..ORDERS {
        insert.execute([format!("ORD-2027-{n:05}")]).unwrap();
    }
    drop(insert);
    connection.execute_batch("COMMIT").unwrap();
}

/// A stateless `cancel_order` call (protocol 2026-07-28), with the answers of a round;
/// its JSON-RPC answer.
async fn post(
    sender: &mut SendRequest<Full<Bytes>>,
    port: u16,
    arguments: &Value,
    round: Option<(&Value, &str)>,
) -> Option<Value> {
    let mut params = json!({
        "name": "cancel_order",
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "load", "version": "1"},
        },
    });
    if let Some((responses, state)) = round {
        params["inputResponses"] = responses.clone();
        params["requestState"] = json!(state);
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let request = hyper::Request::post("/mcp")
        .header("host", format!("127.0.0.1:{port}"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "cancel_order")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let response = sender.send_request(request).await.ok()?;
    let body = response.into_body().collect().await.ok()?.to_bytes();
    let text = String::from_utf8_lossy(&body);
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l.strip_prefix("data: ").unwrap_or(l)).ok())
        .find(|m| m["id"] == 1)
}

/// The confirmation asked for: the answer that says yes, and the state to send back.
fn confirmation(message: &Value) -> Option<(Value, String)> {
    let result = &message["result"];
    let key = result["inputRequests"].as_object()?.keys().next()?.clone();
    let state = result["requestState"].as_str()?.to_owned();
    Some((json!({ key: {"action": "accept", "content": {}} }), state))
}
