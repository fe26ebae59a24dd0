//! Who calls a tool: the [`Caller`] a transport verified (an OAuth access token over
//! HTTP, feature `auth`) or an operator named (stdio takes its credentials from the
//! environment), and what a tool's declared scopes ask of it.
//!
//! A handler receives it by taking it as a parameter (see [`Toolbox::tool`]), and
//! refuses a call it may not make with [`ToolError::permission`]: the `permission`
//! category of the error contract.
//!
//! [`Toolbox::tool`]: crate::Toolbox::tool

use std::fmt;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::result::ToolError;

/// Who is calling: the subject (the user, or the client acting for itself), the OAuth
/// client, the scopes granted, and the token's other claims. Never the token itself: a
/// handler that had it could pass it on, which MCP forbids (a token is for this server).
///
/// ```
/// use mcp_tool::{Caller, ToolError};
/// use serde::Deserialize;
///
/// #[derive(Deserialize)]
/// struct Claims {
///     tenant: String,
/// }
///
/// let caller = Caller::new("alice")
///     .with_client_id("desk-app")
///     .with_scopes(["orders:read"])
///     .with_claims(serde_json::json!({"tenant": "acme"}).as_object().unwrap().clone());
/// assert_eq!(caller.subject(), "alice");
/// assert!(caller.has_scope("orders:read"));
/// let claims: Claims = caller.claims()?;
/// assert_eq!(claims.tenant, "acme");
/// # Ok::<(), ToolError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct Caller {
    inner: Arc<Inner>,
}

#[derive(Clone, PartialEq)]
struct Inner {
    subject: String,
    client_id: Option<String>,
    scopes: Vec<String>,
    claims: Map<String, Value>,
}

impl Caller {
    /// A caller named `subject`, with no client, no scopes and no other claims.
    pub fn new(subject: impl Into<String>) -> Self {
        Caller {
            inner: Arc::new(Inner {
                subject: subject.into(),
                client_id: None,
                scopes: Vec::new(),
                claims: Map::new(),
            }),
        }
    }

    /// The OAuth client the caller uses (`client_id`, or `azp`).
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.inner).client_id = Some(client_id.into());
        self
    }

    /// The scopes granted to the caller.
    pub fn with_scopes<I>(mut self, scopes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Arc::make_mut(&mut self.inner).scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The token's other claims (a JWT's payload), read by [`Caller::claims`].
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        Arc::make_mut(&mut self.inner).claims = claims;
        self
    }

    /// A caller named by the process's environment (`var` holds the subject), for a
    /// server over stdio: the spec says stdio takes its credentials from the
    /// environment. `None` if `var` is unset or empty.
    pub fn from_env(var: &str) -> Option<Self> {
        std::env::var(var)
            .ok()
            .filter(|s| !s.is_empty())
            .map(Caller::new)
    }

    /// The subject: who the call is for (a JWT's `sub`).
    pub fn subject(&self) -> &str {
        &self.inner.subject
    }

    /// The OAuth client, if the token names one.
    pub fn client_id(&self) -> Option<&str> {
        self.inner.client_id.as_deref()
    }

    /// The scopes granted.
    pub fn scopes(&self) -> &[String] {
        &self.inner.scopes
    }

    /// Whether `scope` is granted.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.inner.scopes.iter().any(|s| s == scope)
    }

    /// Whether every one of `needed` is granted.
    pub fn has_scopes(&self, needed: &[&str]) -> bool {
        needed.iter().all(|s| self.has_scope(s))
    }

    /// The token's claims, every one (`sub`, `scope`, `aud` and the rest), as they came.
    pub fn claims_map(&self) -> &Map<String, Value> {
        &self.inner.claims
    }

    /// The token's claims read into the author's own type. A claim the type needs and
    /// the token lacks is the server's mistake, not the model's: an `unexpected` error,
    /// its cause kept in the server's log.
    pub fn claims<C: DeserializeOwned>(&self) -> Result<C, ToolError> {
        C::deserialize(Value::Object(self.inner.claims.clone())).map_err(|e| {
            ToolError::unexpected(format!(
                "the caller's token lacks a claim this tool reads: {e}"
            ))
        })
    }
}

/// The subject only: the claims may hold personal data, and a caller is printed in logs.
impl fmt::Debug for Caller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Caller")
            .field("subject", &self.inner.subject)
            .field("client_id", &self.inner.client_id)
            .field("scopes", &self.inner.scopes)
            .finish_non_exhaustive()
    }
}

/// What a call that comes with no verified caller is served as (stdio; HTTP without
/// the `auth` feature): a choice the operator states, since the spec gives stdio no
/// token to read scopes from. Set with [`Toolbox::unverified_calls`].
///
/// By default ([`Unverified::Refused`]) a tool that declares scopes, or a handler that
/// takes a [`Caller`], is refused such a call (a `permission` error); tools without
/// either run as always.
///
/// [`Toolbox::unverified_calls`]: crate::Toolbox::unverified_calls
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub enum Unverified {
    /// Tools with scopes and handlers that take a caller are refused (the default).
    #[default]
    Refused,
    /// Scopes are not checked: whoever can reach the server (over stdio, whoever
    /// started it) may call every tool. A handler that takes a caller is still refused.
    ScopesIgnored,
    /// Every such call is this caller's, its scopes checked as a token's would be: the
    /// user the operator runs the server for (see [`Caller::from_env`]).
    As(Caller),
}

impl Unverified {
    /// Over stdio, the tools' scopes are not checked: the operator says so.
    pub fn ignore_scopes_over_stdio() -> Self {
        Unverified::ScopesIgnored
    }
}

/// The scopes of `needed` that `caller` lacks.
#[cfg(all(feature = "auth", feature = "tracing"))]
pub(crate) fn missing<'a>(caller: &Caller, needed: &[&'a str]) -> Vec<&'a str> {
    needed
        .iter()
        .copied()
        .filter(|s| !caller.has_scope(s))
        .collect()
}

/// The refusal of a call whose caller lacks some of the tool's scopes (`needed`, every
/// one, so that the client asks for them all at once).
pub(crate) fn insufficient_scope(tool: &str, needed: &[&str]) -> ToolError {
    ToolError::permission(format!(
        "The caller may not call {tool}: it needs the scopes {}, and the token does not grant them all. Nothing was done.",
        needed.join(" ")
    ))
    .with_hint("Tell the user this needs a wider authorization; the client can ask the authorization server for a token with those scopes.")
}

/// The refusal of a call that needs to know its caller, when none was verified.
pub(crate) fn no_caller(tool: &str, scoped: bool) -> ToolError {
    let why = if scoped {
        "it declares the scopes a caller needs"
    } else {
        "it acts for its caller"
    };
    ToolError::permission(format!(
        "{tool} runs only for a verified caller ({why}), and this call came without one. Nothing was done."
    ))
    .with_hint("Tell the user; the server's operator decides who may call it (an HTTP server with authorization, or a caller named over stdio).")
}

/// Whether a call of a tool that declares `scopes`, by `caller` (or none, served under
/// `unverified`), may go on; the caller it runs as.
pub(crate) fn admit(
    tool: &str,
    scopes: &[&str],
    caller: Option<&Caller>,
    unverified: &Unverified,
) -> Result<Option<Caller>, ToolError> {
    let caller = match (caller, unverified) {
        (Some(caller), _) | (None, Unverified::As(caller)) => caller,
        (None, Unverified::ScopesIgnored) => return Ok(None),
        (None, Unverified::Refused) if scopes.is_empty() => return Ok(None),
        (None, Unverified::Refused) => return Err(no_caller(tool, true)),
    };
    if caller.has_scopes(scopes) {
        Ok(Some(caller.clone()))
    } else {
        Err(insufficient_scope(tool, scopes))
    }
}

/// Whether a tool that declares `scopes` is listed to `caller` (or to a call without
/// one, served under `unverified`): exactly when a call of it would be let in.
pub(crate) fn permits(scopes: &[&str], caller: Option<&Caller>, unverified: &Unverified) -> bool {
    match (caller, unverified) {
        (Some(caller), _) | (None, Unverified::As(caller)) => caller.has_scopes(scopes),
        (None, Unverified::ScopesIgnored) => true,
        (None, Unverified::Refused) => scopes.is_empty(),
    }
}

/// The scopes each tool of a server declares, by the tool's name: what a transport
/// checks a token against before the call's arguments are read, and whose union it
/// advertises (`scopes_supported`). A [`Toolbox`] gives its own
/// ([`Toolbox::tool_scopes`]); for rmcp `#[tool]` methods served through
/// `mcp_tool::rmcp::structured` (feature `rmcp`), it is the table given to
/// `Structured::scopes`.
///
/// ```
/// use mcp_tool::ToolScopes;
///
/// let scopes = ToolScopes::from_table(&[
///     ("find_order", &["orders:read"]),
///     ("cancel_order", &["orders:read", "orders:write"]),
/// ]);
/// assert_eq!(scopes.of("cancel_order"), ["orders:read", "orders:write"]);
/// assert!(scopes.of("ping").is_empty());
/// assert_eq!(scopes.supported(), ["orders:read", "orders:write"]);
/// ```
///
/// [`Toolbox`]: crate::Toolbox
/// [`Toolbox::tool_scopes`]: crate::Toolbox::tool_scopes
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolScopes {
    tools: Vec<(String, Vec<&'static str>)>,
}

/// A table of each tool's name and the scopes it needs, every one.
pub type ScopeTable = [(&'static str, &'static [&'static str])];

impl ToolScopes {
    /// No tool declares a scope.
    pub fn new() -> Self {
        ToolScopes::default()
    }

    /// The scopes of `table`. A scope that is no RFC 6749 scope-token (empty, a space,
    /// `"`, `\` or other than printable ASCII) or is `offline_access` is a mistake of the
    /// server's code, found at its start.
    ///
    /// # Panics
    ///
    /// On such a scope, naming it and its tool.
    pub fn from_table(table: &ScopeTable) -> Self {
        let mut scopes = ToolScopes::new();
        for (tool, needed) in table {
            scopes = scopes.tool(tool, needed);
        }
        scopes
    }

    /// Adds the tool `name`, which needs every one of `scopes`.
    ///
    /// # Panics
    ///
    /// As [`ToolScopes::from_table`].
    pub fn tool(mut self, name: &str, scopes: &'static [&'static str]) -> Self {
        for scope in scopes {
            assert!(
                is_scope_token(scope),
                "mcp-tool: the scope {scope:?} of the tool {name:?} is no RFC 6749 scope-token \
                 (printable ASCII without space, `\"` or `\\`), or is offline_access, which \
                 grants nothing at a resource"
            );
        }
        self.tools.retain(|(n, _)| n != name);
        self.tools.push((name.to_owned(), scopes.to_vec()));
        self
    }

    /// The scopes the tool `name` needs (empty: none, or no such tool).
    pub fn of(&self, name: &str) -> &[&'static str] {
        self.tools
            .iter()
            .find(|(n, _)| n == name)
            .map_or(&[], |(_, s)| s.as_slice())
    }

    /// Each tool the table names, and its scopes.
    #[cfg(feature = "auth")]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &[&'static str])> {
        self.tools.iter().map(|(n, s)| (n.as_str(), s.as_slice()))
    }

    /// Every scope some tool needs, sorted, once each: a server's `scopes_supported`.
    pub fn supported(&self) -> Vec<&'static str> {
        let mut all: Vec<&'static str> = self
            .tools
            .iter()
            .flat_map(|(_, s)| s.iter().copied())
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// The key under which a tool's declared scopes travel in its input schema from the
/// argument type to the transport, on routes where nothing else carries them: rmcp's
/// `#[tool]` macro builds a method's tool from its `Parameters` type's schema alone.
/// Written by this crate only, read and taken out again before any list is sent.
#[cfg(feature = "rmcp")]
pub(crate) const SCOPES_KEY: &str = "x-mcp-tool-scopes";

/// The name under which a [`Toolbox`]'s `get_tool` answers with every scope its tools
/// declare (under [`SCOPES_KEY`]), for the HTTP gate's `scopes_supported`: a name no
/// tool can have (a NUL is no character of a tool's name, nor of an HTTP header).
///
/// [`Toolbox`]: crate::Toolbox
#[cfg(feature = "rmcp")]
pub(crate) const ALL_SCOPES: &str = "\0mcp-tool/scopes";

/// Every scope declared by a tool this process registered (a [`Toolbox`]'s tools, an
/// rmcp router's `Parameters` types): what a resource server supports when no table
/// names them. Scopes are few and `'static`; the set only grows.
///
/// [`Toolbox`]: crate::Toolbox
static DECLARED: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

/// Notes the scopes a tool declares (see [`declared_scopes`]).
pub(crate) fn declare(scopes: &'static [&'static str]) {
    if scopes.is_empty() {
        return;
    }
    let mut declared = DECLARED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for scope in scopes {
        if !declared.contains(scope) {
            declared.push(scope);
        }
    }
}

/// Every scope a tool of this process declares, sorted, once each.
#[cfg(feature = "auth")]
pub(crate) fn declared_scopes() -> Vec<&'static str> {
    let mut all = DECLARED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    all.sort_unstable();
    all
}

/// The scopes a tool's input schema carries under [`SCOPES_KEY`] (none: it declares
/// none, or was not built by this crate).
#[cfg(feature = "rmcp")]
pub(crate) fn scopes_in_schema(schema: &Map<String, Value>) -> Vec<String> {
    match schema.get(SCOPES_KEY) {
        Some(Value::Array(scopes)) => scopes
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// `schema` with `scopes` under [`SCOPES_KEY`] (unchanged for none).
#[cfg(feature = "rmcp")]
pub(crate) fn with_scopes_in_schema(schema: &mut Map<String, Value>, scopes: &[&str]) {
    if !scopes.is_empty() {
        schema.insert(SCOPES_KEY.to_owned(), Value::from(scopes.to_vec()));
    }
}

/// RFC 6749's scope-token, and not `offline_access`.
pub(crate) fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope != "offline_access"
        && scope
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\')
}
