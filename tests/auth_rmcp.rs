//! Who may call rmcp's own `#[tool]` methods served through `structured(..)` with
//! scopes (feature `auth`), over HTTP with tokens of the tests' issuer: the list each
//! caller sees, the refusal before a method's arguments are read (by the wrapper itself,
//! where the HTTP server was given no table), and the `Caller` a method takes. And the
//! scopes a method's `Parameters` type declares, read with no table at all by the HTTP
//! server's 403, each caller's list (rmcp's generated one) and the metadata, and, where
//! the operator states who calls, over an in-process rmcp client; a table that
//! contradicts a type stops the server at its start.

use std::sync::LazyLock;

use mcp_tool::http::HttpServer;
use mcp_tool::http::auth::{Authorization, JwtVerifier};
use mcp_tool::rmcp::{Parameters, structured};
use mcp_tool::{Caller, McpTool, ToolError, ToolScopes, Unverified};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, ListToolsResult, PaginatedRequestParams};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

#[path = "support/issuer.rs"]
mod issuer;
#[path = "support/raw_http.rs"]
mod raw_http;
use issuer::*;

static SCOPES: LazyLock<ToolScopes> = LazyLock::new(|| {
    ToolScopes::from_table(&[
        ("find", &["orders:read"]),
        ("cancel", &["orders:read", "orders:write"]),
    ])
});

/// Cancel an order.
#[derive(McpTool, Deserialize)]
struct Cancel {
    id: String,
}

/// Find an order.
#[derive(McpTool, Deserialize)]
struct Find {
    id: String,
}

/// A desk whose `list_tools` lists each caller its own tools.
#[derive(Clone)]
struct Desk {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Desk {
    fn new() -> Self {
        Desk {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Cancel an order")]
    async fn cancel(
        &self,
        caller: Caller,
        Parameters(args): Parameters<Cancel>,
    ) -> Result<String, ToolError> {
        Ok(format!("{} cancelled {}", caller.subject(), args.id))
    }

    #[tool(description = "Find an order")]
    async fn find(&self, Parameters(args): Parameters<Find>) -> Result<String, ToolError> {
        Ok(format!("found {}", args.id))
    }

    #[tool(description = "Answer")]
    async fn ping(&self) -> Result<String, ToolError> {
        Ok("pong".into())
    }
}

#[tool_handler(router = structured(&self.tool_router).scopes(&SCOPES))]
impl ServerHandler for Desk {
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = structured(&self.tool_router).scopes(&SCOPES);
        Ok(tools.list_tools(&context))
    }
}

/// The same desk, with the `list_tools` rmcp's macro writes.
#[derive(Clone)]
struct GeneratedList(Desk);

impl GeneratedList {
    fn tool_router(&self) -> &ToolRouter<Desk> {
        &self.0.tool_router
    }
}

#[tool_handler(router = structured(self.tool_router()).scopes(&SCOPES))]
impl ServerHandler for GeneratedList {
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        self.0.call_tool(request, context).await
    }
}

/// Serves `handler` with authorization by the tests' issuer; `table` gives the HTTP
/// server the scopes too (its 403), else the wrapper alone refuses.
async fn serve<H: ServerHandler>(
    issuer: &Issuer,
    handler: H,
    table: bool,
) -> (raw_http::Serving, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let mut auth = Authorization::new(
        JwtVerifier::new(issuer.url(), &resource),
        &resource,
        issuer.url(),
    );
    if table {
        auth = auth.tool_scopes(SCOPES.clone());
    }
    let server = HttpServer::new().authorization(auth);
    let serving = raw_http::start_with(listener, server, handler).await;
    (serving, resource)
}

#[tokio::test]
async fn each_caller_is_listed_its_tools_and_a_method_gets_its_caller() {
    let issuer = issuer().await;
    let (serving, resource) = serve(&issuer, Desk::new(), true).await;
    let port = serving.port;

    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    let (code, _, body) = request(port, &bearer(&reader), "tools/list", json!({})).await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(listed(&body), ["find", "ping"]);
    assert_eq!(message(&body)["result"]["cacheScope"], "private");

    // The HTTP server's table: 403 before the method's arguments are read.
    let call = json!({"name": "cancel", "arguments": {"id": 42}});
    let (code, _, _) = request(port, &bearer(&reader), "tools/call", call).await;
    assert_eq!(code, 403);

    let writer = mint(
        &claims(&issuer.url(), &resource, "orders:read orders:write"),
        "k1",
    );
    let (_, _, body) = request(port, &bearer(&writer), "tools/list", json!({})).await;
    assert_eq!(listed(&body), ["cancel", "find", "ping"]);
    let call = json!({"name": "cancel", "arguments": {"id": "A1"}});
    let (code, _, body) = request(port, &bearer(&writer), "tools/call", call).await;
    assert_eq!(code, 200, "{body}");
    let result = &message(&body)["result"];
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["content"][0]["text"], "alice cancelled A1");
    holds_no_token(&body, &[writer.as_str()]);
    serving.stop().await;
}

#[tokio::test]
async fn the_wrapper_refuses_a_call_the_token_does_not_permit_before_its_arguments() {
    let issuer = issuer().await;
    // No table for the HTTP server: the refusal is the wrapper's, a result of the
    // permission category, whatever the arguments (these would fail every check).
    let (serving, resource) = serve(&issuer, Desk::new(), false).await;
    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    let call = json!({"name": "cancel", "arguments": {"id": 42, "extra": true}});
    let (code, _, body) = request(serving.port, &bearer(&reader), "tools/call", call).await;
    assert_eq!(code, 200, "{body}");
    let result = &message(&body)["result"];
    assert_eq!(result["isError"], true);
    assert_eq!(result["structuredContent"]["errorCategory"], "permission");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("orders:write"), "{text}");
    assert!(
        !text.contains("extra"),
        "the arguments were not read: {text}"
    );

    let call = json!({"name": "find", "arguments": {"id": "A1"}});
    let (_, _, body) = request(serving.port, &bearer(&reader), "tools/call", call).await;
    assert_eq!(message(&body)["result"]["content"][0]["text"], "found A1");
    serving.stop().await;
}

#[tokio::test]
async fn the_list_rmcp_writes_lists_each_caller_its_own_tools_over_http() {
    let issuer = issuer().await;
    let (serving, resource) = serve(&issuer, GeneratedList(Desk::new()), true).await;
    let writer = mint(
        &claims(&issuer.url(), &resource, "orders:read orders:write"),
        "k1",
    );
    let (code, _, body) = request(serving.port, &bearer(&writer), "tools/list", json!({})).await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(listed(&body), ["cancel", "find", "ping"]);
    // rmcp's generated list says `public`: a list made for one caller is not.
    assert_eq!(message(&body)["result"]["cacheScope"], "private");
    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    let (_, _, body) = request(serving.port, &bearer(&reader), "tools/list", json!({})).await;
    assert_eq!(listed(&body), ["find", "ping"]);
    serving.stop().await;
}

/// Refund an order: its type declares the scope, and no table says it again.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:write"))]
struct Refund {
    id: String,
}

/// A shop with no table of scopes; `alice` says over what a call without a verified
/// caller is served as.
#[derive(Clone)]
struct Shop {
    tool_router: ToolRouter<Self>,
    unverified: Unverified,
}

#[tool_router]
impl Shop {
    fn new(unverified: Unverified) -> Self {
        Shop {
            tool_router: Self::tool_router(),
            unverified,
        }
    }

    #[tool(description = "Refund an order")]
    async fn refund(&self, Parameters(args): Parameters<Refund>) -> Result<String, ToolError> {
        Ok(format!("refunded {}", args.id))
    }

    #[tool(description = "Who calls")]
    async fn whoami(&self, caller: Caller) -> Result<String, ToolError> {
        Ok(caller.subject().to_owned())
    }
}

#[tool_handler(router = structured(&self.tool_router).unverified_calls(self.unverified.clone()))]
impl ServerHandler for Shop {}

#[tokio::test]
async fn a_parameters_type_that_declares_scopes_is_refused_to_a_token_without_them() {
    let issuer = issuer().await;
    let (serving, resource) = serve(&issuer, Shop::new(Unverified::Refused), false).await;
    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    // Arguments that would fail the check: the refusal comes first, and says nothing
    // of them.
    // The HTTP server reads the type's scopes with no table: 403 insufficient_scope,
    // which tells the client to get a wider token.
    let call = json!({"name": "refund", "arguments": {"id": 7, "extra": true}});
    let (code, headers, body) = request(serving.port, &bearer(&reader), "tools/call", call).await;
    assert_eq!(code, 403, "{body}");
    let challenge = raw_http::header(&headers, "www-authenticate").unwrap();
    assert!(
        challenge.contains(r#"error="insufficient_scope""#),
        "{challenge}"
    );
    assert!(challenge.contains("orders:write"), "{challenge}");
    assert!(!body.contains("extra"), "{body}");

    let writer = mint(&claims(&issuer.url(), &resource, "orders:write"), "k1");
    let call = json!({"name": "refund", "arguments": {"id": "A1"}});
    let (_, _, body) = request(serving.port, &bearer(&writer), "tools/call", call).await;
    assert_eq!(
        message(&body)["result"]["content"][0]["text"],
        "refunded A1"
    );
    let call = json!({"name": "whoami", "arguments": {}});
    let (_, _, body) = request(serving.port, &bearer(&writer), "tools/call", call).await;
    assert_eq!(message(&body)["result"]["content"][0]["text"], "alice");
    serving.stop().await;
}

/// Calls `name` with `arguments` on `server` through rmcp's own client, in process (no
/// transport verifies a caller, as over stdio): the result as JSON.
async fn call_unverified(server: Shop, name: &'static str, arguments: Value) -> Value {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        let _ = running.waiting().await;
    });
    let client = ().serve(client_io).await.unwrap();
    let arguments = arguments.as_object().cloned();
    let mut request = CallToolRequestParams::new(name);
    request.arguments = arguments;
    let result = client.call_tool(request).await.unwrap();
    client.cancel().await.unwrap();
    serde_json::to_value(result).unwrap()
}

#[tokio::test]
async fn without_a_verified_caller_the_operator_decides_under_structured() {
    // Nothing said: the method whose type declares scopes, and the one that takes a
    // caller, are refused as `permission`.
    for (name, arguments) in [("refund", json!({"id": "A1"})), ("whoami", json!({}))] {
        let result = call_unverified(Shop::new(Unverified::Refused), name, arguments).await;
        assert_eq!(result["isError"], true, "{result}");
        assert_eq!(
            result["structuredContent"]["errorCategory"], "permission",
            "{result}"
        );
    }
    // The operator names whose server it is: its scopes are checked as a token's.
    let alice = Caller::new("alice").with_scopes(["orders:write"]);
    let served = || Shop::new(Unverified::As(alice.clone()));
    let result = call_unverified(served(), "refund", json!({"id": "A1"})).await;
    assert_eq!(result["content"][0]["text"], "refunded A1", "{result}");
    let result = call_unverified(served(), "whoami", json!({})).await;
    assert_eq!(result["content"][0]["text"], "alice", "{result}");
    let reader = Caller::new("bob").with_scopes(["orders:read"]);
    let result = call_unverified(
        Shop::new(Unverified::As(reader)),
        "refund",
        json!({"id": "A1"}),
    )
    .await;
    assert_eq!(
        result["structuredContent"]["errorCategory"], "permission",
        "{result}"
    );
}

/// The shop's tools as their types declare them, the list rmcp's macro writes: each
/// caller is listed its own, and the metadata names every scope, with no table.
#[tokio::test]
async fn declared_scopes_alone_give_each_caller_its_list_and_the_metadata_its_scopes() {
    let issuer = issuer().await;
    let (serving, resource) = serve(&issuer, Shop::new(Unverified::Refused), false).await;
    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    let (code, _, body) = request(serving.port, &bearer(&reader), "tools/list", json!({})).await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(listed(&body), ["whoami"]);
    let writer = mint(&claims(&issuer.url(), &resource, "orders:write"), "k1");
    let (_, _, body) = request(serving.port, &bearer(&writer), "tools/list", json!({})).await;
    assert_eq!(listed(&body), ["refund", "whoami"]);
    // The scopes travel from the type to the server inside the schema, and no list
    // shows them.
    assert!(!body.contains("x-mcp-tool"), "{body}");
    let text = format!(
        "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        serving.port
    );
    let (code, _, body) = send(serving.port, &text).await;
    assert_eq!(code, 200, "{body}");
    let metadata: Value = serde_json::from_str(body.trim()).unwrap();
    let supported = metadata["scopes_supported"].as_array().unwrap();
    assert!(supported.contains(&json!("orders:write")), "{metadata}");
    serving.stop().await;
}

/// A table that gives a tool other scopes than its type declares is two answers to
/// who may call it: the server does not start, and says which tool.
#[tokio::test]
async fn a_table_that_contradicts_a_declaration_stops_the_server_naming_the_tool() {
    let contradicting = ToolScopes::from_table(&[("refund", &["orders:read"])]);
    let auth = Authorization::jwt("http://127.0.0.1:9", "http://127.0.0.1:8/mcp")
        .tool_scopes(contradicting);
    let error = HttpServer::new()
        .authorization(auth)
        .endpoint(Shop::new(Unverified::Refused))
        .unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    let message = error.to_string();
    assert!(message.contains("\"refund\""), "{message}");
    assert!(message.contains("orders:write"), "{message}");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let auth = Authorization::jwt("http://127.0.0.1:9", "http://127.0.0.1:8/mcp")
        .tool_scopes(ToolScopes::from_table(&[("refund", &["orders:read"])]));
    let served = HttpServer::new()
        .authorization(auth)
        .serve_until(
            Shop::new(Unverified::Refused),
            listener,
            std::future::pending(),
        )
        .await;
    assert!(served.unwrap_err().to_string().contains("refund"));
    // A table that agrees with the type, or names a tool no type declares for, is taken.
    let agreeing =
        ToolScopes::from_table(&[("refund", &["orders:write"]), ("whoami", &["orders:read"])]);
    let auth =
        Authorization::jwt("http://127.0.0.1:9", "http://127.0.0.1:8/mcp").tool_scopes(agreeing);
    assert!(
        HttpServer::new()
            .authorization(auth)
            .endpoint(Shop::new(Unverified::Refused))
            .is_ok()
    );
}

/// An unknown tool's error under `structured` names only the tools the caller is
/// listed: no "did you mean" towards a tool its token does not open.
#[tokio::test]
async fn an_unknown_tools_error_names_only_what_the_token_may_call() {
    let issuer = issuer().await;
    let (serving, resource) = serve(&issuer, Shop::new(Unverified::Refused), false).await;
    let call = json!({"name": "refnd", "arguments": {}});
    let reader = mint(&claims(&issuer.url(), &resource, "orders:read"), "k1");
    let (_, _, body) = request(serving.port, &bearer(&reader), "tools/call", call.clone()).await;
    let error = &message(&body)["error"];
    assert_eq!(error["code"], -32602, "{body}");
    assert!(!error.to_string().contains("refund"), "{error}");
    let writer = mint(&claims(&issuer.url(), &resource, "orders:write"), "k1");
    let (_, _, body) = request(serving.port, &bearer(&writer), "tools/call", call).await;
    let error = message(&body)["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(error.contains("Did you mean \"refund\"?"), "{error}");
    serving.stop().await;
}
