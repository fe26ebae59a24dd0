//! Authorization (feature `auth`): the HTTP server as an OAuth 2.1 resource server,
//! as MCP's authorization spec asks, with the scopes each tool declares.
//!
//! # Who may call what
//!
//! A tool says which scopes a call needs, every one of them, where it is defined:
//!
//! ```
//! use mcp_tool::{McpTool, ToolError};
//! use serde::Deserialize;
//!
//! /// Cancel an order.
//! #[derive(McpTool, Deserialize)]
//! #[mcp_tool(scopes("orders:write"), destructive)]
//! struct CancelOrder {
//!     order_id: String,
//! }
//! # assert_eq!(CancelOrder::scopes(), ["orders:write"]);
//! ```
//!
//! (All of them: a tool that any of several scopes opens would hide from the client
//! which one to ask for; a 403 names them all, so one new token is enough.)
//!
//! A handler that acts for its caller takes a [`Caller`]: the verified subject, client,
//! scopes and the token's other claims, read into the author's own type. The token
//! itself never reaches it (nor the HTTP headers rmcp hands on: the `Authorization`
//! header is taken out first). Its own refusal is the `permission` category:
//!
//! ```
//! use std::sync::Arc;
//! use mcp_tool::{Caller, McpTool, ToolError};
//! use serde::Deserialize;
//!
//! /// Find an order.
//! #[derive(McpTool, Deserialize)]
//! #[mcp_tool(scopes("orders:read"))]
//! struct FindOrder { order_id: String }
//!
//! #[derive(Deserialize)]
//! struct Claims { tenant: Option<String> }
//!
//! struct Shop;
//!
//! async fn find_order(_: Arc<Shop>, args: FindOrder, caller: Caller) -> Result<String, ToolError> {
//!     let _claims: Claims = caller.claims()?;
//!     if !args.order_id.starts_with(caller.subject()) {
//!         return Err(ToolError::permission("This order is not yours."));
//!     }
//!     Ok(args.order_id)
//! }
//! # let _ = mcp_tool::Toolbox::with_state(Shop).tool(find_order);
//! ```
//!
//! The server is given a [`TokenVerifier`] (the built-in [`JwtVerifier`], or one of
//! your own for opaque tokens or API keys), its canonical URI and its authorization
//! server:
//!
//! ```no_run
//! # async fn run(tools: mcp_tool::Toolbox) -> std::io::Result<()> {
//! use mcp_tool::http::auth::{Authorization, JwtVerifier};
//!
//! let resource = "https://mcp.example.com/mcp";
//! let issuer = "https://auth.example.com";
//! let auth = Authorization::new(JwtVerifier::new(issuer, resource), resource, issuer)
//!     .tool_scopes(tools.tool_scopes());
//! mcp_tool::http::HttpServer::new()
//!     .allow_host("mcp.example.com")
//!     .authorization(auth)
//!     .serve(tools, "0.0.0.0:8080")
//!     .await
//! # }
//! ```
//!
//! On the wire, a request without a token (or with a malformed, expired or foreign one)
//! gets 401 and a challenge that leads the client to the metadata:
//!
//! ```text
//! HTTP/1.1 401 Unauthorized
//! WWW-Authenticate: Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="orders:read"
//! ```
//!
//! The Protected Resource Metadata (RFC 9728), at
//! `/.well-known/oauth-protected-resource/mcp` for an endpoint at `/mcp`, and at the
//! root `/.well-known/oauth-protected-resource`:
//!
//! ```json
//! {
//!   "resource": "https://mcp.example.com/mcp",
//!   "authorization_servers": ["https://auth.example.com"],
//!   "scopes_supported": ["orders:read", "orders:write"],
//!   "bearer_methods_supported": ["header"]
//! }
//! ```
//!
//! A `tools/call` of a tool whose scopes the token lacks gets 403 before its arguments
//! are read, naming in one challenge every scope the call needs, with those the token
//! holds already (clients replace their token with one of the scopes named: so the new
//! one loses nothing). A token of `orders:read` calling `cancel_order`:
//!
//! ```text
//! HTTP/1.1 403 Forbidden
//! WWW-Authenticate: Bearer error="insufficient_scope", error_description="the token does not grant every scope this tool needs", scope="orders:read orders:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
//! ```
//!
//! The tool's name is read from the body (older protocol versions send no `Mcp-Name`
//! header, and a call must not slip past without one); an `Mcp-Name` header that
//! disagrees with the body is 400. `tools/list` lists only the tools the token's
//! scopes permit, marked `cacheScope: "private"` where the protocol version has it. A
//! token in the query string is refused (400), as are two `Authorization` headers.
//! Verified tokens are kept (at most 10 000, each until its expiry), so a call costs a
//! public-key operation only on a token's first use.
//!
//! # Over stdio
//!
//! The spec gives stdio no token: its credentials come from the environment. A
//! toolbox served without a verified caller refuses the tools that declare scopes,
//! and the handlers that take a [`Caller`], until the operator says what such a call
//! is ([`Toolbox::unverified_calls`](crate::Toolbox::unverified_calls)):
//! `Unverified::ignore_scopes_over_stdio()` (whoever started the server may call
//! everything), or `Unverified::As(caller)` with the caller named by the environment
//! ([`Caller::from_env`]), its scopes checked like a token's.
//!
//! [`Caller`]: crate::Caller
//! [`Caller::from_env`]: crate::Caller::from_env

mod fetch;
pub(super) mod gate;
mod jwt;

use std::fmt;
use std::sync::Arc;
use std::time::SystemTime;

pub use fetch::{BoxFuture, Fetch, PlainHttp};
pub use jsonwebtoken::Algorithm;
pub use jwt::JwtVerifier;

use crate::caller::{Caller, ToolScopes};

/// Verifies an access token: a JWT ([`JwtVerifier`]), an opaque token by
/// introspection, an API key. Give the caller it stands for, or why not.
///
/// ```
/// use mcp_tool::Caller;
/// use mcp_tool::http::auth::{BoxFuture, Rejected, TokenVerifier, Verified};
/// use std::time::{Duration, SystemTime};
///
/// /// One API key, for one service account.
/// struct ApiKey(String);
///
/// impl TokenVerifier for ApiKey {
///     fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Verified, Rejected>> {
///         Box::pin(async move {
///             if token != self.0 {
///                 return Err(Rejected::invalid("unknown key"));
///             }
///             let caller = Caller::new("reporting").with_scopes(["orders:read"]);
///             Ok(Verified { caller, expires: SystemTime::now() + Duration::from_secs(300) })
///         })
///     }
/// }
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// The caller `token` stands for, or why it is refused. Never put the token in the
    /// refusal: it is shown to the client and logged.
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Verified, Rejected>>;
}

/// A verified token: who it stands for, and until when (it is kept until then, so that
/// its next use costs no verification).
#[derive(Debug, Clone)]
pub struct Verified {
    /// Who calls.
    pub caller: Caller,
    /// When the token expires.
    pub expires: SystemTime,
}

/// Why a token is not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rejected {
    /// The token is malformed, expired, of another issuer, for another resource, or
    /// its signature does not verify: 401 `invalid_token`, with the reason.
    Invalid(String),
    /// It cannot be verified now (the issuer's keys cannot be read): 503, and nobody is
    /// let in until it can.
    Unavailable,
}

impl Rejected {
    /// An invalid token, for `reason` (which must not hold the token).
    pub fn invalid(reason: impl Into<String>) -> Self {
        Rejected::Invalid(reason.into())
    }
}

/// The HTTP server as a resource server: who verifies tokens, what this server is
/// called (its canonical URI, the audience its tokens name), its authorization
/// servers, and the scopes of its tools. Give it to
/// [`HttpServer::authorization`](super::HttpServer::authorization).
#[derive(Clone)]
pub struct Authorization {
    pub(super) verifier: Arc<dyn TokenVerifier>,
    pub(super) resource: String,
    pub(super) servers: Vec<String>,
    pub(super) scopes: ToolScopes,
    /// The scopes a 401 asks for, when the request is no call of a tool with scopes.
    pub(super) challenge: Option<Vec<String>>,
}

impl fmt::Debug for Authorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Authorization")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.servers)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl Authorization {
    /// Tokens verified by `verifier`, for `resource` (this server's canonical URI, such
    /// as `https://mcp.example.com/mcp`), issued by `authorization_server` (its issuer
    /// identifier).
    pub fn new(
        verifier: impl TokenVerifier,
        resource: impl Into<String>,
        authorization_server: impl Into<String>,
    ) -> Self {
        Authorization {
            verifier: Arc::new(verifier),
            resource: resource.into(),
            servers: vec![authorization_server.into()],
            scopes: ToolScopes::new(),
            challenge: None,
        }
    }

    /// Also names `issuer` as an authorization server in the metadata.
    pub fn also_server(mut self, issuer: impl Into<String>) -> Self {
        self.servers.push(issuer.into());
        self
    }

    /// The scopes each tool needs: [`Toolbox::tool_scopes`](crate::Toolbox::tool_scopes),
    /// or for rmcp methods the table given to `structured(..).with_scopes(..)`. A call
    /// of a tool without all of them gets 403; their union is `scopes_supported`.
    pub fn tool_scopes(mut self, scopes: ToolScopes) -> Self {
        self.scopes = scopes;
        self
    }

    /// The scopes a 401 asks for, unless it answers a call of a tool with scopes (then
    /// that tool's): by default every scope supported. Least privilege asks for fewer
    /// first, and lets a 403 ask for more when a call needs them.
    pub fn challenge_scopes<I>(mut self, scopes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.challenge = Some(scopes.into_iter().map(Into::into).collect());
        self
    }
}
