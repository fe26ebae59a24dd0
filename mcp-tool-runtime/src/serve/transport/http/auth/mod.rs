//! Authorization (feature `auth`): the HTTP server as an OAuth 2.1 resource server,
//! as MCP's authorization spec asks, with the scopes each tool declares
//! (`#[mcp_tool(scopes(...))]`).
//!
//! The server is given its authorization server and its canonical URI (tokens are
//! verified by the built-in [`JwtVerifier`]; [`Authorization::new`] takes a
//! [`TokenVerifier`] of your own, for opaque tokens or API keys). The scopes are those
//! each tool's arguments type declares (`#[mcp_tool(scopes(...))]`): nothing else
//! names them.
//!
//! ```no_run
//! # async fn run(tools: mcp_tool::Toolbox) -> std::io::Result<()> {
//! use mcp_tool::http::auth::Authorization;
//!
//! let auth = Authorization::jwt("https://auth.example.com", "https://mcp.example.com/mcp");
//! mcp_tool::http::HttpServer::new()
//!     .allow_host("mcp.example.com")
//!     .authorization(auth)
//!     .serve(tools, "0.0.0.0:8080")
//!     .await
//! # }
//! ```
//!
//! Every request to the endpoint then needs a bearer token (401 with a challenge that
//! leads to the Protected Resource Metadata, served at
//! `/.well-known/oauth-protected-resource/mcp` and at the root), each `tools/call` the
//! scopes its tool declares (403 `insufficient_scope` naming them all, before the
//! arguments are read), and `tools/list` shows each token only its tools. A handler
//! gets the verified [`Caller`], never the token.
//!
//! An `https://` issuer is read over TLS with the feature `https` (or through a
//! [`Fetch`] of your own); without it, or with a plain `http://` issuer off loopback,
//! the server refuses to start ([`TokenVerifier::check`]).
//!
//! The whole of it, with the 401, the 403 and the metadata as they are on the wire,
//! rmcp's `#[tool]` methods and what declared scopes mean over stdio, is the manual's
//! page "Who may call what" (`mcp_tool::manual::authorization`).
//!
//! [`Caller`]: crate::Caller

mod claims;
mod fetch;
pub(super) mod gate;
mod issuer;
mod jwk;
mod jwt;
mod tokens;

use std::fmt;
use std::sync::Arc;
use std::time::SystemTime;

pub use fetch::{BoxFuture, Document, Fetch, PlainHttp};
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

    /// Whether the verifier can work as it was set up, asked once when the HTTP server
    /// starts: an error stops [`HttpServer::serve`](super::HttpServer::serve) before it
    /// serves, with this text (the built-in [`JwtVerifier`] refuses an issuer it cannot
    /// read safely). By default, yes.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// A verified token: who it stands for, and until when (it is kept until then, so that
/// its next use costs no verification): its expiry, or sooner where the verifier
/// wants to verify it again (the built-in [`JwtVerifier`] does when the keys that
/// verified it are to be read again).
#[derive(Debug, Clone)]
pub struct Verified {
    /// Who calls.
    pub caller: Caller,
    /// When the token expires, or is to be verified again.
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

    /// JWT access tokens of `issuer` (its identifier, as its metadata and the tokens'
    /// `iss` say) for `resource` (this server's canonical URI, such as
    /// `https://mcp.example.com/mcp`, the audience its tokens name), verified by the
    /// built-in [`JwtVerifier`]; `issuer` is the authorization server the metadata
    /// names. Each URI is written once:
    ///
    /// ```
    /// use mcp_tool::http::auth::{Authorization, JwtVerifier};
    ///
    /// let auth = Authorization::jwt("https://auth.example.com", "https://mcp.example.com/mcp");
    /// // The same as, each URI twice:
    /// let resource = "https://mcp.example.com/mcp";
    /// let issuer = "https://auth.example.com";
    /// let same = Authorization::new(JwtVerifier::new(issuer, resource), resource, issuer);
    /// # let _ = (auth, same);
    /// ```
    pub fn jwt(issuer: impl Into<String>, resource: impl Into<String>) -> Self {
        let (issuer, resource) = (issuer.into(), resource.into());
        Authorization::new(JwtVerifier::new(&issuer, &resource), resource, issuer)
    }

    /// Also names `issuer` as an authorization server in the metadata.
    pub fn also_server(mut self, issuer: impl Into<String>) -> Self {
        self.servers.push(issuer.into());
        self
    }

    /// More scopes, by tool name, for tools whose scopes no type declares (an rmcp
    /// method that takes no arguments, a handler of your own). Not needed for the rest:
    /// the server reads the scopes each tool's arguments type declares
    /// (`#[mcp_tool(scopes(...))]`), of a [`Toolbox`](crate::Toolbox)'s tools and of an
    /// rmcp router's `Parameters` types alike. A call of a tool without all of its
    /// scopes gets 403; their union is `scopes_supported`. A table that gives a tool
    /// other scopes than its type declares stops the server at its start, naming the
    /// tool: one tool, one answer.
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
