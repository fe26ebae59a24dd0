//! MCP over stdio as `mcp_tool::stdio` serves it: every line gets an answer (a line
//! that is not JSON, JSON that is no message, a line too long, an id still in use),
//! every request read is answered before serving ends at the end of the input, and
//! reading pauses while too many answers are pending; a handler's progress goes out as
//! notifications before its answer, and a request the client cancels is not answered,
//! its handler told.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool::rmcp::Parameters;
use mcp_tool::stdio::Stdio;
use mcp_tool::{Cancelled, McpTool, Progress, ToolError, Toolbox};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::{tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::Semaphore;

/// Say hello.
#[derive(McpTool, Deserialize, Debug)]
struct Hello {
    name: String,
}

/// Wait until the test lets the call end.
#[derive(McpTool, Deserialize, Debug)]
struct Hold {}

struct Latch {
    open: Semaphore,
    started: AtomicUsize,
}

async fn hello(_: Arc<Latch>, args: Hello) -> Result<String, ToolError> {
    Ok(format!("Hello, {}!", args.name))
}

async fn hold(latch: Arc<Latch>, _: Hold) -> Result<String, ToolError> {
    latch.started.fetch_add(1, Ordering::SeqCst);
    let _pass = latch
        .open
        .acquire()
        .await
        .map_err(|_| ToolError::transient("closed"))?;
    Ok("released".into())
}

/// Count to three, saying each number.
#[derive(McpTool, Deserialize, Debug)]
struct Count {}

async fn count(_: Arc<Latch>, progress: Progress, _: Count) -> Result<String, ToolError> {
    for n in 1..=3 {
        progress
            .report(f64::from(n), Some(3.0), n.to_string())
            .await;
    }
    Ok("counted".into())
}

/// Wait until the client gives up.
#[derive(McpTool, Deserialize, Debug)]
struct Wait {}

async fn wait(latch: Arc<Latch>, cancelled: Cancelled, _: Wait) -> Result<String, ToolError> {
    latch.started.fetch_add(1, Ordering::SeqCst);
    cancelled.await;
    latch.started.fetch_add(1, Ordering::SeqCst);
    Ok("given up".into())
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A server on an in-memory pipe: the client's writing end, its reading end (lines),
/// and the server's task, which ends when serving does.
struct Served {
    input: DuplexStream,
    output: tokio::io::Lines<BufReader<DuplexStream>>,
    serving: tokio::task::JoinHandle<std::io::Result<()>>,
    latch: Arc<Latch>,
}

/// A latch that holds every `hold` until the test opens it.
fn closed_latch() -> Arc<Latch> {
    Arc::new(Latch {
        open: Semaphore::new(0),
        started: AtomicUsize::new(0),
    })
}

/// A toolbox of `hello` and `hold`, served.
async fn serve(
    transport: impl FnOnce(DuplexStream, DuplexStream) -> Stdio<DuplexStream, DuplexStream>,
) -> Served {
    let latch = closed_latch();
    let tools = Toolbox::with_shared_state(Arc::clone(&latch))
        .tool(hello)
        .tool(hold)
        .tool(count)
        .tool(wait);
    start(transport, tools, latch).await
}

/// `handler` served, initialized.
async fn start(
    transport: impl FnOnce(DuplexStream, DuplexStream) -> Stdio<DuplexStream, DuplexStream>,
    handler: impl rmcp::ServerHandler,
    latch: Arc<Latch>,
) -> Served {
    let (input, server_in) = tokio::io::duplex(64 * 1024);
    let (server_out, output) = tokio::io::duplex(64 * 1024);
    let stdio = transport(server_in, server_out);
    let serving = tokio::spawn(stdio.serve(handler));
    let mut served = Served {
        input,
        output: BufReader::new(output).lines(),
        serving,
        latch,
    };
    served.send(INITIALIZE).await;
    let initialized = served.answer().await;
    assert_eq!(initialized["id"], 0, "{initialized}");
    served.send(INITIALIZED).await;
    served
}

impl Served {
    async fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes()).await;
    }

    async fn send_bytes(&mut self, line: &[u8]) {
        self.input.write_all(line).await.unwrap();
        self.input.write_all(b"\n").await.unwrap();
    }

    async fn answer(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.output.next_line())
            .await
            .expect("an answer in time")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    }
}

fn call(id: u64, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
    .to_string()
}

#[tokio::test]
async fn every_line_is_answered_even_one_that_is_no_request() {
    let mut served = serve(|i, o| Stdio::new(i, o).max_line(32 * 1024)).await;
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let too_long = format!(
        r#"{{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{{"name":"hello","arguments":{{"name":"{}"}}}}}}"#,
        "x".repeat(40_000)
    );
    let cases: Vec<(&str, Vec<u8>, i64, Value)> = vec![
        (
            "invalid UTF-8",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}".to_vec(),
            -32700,
            Value::Null,
        ),
        (
            "a lone surrogate",
            br#"{"jsonrpc":"2.0","id":2,"method":"\ud800"}"#.to_vec(),
            -32700,
            Value::Null,
        ),
        ("nested 10 000 deep", deep.into_bytes(), -32700, Value::Null),
        ("not JSON", b"hello?".to_vec(), -32700, Value::Null),
        (
            "no method",
            br#"{"jsonrpc":"2.0","id":3}"#.to_vec(),
            -32600,
            json!(3),
        ),
        ("too long", too_long.into_bytes(), -32600, json!("long")),
    ];
    for (what, line, code, id) in cases {
        served.send_bytes(&line).await;
        let answer = served.answer().await;
        assert_eq!(answer["error"]["code"], code, "{what}: {answer}");
        assert_eq!(answer["id"], id, "{what}: {answer}");
    }
    // Blank lines are no messages, and get nothing; the server goes on.
    served.send("").await;
    served.send(&call(9, "hello", json!({"name": "Ada"}))).await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], 9, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "Hello, Ada!");
}

#[tokio::test]
async fn an_id_still_in_use_is_refused_and_the_first_request_answered() {
    let mut served = serve(Stdio::new).await;
    served.send(&call(5, "hold", json!({}))).await;
    served.send(&call(5, "hello", json!({"name": "Bo"}))).await;
    let refused = served.answer().await;
    assert_eq!(refused["id"], 5);
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    served.latch.open.add_permits(1);
    let answer = served.answer().await;
    assert_eq!(answer["id"], 5);
    assert_eq!(answer["result"]["content"][0]["text"], "released");
}

#[tokio::test]
async fn at_the_end_of_the_input_every_request_read_is_answered() {
    let served = serve(Stdio::new).await;
    let calls = 2000;
    let held = 10;
    let mut sent = String::new();
    for id in 1..=calls {
        sent.push_str(&call(id, "hello", json!({"name": format!("n{id}")})));
        sent.push('\n');
    }
    for id in calls + 1..=calls + held {
        sent.push_str(&call(id, "hold", json!({})));
        sent.push('\n');
    }
    let Served {
        mut input,
        mut output,
        serving,
        latch,
    } = served;
    // Written and closed while the answers are read (the pipe holds 64 KiB each
    // way); the last calls are still running when the input has ended.
    let writing = tokio::spawn(async move {
        input.write_all(sent.as_bytes()).await.unwrap();
        input.shutdown().await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        latch.open.add_permits(held as usize);
    });
    let mut answered = std::collections::BTreeSet::new();
    while let Some(line) = output.next_line().await.unwrap() {
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        answered.insert(answer["id"].as_u64().unwrap());
    }
    writing.await.unwrap();
    serving.await.unwrap().unwrap();
    assert_eq!(
        answered.len() as u64,
        calls + held,
        "every request answered"
    );
}

#[tokio::test]
async fn reading_pauses_while_too_many_answers_are_pending() {
    let mut served = serve(|i, o| Stdio::new(i, o).max_pending(4)).await;
    for id in 1..=50 {
        served.send(&call(id, "hold", json!({}))).await;
    }
    // Four calls are under way, and no more is read while they wait.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(served.latch.started.load(Ordering::SeqCst), 4);
    served.latch.open.add_permits(50);
    let mut answered = 0;
    while answered < 50 {
        let answer = served.answer().await;
        assert_eq!(
            answer["result"]["content"][0]["text"], "released",
            "{answer}"
        );
        answered += 1;
    }
    assert_eq!(served.latch.started.load(Ordering::SeqCst), 50);
}

#[tokio::test]
async fn a_ten_megabyte_name_gets_a_small_answer() {
    let served = serve(Stdio::new).await;
    let name = "k".repeat(10_000_000);
    let line = call(7, "hello", json!({ "name": "Ada", name.as_str(): 1 }));
    // Written while the answer is read: the pipe holds 64 KiB.
    let Served {
        mut input,
        mut output,
        ..
    } = served;
    let writing = tokio::spawn(async move {
        input.write_all(line.as_bytes()).await.unwrap();
        input.write_all(b"\n").await.unwrap();
    });
    let answer = output.next_line().await.unwrap().unwrap();
    assert!(answer.len() < 4_000, "{} bytes", answer.len());
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["id"], 7);
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    writing.await.unwrap();
}

/// rmcp's own router, with a method that panics.
#[derive(Clone)]
struct Fragile {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Fragile {
    /// A method with a bug: it panics, with internals in the message.
    #[tool(description = "Forget someone.")]
    async fn forget(&self, Parameters(args): Parameters<Hello>) -> Result<String, ToolError> {
        panic!("index out of range (password=hunter2): {}", args.name)
    }

    #[tool(description = "Say hello.")]
    async fn greet(&self, Parameters(args): Parameters<Hello>) -> Result<String, ToolError> {
        Ok(format!("Hello, {}!", args.name))
    }
}

#[tool_handler(router = self.tool_router)]
impl rmcp::ServerHandler for Fragile {}

/// A tool method of rmcp's own router that panics: rmcp lets the request's task die,
/// unanswered, so the client would wait forever, and serving would never end, since it
/// answers every request read before it does.
#[tokio::test]
async fn a_request_whose_handler_panics_is_answered() {
    let fragile = Fragile {
        tool_router: Fragile::tool_router(),
    };
    let mut served = start(Stdio::new, fragile, closed_latch()).await;
    served
        .send(&call(1, "forget", json!({"name": "Ada"})))
        .await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], 1, "{answer}");
    let result = &answer["result"];
    assert_eq!(result["isError"], true, "{answer}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("forget failed with an internal error"),
        "{text}"
    );
    assert!(!text.contains("hunter2"), "{text}");
    // Its annotations do not say a repeat is harmless: it may have done something.
    assert!(text.contains("check whether it did"), "{text}");
    assert_eq!(
        result["structuredContent"]["isRetryable"], false,
        "{answer}"
    );
    assert_eq!(
        result["structuredContent"]["attempted_query"]["tool"],
        "forget"
    );
    // The server goes on; the answer has the shape of any other, under either
    // protocol (2026-07-28's results say their `resultType`, older ones do not).
    served.send(&call(2, "greet", json!({"name": "Ada"}))).await;
    let answer = served.answer().await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(answer["result"].get("resultType"), result.get("resultType"));
    let [failed, greeted] = [(3, "forget"), (4, "greet")].map(|(id, tool)| {
        let mut call: Value =
            serde_json::from_str(&call(id, tool, json!({"name": "Ada"}))).unwrap();
        call["params"]["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        });
        call.to_string()
    });
    served.send(&failed).await;
    let failed = served.answer().await;
    assert_eq!(failed["result"]["isError"], true, "{failed}");
    served.send(&greeted).await;
    let greeted = served.answer().await;
    assert_eq!(greeted["result"]["isError"], false, "{greeted}");
    assert_eq!(greeted["result"]["resultType"], "complete", "{greeted}");
    assert_eq!(failed["result"]["resultType"], "complete", "{failed}");
    // And it ends at the end of its input.
    let Served { input, serving, .. } = served;
    drop(input);
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("serving ends at the end of the input")
        .unwrap()
        .unwrap();
}

/// A handler of the author's whose listing panics.
struct BrokenListing;

impl rmcp::ServerHandler for BrokenListing {
    async fn list_tools(
        &self,
        _: Option<rmcp::model::PaginatedRequestParams>,
        _: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        panic!("the tool table is gone")
    }
}

/// A request other than a tool call whose handler panics gets JSON-RPC's internal
/// error, and the server goes on.
#[tokio::test]
async fn another_request_whose_handler_panics_gets_an_internal_error() {
    let mut served = start(Stdio::new, BrokenListing, closed_latch()).await;
    served
        .send(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#)
        .await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert!(!answer.to_string().contains("gone"), "{answer}");
    served
        .send(r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)
        .await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], 8, "{answer}");
    assert!(answer.get("result").is_some(), "{answer}");
}

/// A line whose JSON serde_json will not read, but whose envelope reads, is answered at
/// its `id`: a tool call with a tool execution error at each argument that could not
/// be read (the others are fine), another request with invalid params. Before, each got
/// a parse error with `id` null, and the client waited for its id forever.
#[tokio::test]
async fn a_request_with_unreadable_values_is_answered_at_its_id() {
    let mut served = serve(Stdio::new).await;
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let raw_call = |id: u32, name: &[u8]| {
        let mut line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"hello","arguments":{{"name":"#
        )
        .into_bytes();
        line.extend_from_slice(name);
        line.extend_from_slice(br#","note":"fine"}}}"#);
        line
    };
    let cases: Vec<(&str, u32, &[u8], &str)> = vec![
        ("a lone surrogate", 11, br#""\ud800""#, "surrogate"),
        ("a number past a double", 12, b"1e400", "double"),
        ("invalid UTF-8", 13, b"\"caf\xe9\"", "UTF-8"),
        ("nested past the limit", 14, deep.as_bytes(), "128 levels"),
    ];
    for (what, id, name, said) in cases {
        served.send_bytes(&raw_call(id, name)).await;
        let answer = served.answer().await;
        assert_eq!(answer["id"], id, "{what}: {answer}");
        let result = &answer["result"];
        assert_eq!(result["isError"], true, "{what}: {answer}");
        let content = &result["structuredContent"];
        assert_eq!(content["errorCategory"], "validation", "{what}: {answer}");
        assert_eq!(
            content["violations"].as_array().unwrap().len(),
            1,
            "{what}: {answer}"
        );
        let violation = &content["violations"][0];
        assert_eq!(violation["path"], "/name", "{what}: {answer}");
        let message = violation["message"].as_str().unwrap();
        assert!(message.contains(said), "{what}: {message}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("hello was not run: 1 problem"),
            "{what}: {text}"
        );
    }
    // Another request: invalid params, at its id.
    served
        .send(r#"{"jsonrpc":"2.0","id":"p","method":"ping","params":{"x":1e400}}"#)
        .await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], "p", "{answer}");
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // A call whose arguments read, the fault elsewhere: invalid params too.
    served
        .send(r#"{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"hello","arguments":{"name":"Ada"},"_meta":{"n":1e400}}}"#)
        .await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], 15, "{answer}");
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // Not JSON in its syntax: no id can be trusted, as JSON-RPC says.
    served
        .send(r#"{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"hello","arguments":{"name":}}}"#)
        .await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    // The server goes on.
    served
        .send(&call(17, "hello", json!({"name": "Ada"})))
        .await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], 17, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "Hello, Ada!");
}

/// Delete a file, once the user says yes.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(confirm = "Delete {path}?", destructive)]
struct Delete {
    path: String,
}

async fn delete(_: Arc<Latch>, args: Delete) -> Result<String, ToolError> {
    Ok(format!("deleted {}", args.path))
}

/// A 2025-11-25 client that can answer questions (elicitation within a call).
const INITIALIZE_ASKABLE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// The input ends while a call waits for the user's answer, which can no longer come:
/// the call is abandoned (nothing is written for it) and serving ends at once, once
/// the calls that do not wait are answered. Before, serving never ended.
#[tokio::test]
async fn a_call_waiting_for_the_user_is_abandoned_at_the_end_of_the_input() {
    let latch = closed_latch();
    let tools = Toolbox::with_shared_state(Arc::clone(&latch))
        .tool(hold)
        .tool(delete);
    let (mut input, server_in) = tokio::io::duplex(64 * 1024);
    let (server_out, output) = tokio::io::duplex(64 * 1024);
    let serving = tokio::spawn(Stdio::new(server_in, server_out).serve(tools));
    let mut output = BufReader::new(output).lines();
    let mut next = async || -> Option<Value> {
        let line = tokio::time::timeout(Duration::from_secs(10), output.next_line())
            .await
            .expect("a line or the end in time")
            .unwrap()?;
        Some(serde_json::from_str(&line).unwrap())
    };
    for line in [INITIALIZE_ASKABLE, INITIALIZED] {
        input.write_all(line.as_bytes()).await.unwrap();
        input.write_all(b"\n").await.unwrap();
        if line == INITIALIZE_ASKABLE {
            assert_eq!(next().await.unwrap()["id"], 0);
        }
    }
    let calls = format!(
        "{}\n{}\n",
        call(1, "delete", json!({"path": "/tmp/a"})),
        call(2, "hold", json!({}))
    );
    input.write_all(calls.as_bytes()).await.unwrap();
    let question = next().await.unwrap();
    assert_eq!(question["method"], "elicitation/create", "{question}");
    // The client goes away without answering; `hold` is still running.
    input.shutdown().await.unwrap();
    drop(input);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !serving.is_finished(),
        "a call still running is answered first"
    );
    latch.open.add_permits(1);
    let answer = next().await.unwrap();
    assert_eq!(answer["id"], 2, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "released");
    let started = std::time::Instant::now();
    // Nothing more is written: the waiting call is abandoned, not answered.
    assert_eq!(next().await, None);
    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("serving ends")
        .unwrap()
        .unwrap();
    // rmcp waits 5 s for a handler still running at the end of the input: the
    // abandoned call returned at once instead.
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_handlers_progress_goes_out_before_its_answer() {
    let mut served = serve(Stdio::new).await;
    let request = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "count", "arguments": {}, "_meta": {"progressToken": "count-3"},
    }});
    served.send(&request.to_string()).await;
    for n in 1..=3 {
        let said = served.answer().await;
        assert_eq!(
            said,
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": "count-3", "progress": f64::from(n), "total": 3.0,
                "message": n.to_string(),
            }})
        );
    }
    let answer = served.answer().await;
    assert_eq!(answer["id"], 3);
    assert_eq!(answer["result"]["content"][0]["text"], "counted");
}

#[tokio::test]
async fn a_cancelled_request_is_not_answered_and_its_handler_hears_it() {
    let mut served = serve(Stdio::new).await;
    served.send(&call(4, "wait", json!({}))).await;
    for _ in 0..200 {
        if served.latch.started.load(Ordering::SeqCst) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 4, "reason": "the user gave up"}});
    served.send(&cancel.to_string()).await;
    for _ in 0..200 {
        if served.latch.started.load(Ordering::SeqCst) == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        served.latch.started.load(Ordering::SeqCst),
        2,
        "the handler heard it"
    );
    // The next line is the next request's answer: none came for the cancelled one.
    served.send(&call(5, "hello", json!({"name": "Bo"}))).await;
    let answer = served.answer().await;
    assert_eq!(answer["id"], 5, "{answer}");
    // Nothing is left pending: the end of the input ends serving.
    drop(served.input);
    let ended = tokio::time::timeout(Duration::from_secs(10), served.serving).await;
    ended.expect("serving ends").unwrap().unwrap();
}
