//! Streamable HTTP as `mcp_tool::http` serves it: a request from a foreign web page
//! (`Origin`) or under a foreign name (`Host`, DNS rebinding) gets 403, as the spec's
//! transport section requires; loopback ones, and names and origins the server allows,
//! are answered; and stopping the server with a client's event stream open returns.

use std::time::Duration;

use mcp_tool::http::HttpServer;
use mcp_tool::{McpTool, ToolError, Toolbox};
use serde::Deserialize;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Say hello.
#[derive(McpTool, Deserialize, Debug)]
struct Hello {
    name: String,
}

async fn hello(args: Hello) -> Result<serde_json::Value, ToolError> {
    Ok(serde_json::json!({ "greeting": format!("Hello, {}!", args.name) }))
}

#[path = "support/raw_http.rs"]
mod raw_http;
use raw_http::{INITIALIZE, header, post, read_head, start};

fn hello_tools() -> Toolbox {
    Toolbox::new().tool(hello)
}

#[tokio::test]
async fn a_foreign_origin_or_host_is_refused_and_loopback_is_answered() {
    let serving = start(HttpServer::new(), hello_tools()).await;
    let port = serving.port;
    let local = format!("127.0.0.1:{port}");
    let evil = Some("http://evil.example.com");
    let cases = [
        ("foreign Origin", local.as_str(), evil, 403),
        ("foreign Host", "evil.example.com", None, 403),
        ("both", "evil.example.com", evil, 403),
        ("neither", local.as_str(), None, 200),
        (
            "a loopback page",
            local.as_str(),
            Some("http://localhost:5173"),
            200,
        ),
    ];
    for (what, host, origin, expected) in cases {
        let (code, _, _) = post(port, host, origin, "", INITIALIZE).await;
        assert_eq!(code, expected, "{what}");
    }
    serving.stop().await;
}

#[tokio::test]
async fn allowed_hosts_and_origins_are_answered() {
    let server = HttpServer::new()
        .allow_host("mcp.example.com")
        .allow_origin("https://app.example.com");
    let serving = start(server, hello_tools()).await;
    let port = serving.port;
    let (code, _, _) = post(
        port,
        "mcp.example.com",
        Some("https://app.example.com"),
        "",
        INITIALIZE,
    )
    .await;
    assert_eq!(code, 200);
    let (code, _, _) = post(
        port,
        "mcp.example.com",
        Some("https://other.example.com"),
        "",
        INITIALIZE,
    )
    .await;
    assert_eq!(code, 403);
    serving.stop().await;
}

#[tokio::test]
async fn stopping_with_an_event_stream_open_returns() {
    let serving = start(HttpServer::new(), hello_tools()).await;
    let port = serving.port;
    let local = format!("127.0.0.1:{port}");
    let (code, headers, _init) = post(port, &local, None, "", INITIALIZE).await;
    assert_eq!(code, 200);
    let session = header(&headers, "mcp-session-id").expect("a session");
    let notified = format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-11-25\r\n");
    let (code, _, _) = post(
        port,
        &local,
        None,
        &notified,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert!(code == 202 || code == 200, "initialized: {code}");
    // The client's standing event stream, held open.
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: {local}\r\nAccept: text/event-stream\r\n{notified}\r\n"
    );
    stream.write_all(get.as_bytes()).await.unwrap();
    let (code, _, _open) = read_head(tokio::io::BufReader::new(stream)).await;
    assert_eq!(code, 200, "the event stream");
    tokio::time::timeout(Duration::from_secs(10), serving.stop())
        .await
        .expect("serving returns with a stream open");
}

#[path = "support/shelf.rs"]
mod shelf;
use shelf::shelf;

/// The JSON-RPC response to one stateless request of `version` (2026-07-28 carries its
/// version in `_meta`, with no `initialize`).
async fn stateless(
    port: u16,
    version: &str,
    method: &str,
    params: serde_json::Value,
) -> serde_json::Value {
    stateless_from(port, "raw", version, method, params).await
}

/// [`stateless`] from a client named `client` in the request's `_meta`.
async fn stateless_from(
    port: u16,
    client: &str,
    version: &str,
    method: &str,
    params: serde_json::Value,
) -> serde_json::Value {
    let mut params = params.clone();
    // The client's capabilities, where the caller gave them in `_meta`; else none.
    let capabilities = params["_meta"]["io.modelcontextprotocol/clientCapabilities"].take();
    params["_meta"] = serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": if capabilities.is_null() { serde_json::json!({}) } else { capabilities },
        "io.modelcontextprotocol/clientInfo": {"name": client, "version": "1"},
    });
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
        .to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let name = params
        .get("name")
        .and_then(|n| n.as_str())
        .map(|n| format!("Mcp-Name: {n}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nMCP-Protocol-Version: {version}\r\n\
         Mcp-Method: {method}\r\n{name}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut text = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut stream, &mut text)
        .await
        .unwrap();
    // The JSON-RPC message, in a plain body or in an event's `data:` line.
    text.lines()
        .filter_map(|l| {
            serde_json::from_str::<serde_json::Value>(l.strip_prefix("data: ").unwrap_or(l)).ok()
        })
        .find(|v| v.get("id").is_some())
        .unwrap_or_else(|| panic!("no response in {text}"))
}

#[tokio::test]
async fn a_2026_peer_gets_a_list_result_as_the_value_itself() {
    let serving = start(HttpServer::new(), Toolbox::new().tool(shelf)).await;
    let port = serving.port;
    let listed = stateless(port, "2026-07-28", "tools/list", serde_json::json!({})).await;
    let schema = &listed["result"]["tools"][0]["outputSchema"];
    let called = stateless(
        port,
        "2026-07-28",
        "tools/call",
        serde_json::json!({"name": "shelf", "arguments": {"count": 2}}),
    )
    .await;
    let structured = &called["result"]["structuredContent"];
    assert_eq!(
        structured,
        &serde_json::json!([{"title": "Book 0"}, {"title": "Book 1"}]),
        "{called}"
    );
    let judge = jsonschema::validator_for(schema).unwrap();
    assert!(judge.is_valid(structured), "{structured} against {schema}");
    serving.stop().await;
}

/// Reserve seats, maybe.
#[derive(McpTool, Deserialize, Debug)]
#[allow(dead_code)] // `note` is read by the derive and serde
struct Reserve {
    seats: u8,
    note: Option<String>,
}

async fn reserve(args: Reserve) -> Result<String, ToolError> {
    Ok(format!("{} seats", args.seats))
}

#[tokio::test]
async fn a_stateless_request_gets_the_profile_of_the_client_its_meta_names() {
    let tools = Toolbox::new().schema_profile_from_client().tool(reserve);
    let serving = start(HttpServer::new(), tools).await;
    let schema_for =
        |listed: serde_json::Value| listed["result"]["tools"][0]["inputSchema"].clone();
    // OpenAI's strict form: every property required, the optional one nullable.
    let openai = schema_for(
        stateless_from(
            serving.port,
            "openai-mcp",
            "2026-07-28",
            "tools/list",
            serde_json::json!({}),
        )
        .await,
    );
    assert_eq!(
        openai,
        mcp_tool::SchemaProfile::OpenAi.adapt(Reserve::input_schema())
    );
    let mut required: Vec<&str> = openai["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    required.sort_unstable();
    assert_eq!(required, ["note", "seats"], "{openai}");
    // A client of no known family: the portable schema.
    let portable = schema_for(
        stateless_from(
            serving.port,
            "some-agent",
            "2026-07-28",
            "tools/list",
            serde_json::json!({}),
        )
        .await,
    );
    assert_eq!(&portable, Reserve::input_schema());
    // The call of the OpenAI client reads its null as "left out", as its schema says.
    let called = stateless_from(
        serving.port,
        "openai-mcp",
        "2026-07-28",
        "tools/call",
        serde_json::json!({"name": "reserve", "arguments": {"seats": 2, "note": null}}),
    )
    .await;
    assert_eq!(called["result"]["isError"], false, "{called}");
    serving.stop().await;
}

/// Count the seats left.
#[derive(McpTool, Deserialize, Debug)]
struct CountSeats {
    /// The flight, as its number.
    #[validate(range(min = 1))]
    flight: u32,
}

async fn count_seats(args: CountSeats) -> Result<serde_json::Value, ToolError> {
    Ok(serde_json::json!({ "flight": args.flight, "left": 3 }))
}

/// The two checks of the conformance suite's SEP-1303 draft, against a derived tool with
/// a required, typed argument, on the wire: an argument missing, and one of the wrong
/// type, are each a tool execution error (a result with `isError: true` whose text names
/// the argument and what it must be), not a JSON-RPC error; only an unknown tool is one.
#[tokio::test]
async fn invalid_arguments_are_tool_execution_errors_on_the_wire() {
    let serving = start(HttpServer::new(), Toolbox::new().tool(count_seats)).await;
    let call = |arguments: serde_json::Value| {
        stateless(
            serving.port,
            "2026-07-28",
            "tools/call",
            serde_json::json!({"name": "count_seats", "arguments": arguments}),
        )
    };
    for (arguments, said) in [
        (
            serde_json::json!({}),
            "flight: is required but was not sent",
        ),
        (
            serde_json::json!({"flight": "AF123"}),
            "flight: must be an integer",
        ),
    ] {
        let answer = call(arguments.clone()).await;
        assert!(answer.get("error").is_none(), "{answer}");
        let result = &answer["result"];
        assert_eq!(result["isError"], true, "{answer}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.contains(said), "{said:?} in {text:?}");
        assert_eq!(
            result["structuredContent"]["violations"][0]["path"],
            "/flight"
        );
    }
    let ok = call(serde_json::json!({"flight": 12})).await;
    assert_eq!(ok["result"]["isError"], false, "{ok}");
    let unknown = stateless(
        serving.port,
        "2026-07-28",
        "tools/call",
        serde_json::json!({"name": "count_seat", "arguments": {"flight": 12}}),
    )
    .await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
}

#[path = "../examples/common/flight.rs"]
mod flight;

/// The asking page's exchange under 2026-07-28, as served over HTTP: the README's tool
/// called without its date gets the question as the call's answer, word for word (the
/// sealed `requestState` shown by its first characters, as the page shows it), and the
/// call the page shows next, with the user's answer and the state echoed, runs with
/// the date the user gave.
#[tokio::test]
async fn the_asking_page_shows_a_round_as_served() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/asking.md")).unwrap();
    let section = &page[page
        .find("# Under protocol 2026-07-28")
        .expect("the page has the section")..];
    let blocks: Vec<serde_json::Value> = section
        .split("```json\n")
        .skip(1)
        .take(2)
        .map(|block| serde_json::from_str(block.split("```").next().unwrap()).unwrap())
        .collect();
    let (question, again) = (&blocks[0], &blocks[1]);
    let shown_state = question["requestState"].as_str().unwrap();

    let tools = Toolbox::new()
        .in_context(mcp_tool::Context::on(2026, 11, 30).unwrap())
        .tool(flight::book_flight);
    let serving = start(HttpServer::new(), tools).await;
    let capabilities = serde_json::json!({
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
    });
    let mut call = serde_json::json!({"name": "book_flight", "arguments": again["arguments"]});
    call["_meta"] = capabilities.clone();
    let answer = stateless(serving.port, "2026-07-28", "tools/call", call).await;
    let mut result = answer["result"].clone();
    let state = result["requestState"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        state.starts_with(shown_state.trim_end_matches("...")),
        "the state {state:?} does not start as the page shows it"
    );
    result["requestState"] = serde_json::json!(shown_state);
    assert_eq!(&result, question);

    let mut call = again.clone();
    call["requestState"] = serde_json::json!(state);
    call["_meta"] = capabilities;
    let answer = stateless(serving.port, "2026-07-28", "tools/call", call).await;
    let result = &answer["result"];
    assert_eq!(result["isError"], false, "{answer}");
    assert_eq!(result["structuredContent"]["date"], "15/01/2027");
    serving.stop().await;
}
