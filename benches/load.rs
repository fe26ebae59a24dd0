//! The served call end to end, beside a plain rmcp server of the same tool: the
//! `book_flight` example (`examples/book_flight.rs`, this crate) and
//! `examples/plain_book_flight.rs` (rmcp's `#[tool_router]` with schemars, rmcp's
//! stdio transport and its Streamable HTTP service under axum, no checks), each run as
//! its own release process on loopback, driven by 1, 64 and 256 concurrent clients over
//! Streamable HTTP (stateless requests of protocol 2026-07-28, one kept-alive connection
//! a client) and over stdio (as many requests in flight on the one pipe).
//!
//! Two workloads, reported apart: valid calls only, and a mix of five kinds in turn
//! (valid; four semantic errors; type errors; an unknown tool; arguments that are not
//! an object). The plain server runs every invalid call serde can read, as rmcp does.
//!
//! The servers take turns: for each setting, three rounds of two seconds each, the
//! order swapped every round, a fresh server process each time; a row is the median
//! round. Calls per second, latency (p50, p99) and the server's peak resident memory
//! (`VmHWM`), with this crate's as a ratio to the plain server's.
//!
//! Then confirmed rounds across replicas beside the same rounds in one process
//! (`load/replicas.rs`; it needs `redis-server` on PATH), and the row of authorization's
//! cost: the `orders` example at 64 clients with JWT access tokens, beside itself
//! without.
//!
//! And the endpoint mounted in an axum application (`examples/axum_app.rs`) beside the
//! same endpoint under `HttpServer`.
//!
//! `cargo bench --bench load` (about 6 minutes; `-- http` or `-- stdio`, `-- valid` or
//! `-- mixed`, `-- replicas`, `-- auth`, `-- mounted` narrow it). Linux only (peak memory is read from
//! `/proc`).

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, Semaphore};

use redis::free_port;

#[path = "support/http1.rs"]
mod http1;
#[path = "../tests/support/redis.rs"]
mod redis;
#[path = "load/replicas.rs"]
mod replicas;

const CLIENTS: [usize; 3] = [1, 64, 256];
const ROUNDS: usize = 3;
const MEASURED: Duration = Duration::from_secs(2);
const WARM_UP: Duration = Duration::from_millis(300);

#[derive(Debug, Clone, Copy, PartialEq)]
enum Transport {
    Http,
    Stdio,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Workload {
    Valid,
    Mixed,
}

/// The two servers: this crate's example, and the plain rmcp one.
const SERVERS: [(&str, &str); 2] = [("mcp_tool", "book_flight"), ("plain", "plain_book_flight")];

/// What one round of one server measured.
#[derive(Debug, Clone, Default)]
struct Round {
    calls_per_second: f64,
    p50_us: f64,
    p99_us: f64,
    peak_rss_kb: u64,
    failures: u64,
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |words: &[&str]| filter.iter().all(|f| words.contains(&f.as_str()));
    build_examples();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    if filter.is_empty() || wanted(&["auth"]) {
        runtime.block_on(authorized_rows());
        if !filter.is_empty() {
            return;
        }
    }
    if filter.is_empty() || wanted(&["mounted"]) {
        runtime.block_on(mounted_rows());
        if !filter.is_empty() {
            return;
        }
    }
    println!(
        "| transport | workload | clients | mcp_tool calls/s | plain calls/s | calls/s ratio | p50 µs (ratio) | p99 µs (ratio) | peak RSS MB (ratio) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for transport in [Transport::Http, Transport::Stdio] {
        for workload in [Workload::Valid, Workload::Mixed] {
            let words = [
                if transport == Transport::Http {
                    "http"
                } else {
                    "stdio"
                },
                if workload == Workload::Valid {
                    "valid"
                } else {
                    "mixed"
                },
            ];
            if !wanted(&words) {
                continue;
            }
            for clients in CLIENTS {
                let mut rounds: [Vec<Round>; 2] = [Vec::new(), Vec::new()];
                for round in 0..ROUNDS {
                    let order: [usize; 2] = if round % 2 == 0 { [0, 1] } else { [1, 0] };
                    for i in order {
                        let measured =
                            runtime.block_on(run(SERVERS[i].1, transport, workload, clients));
                        assert_eq!(measured.failures, 0, "{} failed calls", SERVERS[i].0);
                        rounds[i].push(measured);
                    }
                }
                let [ours, plain] = rounds.map(|r| median_round(&r));
                print_row(words[0], words[1], clients, &ours, &plain);
            }
        }
    }
    if wanted(&["replicas"]) {
        replicas::rows(&runtime);
    }
}

/// A row of a table: `ours` beside `plain`, each ratio ours over plain.
fn print_row(transport: &str, workload: &str, clients: usize, ours: &Round, plain: &Round) {
    println!(
        "| {transport} | {workload} | {clients} | {:.0} | {:.0} | {:.2}x | {:.0} ({:.2}x) | {:.0} ({:.2}x) | {:.1} ({:.2}x) |",
        ours.calls_per_second,
        plain.calls_per_second,
        ours.calls_per_second / plain.calls_per_second,
        ours.p50_us,
        ours.p50_us / plain.p50_us,
        ours.p99_us,
        ours.p99_us / plain.p99_us,
        ours.peak_rss_kb as f64 / 1024.0,
        ours.peak_rss_kb as f64 / plain.peak_rss_kb as f64,
    );
}

/// The round of median throughput, with its own latencies and memory.
fn median_round(rounds: &[Round]) -> Round {
    let mut sorted = rounds.to_vec();
    sorted.sort_by(|a, b| a.calls_per_second.total_cmp(&b.calls_per_second));
    sorted[sorted.len() / 2].clone()
}

fn build_examples() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--example",
            "book_flight",
            "--example",
            "plain_book_flight",
            "--example",
            "orders",
            "--example",
            "axum_app",
        ])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the examples build");
}

fn example(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/release/examples")
        .join(name)
}

/// The arguments of each call of a workload, in turn: (tool, arguments).
fn calls(workload: Workload) -> Vec<(&'static str, Value)> {
    let valid = json!({
        "origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
        "cabin": "business", "passengers": 2, "email": "ada@example.com"
    });
    match workload {
        Workload::Valid => vec![("book_flight", valid)],
        Workload::Mixed => vec![
            ("book_flight", valid.clone()),
            (
                "book_flight",
                json!({
                    "origin": "Paris", "destination": "JFK", "departure_date": "12/12/2024",
                    "cabin": "PROCESSING", "passengers": 12, "email": "ada@example.com"
                }),
            ),
            (
                "book_flight",
                json!({"origin": "CDG", "departure_date": "15/01/2099", "cabin": "business", "passengers": "two"}),
            ),
            ("book_flights", valid),
            ("book_flight", json!([1])),
        ],
    }
}

fn request(id: u64, tool: &str, arguments: &Value, meta: bool) -> Value {
    let mut params = json!({"name": tool, "arguments": arguments});
    if meta {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "load", "version": "1"},
        });
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// Runs one server for one round.
async fn run(
    example_name: &str,
    transport: Transport,
    workload: Workload,
    clients: usize,
) -> Round {
    match transport {
        Transport::Http => http_round(example_name, workload, clients).await,
        Transport::Stdio => stdio_round(example_name, workload, clients).await,
    }
}

/// The latencies of the measured calls (µs), and the calls that got no answer.
#[derive(Default)]
struct Tally {
    latencies: Vec<u32>,
    failures: u64,
}

fn summarize(tally: Tally, elapsed: Duration, peak_rss_kb: u64) -> Round {
    let mut latencies = tally.latencies;
    latencies.sort_unstable();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or(0) as f64
    };
    Round {
        calls_per_second: latencies.len() as f64 / elapsed.as_secs_f64(),
        p50_us: at(0.5),
        p99_us: at(0.99),
        peak_rss_kb,
        failures: tally.failures,
    }
}

/// The peak resident memory so far of the process `pid`, in kB.
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

async fn http_round(example_name: &str, workload: Workload, clients: usize) -> Round {
    http_round_of(example_name, Served::default(), calls(workload), clients).await
}

/// What a round serves beyond `--http ADDR`: the example's other flags (`{port}` in
/// one is the server's port), and the bearer token each request carries.
#[derive(Default, Clone)]
struct Served {
    flags: Vec<String>,
    bearer: Option<String>,
}

async fn http_round_of(
    example_name: &str,
    served: Served,
    calls: Vec<(&'static str, Value)>,
    clients: usize,
) -> Round {
    http_round_on(free_port(), example_name, served, calls, clients).await
}

async fn http_round_on(
    port: u16,
    example_name: &str,
    served: Served,
    calls: Vec<(&'static str, Value)>,
    clients: usize,
) -> Round {
    let flags = served
        .flags
        .iter()
        .map(|f| f.replace("{port}", &port.to_string()));
    let mut child = Command::new(example(example_name))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(flags)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the example starts");
    redis::wait_for_port(port).await;
    let calls = Arc::new(calls);
    let bearer = served.bearer.map(|t| format!("Bearer {t}"));
    let started = Instant::now();
    let measure_from = started + WARM_UP;
    let until = measure_from + MEASURED;
    let next = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let calls = Arc::clone(&calls);
        let next = Arc::clone(&next);
        let bearer = bearer.clone();
        tasks.push(tokio::spawn(async move {
            let mut tally = Tally::default();
            let mut sender = http1::connect(port).await;
            loop {
                let sent = Instant::now();
                if sent >= until {
                    return tally;
                }
                let n = next.fetch_add(1, Ordering::Relaxed);
                let (tool, arguments) = &calls[n as usize % calls.len()];
                let body = request(n, tool, arguments, true).to_string();
                let mut http = hyper::Request::post("/mcp");
                if let Some(bearer) = &bearer {
                    http = http.header("authorization", bearer);
                }
                let http = http
                    .header("host", format!("127.0.0.1:{port}"))
                    .header("content-type", "application/json")
                    .header("accept", "application/json, text/event-stream")
                    .header("mcp-protocol-version", "2026-07-28")
                    .header("mcp-method", "tools/call")
                    .header("mcp-name", *tool)
                    .body(Full::new(Bytes::from(body)))
                    .unwrap();
                let answered = match sender.send_request(http).await {
                    Ok(response) => match response.into_body().collect().await {
                        Ok(body) => answers(&body.to_bytes(), n),
                        Err(_) => false,
                    },
                    Err(_) => false,
                };
                if sent >= measure_from {
                    if answered {
                        tally.latencies.push(sent.elapsed().as_micros() as u32);
                    } else {
                        tally.failures += 1;
                    }
                }
                if !answered {
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
    let peak = peak_rss(child.id());
    let _ = child.kill();
    let _ = child.wait();
    summarize(tally, MEASURED, peak)
}

/// Whether `body` (a JSON body, or an event stream) holds the answer to request `id`.
fn answers(body: &[u8], id: u64) -> bool {
    let text = String::from_utf8_lossy(body);
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l.strip_prefix("data: ").unwrap_or(l)).ok())
        .any(|m| m["id"] == id && (m.get("result").is_some() || m.get("error").is_some()))
}

async fn stdio_round(example_name: &str, workload: Workload, clients: usize) -> Round {
    let mut child = tokio::process::Command::new(example(example_name))
        .arg("--stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the example starts");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap()).lines();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "load", "version": "1"}}});
    input
        .write_all(format!("{initialize}\n").as_bytes())
        .await
        .unwrap();
    output.next_line().await.unwrap().expect("initialized");
    input
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .unwrap();
    let calls = calls(workload);
    let window = Arc::new(Semaphore::new(clients));
    let sent_at: Arc<Mutex<HashMap<u64, Instant>>> = Arc::new(Mutex::new(HashMap::new()));
    let started = Instant::now();
    let measure_from = started + WARM_UP;
    let until = measure_from + MEASURED;
    let reading = {
        let window = Arc::clone(&window);
        let sent_at = Arc::clone(&sent_at);
        tokio::spawn(async move {
            let mut tally = Tally::default();
            while let Ok(Some(line)) = output.next_line().await {
                let Ok(message) = serde_json::from_str::<Value>(&line) else {
                    tally.failures += 1;
                    continue;
                };
                let Some(id) = message["id"].as_u64() else {
                    continue;
                };
                if let Some(sent) = sent_at.lock().await.remove(&id) {
                    if sent >= measure_from && sent < until {
                        tally.latencies.push(sent.elapsed().as_micros() as u32);
                    }
                    window.add_permits(1);
                }
            }
            tally
        })
    };
    let mut n = 1u64;
    while Instant::now() < until {
        window.acquire().await.unwrap().forget();
        let (tool, arguments) = &calls[n as usize % calls.len()];
        let line = format!("{}\n", request(n, tool, arguments, false));
        sent_at.lock().await.insert(n, Instant::now());
        input.write_all(line.as_bytes()).await.unwrap();
        n += 1;
    }
    // Every call in flight is answered before the input closes.
    let _ = window.acquire_many(clients as u32).await.unwrap();
    let peak = child.id().map_or(0, peak_rss);
    drop(input);
    let _ = child.wait().await;
    let tally = reading.await.unwrap();
    summarize(tally, MEASURED, peak)
}

/// An Ed25519 key of the bench's issuer (PKCS#8 DER), and its public half (JWK `x`):
/// the same test key as `tests/auth.rs`.
const ISSUER_KEY: &[u8] = &[
    48, 46, 2, 1, 0, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32, 16, 81, 211, 176, 80, 201, 124, 7,
    230, 231, 34, 108, 197, 55, 10, 84, 108, 127, 171, 153, 232, 75, 7, 60, 242, 243, 90, 31, 216,
    188, 252, 228,
];
const ISSUER_X: &str = "YnoN4y_H6nAviTlnJKWxArxrSFjYMJD_b5gawS77WmI";

/// The cost of authorization (`-- auth`): the orders example's `find_orders` at 64
/// clients over HTTP, with every request carrying a JWT access token (verified once,
/// then found in the cache of verified tokens) and its scope checked, beside the same
/// server without `--issuer`.
async fn authorized_rows() {
    use axum::routing::get;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let metadata = json!({"issuer": issuer, "jwks_uri": format!("{issuer}/jwks")}).to_string();
    let jwks = json!({"keys": [{"kty": "OKP", "crv": "Ed25519", "x": ISSUER_X, "kid": "k1", "alg": "EdDSA"}]})
        .to_string();
    let app = axum::Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || std::future::ready(metadata.clone())),
        )
        .route("/jwks", get(move || std::future::ready(jwks.clone())));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    println!(
        "| transport | workload | clients | with auth calls/s | without calls/s | calls/s ratio | p50 µs (ratio) | p99 µs (ratio) | peak RSS MB (ratio) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let clients = 64;
    let calls = vec![("find_orders", json!({}))];
    let mut rounds: [Vec<Round>; 2] = [Vec::new(), Vec::new()];
    for round in 0..ROUNDS {
        let order: [usize; 2] = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for i in order {
            let served = if i == 0 {
                // The resource names the port the round's server gets: its audience.
                let resource = "http://127.0.0.1:{port}/mcp".to_owned();
                Served {
                    flags: vec![
                        "--db".into(),
                        ":memory:".into(),
                        "--issuer".into(),
                        issuer.clone(),
                        "--resource".into(),
                        resource,
                    ],
                    bearer: None,
                }
            } else {
                Served {
                    flags: vec!["--db".into(), ":memory:".into()],
                    bearer: None,
                }
            };
            let measured = http_round_authorized(served, &issuer, calls.clone(), clients).await;
            assert_eq!(measured.failures, 0, "failed calls");
            rounds[i].push(measured);
        }
    }
    let [ours, plain] = rounds.map(|r| median_round(&r));
    print_row("http", "find_orders, orders:read", clients, &ours, &plain);
}

/// The endpoint mounted in an application (`-- mounted`): the `axum_app` example (the
/// orders desk's `mcp_tool::http::Endpoint` under an axum `Router`, served by axum)
/// beside `orders --http` (the same endpoint under `HttpServer`'s own connection loop),
/// `find_orders` at 1, 64 and 256 clients.
async fn mounted_rows() {
    println!(
        "| transport | workload | clients | axum_app calls/s | HttpServer calls/s | calls/s ratio | p50 µs (ratio) | p99 µs (ratio) | peak RSS MB (ratio) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let calls = vec![("find_orders", json!({}))];
    for clients in CLIENTS {
        let mut rounds: [Vec<Round>; 2] = [Vec::new(), Vec::new()];
        for round in 0..ROUNDS {
            let order: [usize; 2] = if round % 2 == 0 { [0, 1] } else { [1, 0] };
            for i in order {
                let served = Served {
                    flags: vec!["--db".into(), ":memory:".into()],
                    bearer: None,
                };
                let example = ["axum_app", "orders"][i];
                let measured =
                    http_round_on(free_port(), example, served, calls.clone(), clients).await;
                assert_eq!(measured.failures, 0, "{example}: failed calls");
                rounds[i].push(measured);
            }
        }
        let [mounted, server] = rounds.map(|r| median_round(&r));
        print_row("http", "find_orders, mounted", clients, &mounted, &server);
    }
}

/// A round of `served`, with a token for its port when it has `--issuer`.
async fn http_round_authorized(
    mut served: Served,
    issuer: &str,
    calls: Vec<(&'static str, Value)>,
    clients: usize,
) -> Round {
    let port = free_port();
    if served.flags.iter().any(|f| f == "--issuer") {
        let resource = format!("http://127.0.0.1:{port}/mcp");
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let claims = json!({"iss": issuer, "aud": resource, "sub": "C-1001", "scope": "orders:read",
            "iat": now, "exp": now + 600});
        let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::EdDSA);
        header.kid = Some("k1".into());
        let key = jsonwebtoken::EncodingKey::from_ed_der(ISSUER_KEY);
        served.bearer = Some(jsonwebtoken::encode(&header, &claims, &key).unwrap());
    }
    served.flags = served
        .flags
        .iter()
        .map(|f| f.replace("{port}", &port.to_string()))
        .collect();
    http_round_on(port, "orders", served, calls, clients).await
}
