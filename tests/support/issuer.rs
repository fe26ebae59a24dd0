//! An authorization server of the tests' own (its metadata and JWK set, which can go
//! down), the tokens it mints, and a resource server of two scoped tools that trusts
//! it: what tests/auth.rs and tests/auth_events.rs share.

#![allow(dead_code)] // each test file uses its share

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_tool::http::HttpServer;
use mcp_tool::http::auth::{Authorization, JwtVerifier};
use mcp_tool::{Caller, McpTool, ToolError, Toolbox};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use super::raw_http::{self, Serving, post_text, read_head};

/// An Ed25519 key of the test issuer (PKCS#8 DER), and its public half (JWK `x`).
pub const PRIVATE: &[u8] = &[
    48, 46, 2, 1, 0, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32, 16, 81, 211, 176, 80, 201, 124, 7,
    230, 231, 34, 108, 197, 55, 10, 84, 108, 127, 171, 153, 232, 75, 7, 60, 242, 243, 90, 31, 216,
    188, 252, 228,
];
pub const PUBLIC_X: &str = "YnoN4y_H6nAviTlnJKWxArxrSFjYMJD_b5gawS77WmI";

/// Find an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:read"))]
pub struct FindOrders {
    pub customer: String,
}

/// Cancel an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:read", "orders:write"))]
pub struct CancelOrder {
    pub order_id: String,
}

pub async fn find_orders(_: Arc<()>, caller: Caller, args: FindOrders) -> Result<Value, ToolError> {
    if args.customer != caller.subject() {
        return Err(ToolError::permission("Those orders are not yours."));
    }
    Ok(json!({"orders": [], "for": caller.subject()}))
}

pub async fn cancel_order(args: CancelOrder) -> Result<String, ToolError> {
    Ok(format!("cancelled {}", args.order_id))
}

/// The issuer this test serves: its metadata and JWK set, which can go down, and how
/// often the set was read.
pub struct Issuer {
    pub port: u16,
    pub down: Arc<AtomicBool>,
    pub fetches: Arc<AtomicU64>,
}

impl Issuer {
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

pub async fn issuer() -> Issuer {
    use axum::routing::get;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let down = Arc::new(AtomicBool::new(false));
    let fetches = Arc::new(AtomicU64::new(0));
    let base = format!("http://127.0.0.1:{port}");
    let metadata = json!({"issuer": base, "jwks_uri": format!("{base}/jwks")}).to_string();
    let jwks = json!({"keys": [
        {"kty": "OKP", "crv": "Ed25519", "x": PUBLIC_X, "kid": "k1", "alg": "EdDSA", "use": "sig"}
    ]})
    .to_string();
    let (d, f) = (Arc::clone(&down), Arc::clone(&fetches));
    let app = axum::Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || {
                let metadata = metadata.clone();
                async move { ([("content-type", "application/json")], metadata) }
            }),
        )
        .route(
            "/jwks",
            get(move || {
                let (d, f, jwks) = (Arc::clone(&d), Arc::clone(&f), jwks.clone());
                async move {
                    f.fetch_add(1, Ordering::SeqCst);
                    if d.load(Ordering::SeqCst) {
                        (axum::http::StatusCode::INTERNAL_SERVER_ERROR, String::new())
                    } else {
                        (axum::http::StatusCode::OK, jwks)
                    }
                }
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Issuer {
        port,
        down,
        fetches,
    }
}

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The claims of a good token for `resource`, by `issuer`, with `scope`.
pub fn claims(issuer: &str, resource: &str, scope: &str) -> Value {
    json!({"iss": issuer, "aud": resource, "sub": "alice", "client_id": "desk",
           "scope": scope, "iat": now(), "exp": now() + 600})
}

pub fn mint(claims: &Value, kid: &str) -> String {
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some(kid.to_owned());
    jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(PRIVATE)).unwrap()
}

/// A served resource server for `issuer`: its port, its resource URI.
pub async fn resource(issuer: &Issuer) -> (Serving, String, Arc<JwtVerifier>) {
    resource_refetching(issuer, Duration::from_secs(30)).await
}

/// [`resource`], its verifier reading the keys again at most every `refetch`.
pub async fn resource_refetching(
    issuer: &Issuer,
    refetch: Duration,
) -> (Serving, String, Arc<JwtVerifier>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let tools = Toolbox::new().tool(find_orders).tool(cancel_order);
    let verifier = Arc::new(JwtVerifier::new(issuer.url(), &resource).refetch_every(refetch));
    // No table of scopes: the server reads them from the tools' types.
    let auth = Authorization::new(Shared(Arc::clone(&verifier)), &resource, issuer.url())
        .challenge_scopes(["orders:read"]);
    let serving =
        raw_http::start_with(listener, HttpServer::new().authorization(auth), tools).await;
    (serving, resource, verifier)
}

/// The verifier shared with the test, which counts its fetches.
pub struct Shared(Arc<JwtVerifier>);

impl mcp_tool::http::auth::TokenVerifier for Shared {
    fn verify<'a>(
        &'a self,
        token: &'a str,
    ) -> mcp_tool::http::auth::BoxFuture<
        'a,
        Result<mcp_tool::http::auth::Verified, mcp_tool::http::auth::Rejected>,
    > {
        self.0.verify(token)
    }
}

/// A stateless request (protocol 2026-07-28) of `method` with `params`, `extra` header
/// lines added: the status, the headers and the body.
pub async fn request(
    port: u16,
    extra: &str,
    method: &str,
    mut params: Value,
) -> (u16, Vec<String>, String) {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    });
    let name = params["name"]
        .as_str()
        .map(|n| format!("Mcp-Name: {n}\r\n"));
    let has_name = extra.to_ascii_lowercase().contains("mcp-name");
    let name = if has_name {
        String::new()
    } else {
        name.unwrap_or_default()
    };
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let extra = format!(
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n{name}{extra}Connection: close\r\n"
    );
    send(
        port,
        &post_text(&format!("127.0.0.1:{port}"), None, &extra, &body),
    )
    .await
}

pub async fn send(port: u16, text: &str) -> (u16, Vec<String>, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    stream.write_all(text.as_bytes()).await.unwrap();
    let (code, headers, mut reader) = read_head(BufReader::new(stream)).await;
    let mut rest = Vec::new();
    let _ = reader.read_to_end(&mut rest).await;
    (code, headers, String::from_utf8_lossy(&rest).into_owned())
}

pub fn bearer(token: &str) -> String {
    format!("Authorization: Bearer {token}\r\n")
}

/// The JSON-RPC message in a body (plain JSON, or the data of an event stream).
pub fn message(body: &str) -> Value {
    let json = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .find(|d| d.starts_with('{'))
        .or_else(|| body.lines().find(|l| l.trim_start().starts_with('{')))
        .unwrap_or_else(|| panic!("no JSON in {body:?}"));
    serde_json::from_str(json).unwrap()
}

pub fn listed(body: &str) -> Vec<String> {
    let message = message(body);
    message["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{message}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Asserts that none of `tokens` is in `text`.
pub fn holds_no_token(text: &str, tokens: &[&str]) {
    for token in tokens {
        assert!(!text.contains(token), "a token leaked into {text:?}");
    }
}

pub fn base64url(text: &str) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let bytes = text.as_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| (n << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(ABC[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}
