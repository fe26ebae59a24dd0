//! Servers run through rmcp, the official Rust SDK, and called with its client over an
//! in-process transport: a `Toolbox`, and rmcp `#[tool_router]` servers that take
//! `mcp_tool::rmcp::Parameters`.

use std::sync::atomic::{AtomicBool, Ordering};

use mcp_tool::rmcp::Parameters;
use mcp_tool::{McpTool, ToolError, Toolbox};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::handler::server::wrapper::Json;
use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode, Tool};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Greet someone, a few times.
#[derive(McpTool, Deserialize, Debug)]
struct Greet {
    #[validate(length(min = 1, max = 10))]
    name: String,
    #[validate(range(min = 1, max = 3))]
    times: u8,
    #[validate(enum = ["en", "fr"])]
    language: Option<String>,
}

/// Fail on purpose.
#[derive(McpTool, Deserialize, Debug)]
struct Explode {}

#[derive(Serialize, schemars::JsonSchema)]
struct Greeting {
    text: String,
}

fn greeting(args: &Greet) -> Result<Greeting, ToolError> {
    if args.name == "Voldemort" {
        return Err(ToolError::business("That name is not said here.")
            .with_partial_results(json!({"greeted": []})));
    }
    let hello = match args.language.as_deref() {
        Some("fr") => "Bonjour",
        _ => "Hello",
    };
    Ok(Greeting {
        text: vec![format!("{hello}, {}!", args.name); args.times.into()].join(" "),
    })
}

async fn greet(args: Greet) -> Result<Greeting, ToolError> {
    greeting(&args)
}

static EXPLODED: AtomicBool = AtomicBool::new(false);

async fn explode(_: Explode) -> Result<(), ToolError> {
    EXPLODED.store(true, Ordering::SeqCst);
    panic!("secret internals: password=hunter2");
}

#[path = "support/connect.rs"]
mod support_connect;
use support_connect::connect;

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &str,
    arguments: Value,
) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
        .await
        .expect("a tool result, not a protocol error")
}

async fn call_err(client: &RunningService<RoleClient, ()>, name: &str) -> rmcp::ErrorData {
    match client
        .call_tool(CallToolRequestParams::new(name.to_owned()))
        .await
    {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn paths(result: &CallToolResult) -> Vec<String> {
    let structured = result
        .structured_content
        .as_ref()
        .expect("structuredContent");
    structured["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["path"].as_str().unwrap().to_owned())
        .collect()
}

const MISTAKES: fn() -> Value = || json!({"name": "", "times": 7, "language": "de", "extra": 1});

#[tokio::test]
async fn a_toolbox_served_by_rmcp_keeps_the_whole_contract() {
    let client = connect(Toolbox::new().tool(greet).tool(explode)).await;

    let tools: Vec<Tool> = client.list_all_tools().await.unwrap();
    let listed = tools.iter().find(|t| t.name == "greet").unwrap();
    assert_eq!(
        Value::Object((*listed.input_schema).clone()),
        *Greet::input_schema()
    );
    let output = listed.output_schema.as_ref().expect("outputSchema");
    assert_eq!(output["anyOf"][0]["properties"]["text"]["type"], "string");

    let ok = call(&client, "greet", json!({"name": "Ada", "times": 2})).await;
    assert_eq!(ok.is_error, Some(false));
    assert_eq!(
        ok.structured_content,
        Some(json!({"text": "Hello, Ada! Hello, Ada!"}))
    );

    // Every violation, with paths, as an isError result: never -32602.
    let bad = call(&client, "greet", MISTAKES()).await;
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(paths(&bad), ["/name", "/times", "/language", "/extra"]);
    assert!(text(&bad).starts_with("greet was not run: 4 problems"));

    let business = call(&client, "greet", json!({"name": "Voldemort", "times": 1})).await;
    let structured = business.structured_content.unwrap();
    assert_eq!(structured["errorCategory"], "business");
    assert_eq!(structured["partial_results"], json!({"greeted": []}));
    assert_eq!(
        structured["attempted_query"]["arguments"]["name"],
        "Voldemort"
    );

    let unknown = call_err(&client, "gret").await;
    assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(
        unknown.message,
        "Unknown tool: \"gret\". Did you mean \"greet\"? Tools: greet, explode."
    );

    // A panicking handler: an isError result that tells nothing, and the server lives on.
    let exploded = call(&client, "explode", json!({})).await;
    assert!(EXPLODED.load(Ordering::SeqCst));
    assert_eq!(exploded.is_error, Some(true));
    assert!(text(&exploded).contains("explode failed with an internal error"));
    assert!(!format!("{exploded:?}").contains("hunter2"));
    let after = call(&client, "greet", json!({"name": "Ada", "times": 1})).await;
    assert_eq!(after.is_error, Some(false));
}

/// An rmcp server in rmcp's own style, as its users write them: only `Parameters` is
/// this crate's. `STRUCTURED` picks the router `#[tool_handler]` is given.
#[derive(Clone)]
struct Desk<const STRUCTURED: bool> {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl<const STRUCTURED: bool> Desk<STRUCTURED> {
    fn new() -> Self {
        Desk {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Greet someone, a few times.")]
    async fn greet(
        &self,
        Parameters(args): Parameters<Greet>,
    ) -> Result<Json<Greeting>, ToolError> {
        greeting(&args).map(Json)
    }

    /// Named after the method, not after `Greet`: the errors must say `reserve`.
    #[tool(description = "Reserve a greeting.")]
    async fn reserve(&self, Parameters(args): Parameters<Greet>) -> Result<String, ToolError> {
        Ok(args.name)
    }

    /// Fails as the storage layer of a real server does: `?` on an error nobody sorted.
    #[tool(
        description = "Remove an entity.",
        annotations(destructive_hint = true)
    )]
    async fn remove(&self, Parameters(args): Parameters<Greet>) -> Result<String, ToolError> {
        let failed: Result<(), std::io::Error> = Err(std::io::Error::other(format!(
            "DELETE FROM entities WHERE name = '{}': one or both entities do not exist",
            args.name
        )));
        failed?;
        Ok(args.name)
    }

    /// A method that takes no arguments: no `Parameters` at all.
    #[tool(description = "Read the whole graph.")]
    async fn read_graph(&self) -> Result<String, ToolError> {
        Ok("the whole graph".into())
    }

    /// A method with a bug: it panics, with internals in the message.
    #[tool(description = "Forget an entity.")]
    async fn forget(&self, Parameters(args): Parameters<Greet>) -> Result<String, ToolError> {
        panic!(
            "index out of range in the entity table (password=hunter2): {}",
            args.name
        );
    }

    #[tool(description = "Always busy.")]
    async fn busy(&self, Parameters(_): Parameters<Explode>) -> Result<String, ToolError> {
        Err(ToolError::transient("Busy.")
            .retry_after(std::time::Duration::from_secs(3))
            .for_call("busy", json!({})))
    }
}

/// rmcp's own router, untouched.
#[tool_handler(router = self.tool_router)]
impl ServerHandler for Desk<false> {}

/// The same tools through `structured`, which keeps the structuredContent of argument
/// errors.
#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router))]
impl ServerHandler for Desk<true> {
    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        _: rmcp::service::RequestContext<rmcp::service::RoleServer>,
    ) -> Result<rmcp::model::CustomResult, rmcp::ErrorData> {
        mcp_tool::rmcp::reject_malformed_call(request)
    }
}

#[tokio::test]
async fn an_rmcp_tool_method_advertises_the_derived_schema() {
    for client in [
        connect(Desk::<false>::new()).await,
        connect(Desk::<true>::new()).await,
    ] {
        let tools = client.list_all_tools().await.unwrap();
        let listed = tools.iter().find(|t| t.name == "greet").unwrap();
        let mut expected = Greet::input_schema().clone();
        // rmcp adds the dialect it generates for.
        expected["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        assert_eq!(Value::Object((*listed.input_schema).clone()), expected);
    }
}

#[tokio::test]
async fn rmcp_router_argument_errors_are_is_error_results_with_every_violation() {
    let client = connect(Desk::<false>::new()).await;
    let bad = call(&client, "greet", MISTAKES()).await;
    assert_eq!(bad.is_error, Some(true));
    let text = text(&bad);
    // rmcp's router puts its prefix before our text, and drops structuredContent.
    assert!(text.starts_with("failed to deserialize parameters: greet was not run: 4 problems"));
    for path in ["- name: ", "- times: ", "- language: ", "- extra: "] {
        assert!(text.contains(path), "{path} missing from {text}");
    }
    assert_eq!(bad.structured_content, None);
}

#[tokio::test]
async fn the_structured_router_keeps_the_contract_of_argument_errors() {
    let client = connect(Desk::<true>::new()).await;
    let bad = call(&client, "greet", MISTAKES()).await;
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(paths(&bad), ["/name", "/times", "/language", "/extra"]);
    assert!(text(&bad).starts_with("greet was not run: 4 problems"));

    let unknown = call_err(&client, "gret").await;
    assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
    assert!(unknown.message.contains("\"gret\""));
    assert!(unknown.message.contains("Did you mean \"greet\"?"));
}

#[tokio::test]
async fn tool_errors_returned_by_rmcp_methods_keep_the_contract() {
    for client in [
        connect(Desk::<false>::new()).await,
        connect(Desk::<true>::new()).await,
    ] {
        let business = call(&client, "greet", json!({"name": "Voldemort", "times": 1})).await;
        assert_eq!(business.is_error, Some(true));
        let structured = business.structured_content.unwrap();
        assert_eq!(structured["errorCategory"], "business");
        assert_eq!(structured["partial_results"], json!({"greeted": []}));

        let busy = call(&client, "busy", json!({})).await;
        let structured = busy.structured_content.unwrap();
        assert_eq!(structured["errorCategory"], "transient");
        assert_eq!(structured["isRetryable"], true);
        assert_eq!(structured["retryAfterSeconds"], 3);
        assert_eq!(structured["attempted_query"]["tool"], "busy");

        let ok = call(
            &client,
            "greet",
            json!({"name": "Ada", "times": 1, "language": "fr"}),
        )
        .await;
        assert_eq!(
            ok.structured_content,
            Some(json!({"text": "Bonjour, Ada!"}))
        );

        let unknown = call_err(&client, "nope").await;
        assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
    }
}

#[tokio::test]
async fn an_rmcp_method_s_errors_name_the_tool_the_client_called() {
    for client in [
        connect(Desk::<false>::new()).await,
        connect(Desk::<true>::new()).await,
    ] {
        let bad = call(&client, "reserve", json!({"name": "Ada", "tims": 1})).await;
        let text = text(&bad);
        assert!(text.contains("reserve was not run"), "{text}");
        assert!(text.contains("is not an argument of reserve"), "{text}");
        assert!(!text.contains("greet"), "{text}");
        if let Some(structured) = bad.structured_content {
            assert_eq!(structured["attempted_query"]["tool"], "reserve");
        }
    }
}

/// Sends `requests` as JSON-RPC lines to `server` after the initialization handshake;
/// returns the responses to them, in order.
async fn raw_exchange<S: ServerHandler>(server: S, requests: &[Value]) -> Vec<Value> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    let mut send = vec![
        initialize,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    send.extend(requests.iter().cloned());
    for message in send {
        write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut responses = Vec::new();
    while responses.len() < requests.len() + 1 {
        let line = lines.next_line().await.unwrap().expect("a response");
        responses.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    responses.remove(0);
    responses
}

#[tokio::test]
async fn a_malformed_tools_call_is_invalid_params_over_rmcp() {
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "greet", "arguments": [1, 2]}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "greet", "arguments": "hello"}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"arguments": {}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "no/such/method"}),
    ];
    let toolbox = raw_exchange(Toolbox::new().tool(greet), &requests).await;
    let desk = raw_exchange(Desk::<true>::new(), &requests).await;
    for responses in [toolbox, desk] {
        let codes: Vec<&Value> = responses.iter().map(|r| &r["error"]["code"]).collect();
        assert_eq!(
            codes,
            [
                &json!(-32602),
                &json!(-32602),
                &json!(-32602),
                &json!(-32601)
            ]
        );
        assert_eq!(
            responses[0]["error"]["message"],
            "greet: `arguments` must be a JSON object; got an array."
        );
        assert_eq!(
            responses[1]["error"]["message"],
            "greet: `arguments` must be a JSON object; got a string."
        );
        assert!(
            responses[2]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`name`")
        );
    }
}

/// A client that names its family gets that family's schema, and its arguments read as
/// that schema says: OpenAI's `null` for an optional property is "left out".
#[tokio::test]
async fn a_client_that_names_its_family_gets_its_profile() {
    use mcp_tool::SchemaProfile;
    use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
    for (name, profile) in [
        ("openai-mcp", SchemaProfile::OpenAi),
        ("gemini-cli", SchemaProfile::Gemini),
        ("some-client", SchemaProfile::Portable),
    ] {
        let tools = Toolbox::new().schema_profile_from_client().tool(greet);
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            let running = tools.serve(server_io).await.unwrap();
            let _ = running.waiting().await;
        });
        let info = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(name, "1"),
        );
        let client = info.serve(client_io).await.unwrap();
        let listed = client.list_all_tools().await.unwrap();
        assert_eq!(
            Value::Object((*listed[0].input_schema).clone()),
            *Greet::input_schema_for(profile),
            "{name}"
        );
        let result = client
            .call_tool(
                CallToolRequestParams::new("greet").with_arguments(
                    json!({"name": "Ada", "times": 1, "language": null})
                        .as_object()
                        .unwrap()
                        .clone(),
                ),
            )
            .await
            .unwrap();
        // `null` for an `Option` is `None` in every profile, as serde reads it.
        assert_eq!(result.is_error, Some(false), "{name}");
    }
}

/// An rmcp router given a profile through `structured`.
#[derive(Clone)]
struct GeminiDesk {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl GeminiDesk {
    #[tool(description = "Greet someone, a few times.")]
    async fn greet(
        &self,
        Parameters(args): Parameters<Greet>,
    ) -> Result<Json<Greeting>, ToolError> {
        greeting(&args).map(Json)
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).schema_profile(mcp_tool::SchemaProfile::Gemini))]
impl ServerHandler for GeminiDesk {}

#[tokio::test]
async fn an_rmcp_router_advertises_its_profile() {
    let client = connect(GeminiDesk {
        tool_router: GeminiDesk::tool_router(),
    })
    .await;
    let listed = client.list_all_tools().await.unwrap();
    assert_eq!(
        Value::Object((*listed[0].input_schema).clone()),
        *Greet::input_schema_for(mcp_tool::SchemaProfile::Gemini)
    );
    let bad = call(&client, "greet", MISTAKES()).await;
    assert_eq!(paths(&bad), ["/name", "/times", "/language", "/extra"]);
}

/// Tag a post.
#[derive(McpTool, Deserialize, Debug)]
struct Tag {
    #[validate(items(length(min = 1)))]
    tags: Vec<String>,
}

/// An rmcp router whose `Parameters` repair (`REPAIR`) or not.
#[derive(Clone)]
struct TagDesk<const REPAIR: bool> {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl<const REPAIR: bool> TagDesk<REPAIR> {
    #[tool(description = "Tag a post.")]
    async fn tag(&self, Parameters(args): Parameters<Tag>) -> Result<String, ToolError> {
        Ok(format!("{} tags", args.tags.len()))
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).repairs(REPAIR))]
impl<const REPAIR: bool> ServerHandler for TagDesk<REPAIR> {}

#[tokio::test]
async fn an_rmcp_router_repairs_a_stringified_array_and_says_so_unless_told_not_to() {
    let client = connect(TagDesk::<true> {
        tool_router: TagDesk::<true>::tool_router(),
    })
    .await;
    let arguments = json!({"tags": "[\"a\", \"b\"]"})
        .as_object()
        .unwrap()
        .clone();
    let result = client
        .call_tool(CallToolRequestParams::new("tag").with_arguments(arguments.clone()))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(false));
    let meta = serde_json::to_value(result.meta.unwrap()).unwrap();
    assert_eq!(meta[mcp_tool::REPAIRS_KEY][0]["path"], "/tags");

    let strict = connect(TagDesk::<false> {
        tool_router: TagDesk::<false>::tool_router(),
    })
    .await;
    let result = strict
        .call_tool(CallToolRequestParams::new("tag").with_arguments(arguments))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
}

/// An rmcp router whose errors carry the draft failure `_meta`.
#[derive(Clone)]
struct CarrierDesk {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl CarrierDesk {
    #[tool(description = "Tag a parcel.")]
    async fn tag(&self, Parameters(_): Parameters<Tag>) -> Result<String, ToolError> {
        Err(ToolError::transient("The carrier does not answer.")
            .retry_after(std::time::Duration::from_secs(20)))
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).tool_failure_meta(true))]
impl ServerHandler for CarrierDesk {}

#[tokio::test]
async fn an_rmcp_router_s_errors_carry_the_draft_failure_meta_when_asked() {
    let client = connect(CarrierDesk {
        tool_router: CarrierDesk::tool_router(),
    })
    .await;
    let before = std::time::SystemTime::now();
    let result = call(&client, "tag", json!({"tags": ["fragile"]})).await;
    assert_eq!(result.is_error, Some(true));
    let meta = serde_json::to_value(result.meta.unwrap()).unwrap();
    let failure = &meta[mcp_tool::TOOL_FAILURE_KEY];
    assert_eq!(failure["class"], "reliability");
    assert_eq!(failure["code"], "transient");
    assert_eq!(failure["retryable"], true);
    // 20 seconds on, in RFC 3339: later than now + 19 s, in the same form as a date
    // written by hand for that moment.
    let not_before = failure["retryNotBefore"].as_str().unwrap();
    let at = |d: std::time::SystemTime| {
        let s = d.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        chrono::DateTime::from_timestamp(s as i64, 0).unwrap()
    };
    let parsed = chrono::DateTime::parse_from_rfc3339(not_before).unwrap();
    assert!(
        parsed >= at(before + std::time::Duration::from_secs(19)),
        "{not_before}"
    );
    assert!(
        parsed <= at(before + std::time::Duration::from_secs(60)),
        "{not_before}"
    );
    // An argument error, made before the method runs, carries it too.
    let result = call(&client, "tag", json!({"tags": [""]})).await;
    let meta = serde_json::to_value(result.meta.unwrap()).unwrap();
    assert_eq!(
        meta[mcp_tool::TOOL_FAILURE_KEY]["code"],
        "invalid_arguments"
    );
}

#[path = "support/shelf.rs"]
mod shelf;
use shelf::shelf;

#[tokio::test]
async fn a_list_result_is_wrapped_for_a_peer_that_initializes() {
    // 2026-07-28 has no `initialize`: a client that asks for it there gets 2025-11-25,
    // and `{"result": value}` (tests/http.rs has a stateless 2026-07-28 peer).
    use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
    for version in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
        let tools = Toolbox::new().tool(shelf);
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            let running = tools.serve(server_io).await.unwrap();
            let _ = running.waiting().await;
        });
        let info = ClientConfig::new(ClientCapabilities::default(), Implementation::new("c", "1"))
            .with_protocol_version(version.clone());
        let client = info.serve(client_io).await.unwrap();
        let listed = client.list_all_tools().await.unwrap();
        let schema = Value::Object((*listed[0].output_schema.clone().unwrap()).clone());
        let judge = jsonschema::validator_for(&schema).unwrap();
        let result = client
            .call_tool(
                CallToolRequestParams::new("shelf")
                    .with_arguments(json!({"count": 2}).as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        let structured = result.structured_content.clone().unwrap();
        let books = json!([{"title": "Book 0"}, {"title": "Book 1"}]);
        assert_eq!(structured, json!({ "result": books }), "{version}");
        assert!(
            judge.is_valid(&structured),
            "{version}: {structured} against {schema}"
        );
        let error = client
            .call_tool(
                CallToolRequestParams::new("shelf")
                    .with_arguments(json!({"count": 9}).as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        assert!(
            judge.is_valid(&error.structured_content.unwrap()),
            "{version}: the error"
        );
    }
}

/// Delete a file, once the user confirms.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(confirm = "Delete {path}?")]
struct Delete {
    path: String,
}

static DELETED: AtomicBool = AtomicBool::new(false);

struct Files {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Files {
    #[tool(description = "Delete a file.")]
    async fn delete(&self, Parameters(args): Parameters<Delete>) -> Result<String, ToolError> {
        DELETED.store(true, Ordering::SeqCst);
        Ok(args.path)
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router))]
impl ServerHandler for Files {}

#[tokio::test]
async fn an_rmcp_method_that_needs_the_users_confirmation_is_refused_not_run() {
    // rmcp's `#[tool]` methods have no way to ask the user: the call is refused, and
    // the method never runs unconfirmed.
    let client = connect(Files {
        tool_router: Files::tool_router(),
    })
    .await;
    let result = call(&client, "delete", json!({"path": "/etc/passwd"})).await;
    assert_eq!(result.is_error, Some(true));
    let text = text(&result);
    assert!(text.contains("cannot ask its user"), "{text}");
    assert!(text.contains("Delete /etc/passwd?"), "{text}");
    assert_eq!(
        result.structured_content.unwrap()["errorCategory"],
        "permission"
    );
    assert!(!DELETED.load(Ordering::SeqCst));
}

#[tokio::test]
async fn an_unsorted_error_of_a_method_never_invites_a_retry_and_keeps_its_call() {
    for (client, structured) in [
        (connect(Desk::<false>::new()).await, false),
        (connect(Desk::<true>::new()).await, true),
    ] {
        let failed = call(&client, "remove", json!({"name": "Ada", "times": 1})).await;
        assert_eq!(failed.is_error, Some(true));
        let text = text(&failed);
        assert!(!text.contains("DELETE"), "{text}");
        assert!(!text.contains("may succeed"), "{text}");
        let content = failed.structured_content.unwrap();
        assert_eq!(content["isRetryable"], false);
        if structured {
            // Under `structured`, the error names the call and what was sent.
            assert!(
                text.starts_with("remove failed with an unexpected error"),
                "{text}"
            );
            assert!(text.contains("check whether it did"), "{text}");
            assert_eq!(content["attempted_query"]["tool"], "remove");
            assert_eq!(content["attempted_query"]["arguments"]["name"], "Ada");
        } else {
            assert!(
                text.starts_with("The tool failed with an unexpected error"),
                "{text}"
            );
        }
    }
}

#[tokio::test]
async fn a_method_without_parameters_refuses_names_under_structured() {
    let client = connect(Desk::<true>::new()).await;
    let tools = client.list_all_tools().await.unwrap();
    let listed = tools.iter().find(|t| t.name == "read_graph").unwrap();
    let schema = Value::Object((*listed.input_schema).clone());
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false, "{schema}");
    // `{"depth": 2}` used to be ignored: the whole graph came back.
    let refused = call(&client, "read_graph", json!({"depth": 2})).await;
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(paths(&refused), ["/depth"]);
    let text = text(&refused);
    assert!(
        text.contains("depth: is not an argument of read_graph"),
        "{text}"
    );
    let ok = call(&client, "read_graph", json!({})).await;
    assert_eq!(ok.is_error, Some(false));
}

#[tokio::test]
async fn a_method_that_panics_under_structured_gets_an_answer() {
    let client = connect(Desk::<true>::new()).await;
    // Before, the request's task died with the panic and the call was never answered.
    let answered = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        call(&client, "forget", json!({"name": "Ada", "times": 1})),
    )
    .await
    .expect("the call is answered");
    assert_eq!(answered.is_error, Some(true));
    let text = text(&answered);
    assert!(
        text.starts_with("forget failed with an internal error"),
        "{text}"
    );
    assert!(!text.contains("hunter2"), "{text}");
    // Not marked read-only or idempotent: it may have done something before it failed.
    assert!(text.contains("check whether it did"), "{text}");
    let content = answered.structured_content.unwrap();
    assert_eq!(content["isRetryable"], false);
    assert_eq!(content["attempted_query"]["tool"], "forget");
    // The server is still there.
    let ok = call(&client, "reserve", json!({"name": "Ada", "times": 1})).await;
    assert_eq!(ok.is_error, Some(false));
}

/// Book a trip.
#[derive(McpTool, Deserialize, Debug)]
struct Trip {
    #[validate(future_date(format = "%Y-%m-%d"))]
    day: String,
}

/// An rmcp router whose date rules are judged on a day of its own.
#[derive(Clone)]
struct TripDesk {
    tool_router: ToolRouter<Self>,
    today: mcp_tool::Context,
}

#[tool_router]
impl TripDesk {
    #[tool(description = "Book a trip.")]
    async fn trip(&self, Parameters(args): Parameters<Trip>) -> Result<String, ToolError> {
        Ok(format!("booked for {}", args.day))
    }
}

#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).in_context(self.today.clone()))]
impl ServerHandler for TripDesk {}

/// `structured(..).in_context(..)` is the day `Parameters` judges dates on, as a
/// Toolbox's `in_context` is: 2026-12-01 is in the future on 2026-11-30, whatever the
/// system clock says, and that day itself is not.
#[tokio::test]
async fn an_rmcp_router_judges_dates_in_its_context() {
    let client = connect(TripDesk {
        tool_router: TripDesk::tool_router(),
        today: mcp_tool::Context::on(2026, 11, 30).unwrap(),
    })
    .await;
    let taken = call(&client, "trip", json!({"day": "2026-12-01"})).await;
    assert_eq!(taken.is_error, Some(false), "{}", text(&taken));
    assert_eq!(text(&taken), "booked for 2026-12-01");
    let refused = call(&client, "trip", json!({"day": "2026-11-30"})).await;
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(paths(&refused), ["/day"]);
    assert!(text(&refused).contains("2026-11-30"), "{}", text(&refused));
}
