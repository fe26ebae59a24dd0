//! The gate every request to the endpoint passes when the server has an
//! [`Authorization`]: the token (one `Authorization: Bearer` header, none in the query),
//! verified or taken from the cache of verified tokens; then, the body read, the tools a
//! call names held against the token's scopes before anything reads their arguments.
//! It also serves the Protected Resource Metadata.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Mutex;
use std::time::SystemTime;

use base64::Engine as _;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::http::request::Parts;
use hyper::{Method, Request, Response, StatusCode, header};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::tokens::Tokens;
use super::{Authorization, Rejected};
use crate::caller::Caller;
use crate::serve::transport::jsonrpc;

/// The longest `Authorization` header read; a longer one is refused unread.
const MAX_HEADER: usize = 16 * 1024;

/// The well-known path of Protected Resource Metadata (RFC 9728).
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The JSON-RPC code of a refused request (implementation-defined server error).
const UNAUTHORIZED: i64 = -32001;

/// The JSON-RPC code of a header that disagrees with the body (2026-07-28).
const HEADER_MISMATCH: i64 = -32020;

type Answer = Response<BoxBody<Bytes, Infallible>>;

/// The scopes a tool declares, read from the handler served (`None`: no such tool, as
/// far as the handler says).
pub(in crate::serve::transport::http) type Declared =
    Box<dyn Fn(&str) -> Option<Vec<String>> + Send + Sync>;

/// The gate of one server.
pub(in crate::serve::transport::http) struct Gate {
    auth: Authorization,
    /// What each tool declares, asked of the handler once per tool it knows.
    declared: Declared,
    known: Mutex<HashMap<String, std::sync::Arc<[String]>>>,
    /// Every scope some tool needs, sorted: the metadata's `scopes_supported`.
    supported: Vec<String>,
    /// The metadata's URL, as challenges name it.
    metadata_url: String,
    /// The paths it is served at: under the endpoint's path, and the root.
    metadata_paths: [String; 2],
    document: Bytes,
    verified: Tokens,
}

impl Gate {
    /// The gate of `auth` for the endpoint at `endpoint`, the scopes of each tool read
    /// through `declared` (and the table of `auth`, which must agree with it: see
    /// [`Gate::contradiction`]); or why its verifier cannot work (the server does not
    /// start).
    pub fn new(auth: Authorization, endpoint: &str, declared: Declared) -> std::io::Result<Self> {
        auth.verifier
            .check()
            .map_err(|why| std::io::Error::new(std::io::ErrorKind::InvalidInput, why))?;
        let (origin, resource_path) = split_origin(&auth.resource);
        let metadata_url = format!("{origin}{WELL_KNOWN}{resource_path}");
        // A Toolbox says every scope its tools declare; an rmcp router cannot be asked
        // for its tools outside a request, so for one the scopes every `Parameters`
        // type of this process declares are taken.
        let declared_here = (declared)(crate::caller::ALL_SCOPES).unwrap_or_else(|| {
            (crate::caller::declared_scopes().into_iter())
                .map(str::to_owned)
                .collect()
        });
        let mut supported: Vec<String> = (declared_here.into_iter())
            .chain(auth.scopes.supported().into_iter().map(str::to_owned))
            .collect();
        supported.sort_unstable();
        supported.dedup();
        let document = json!({
            "resource": auth.resource,
            "authorization_servers": auth.servers,
            "scopes_supported": supported,
            "bearer_methods_supported": ["header"],
        });
        Ok(Gate {
            declared,
            known: Mutex::default(),
            supported,
            metadata_url,
            metadata_paths: [format!("{WELL_KNOWN}{endpoint}"), WELL_KNOWN.to_owned()],
            document: Bytes::from(document.to_string()),
            verified: Tokens::default(),
            auth,
        })
    }

    /// A tool of the table given to [`Authorization::tool_scopes`] whose scopes are not
    /// the ones its type declares: a server must not start with two answers to who may
    /// call a tool. The message names the tool and both.
    pub fn contradiction(&self) -> Option<String> {
        self.auth.scopes.iter().find_map(|(tool, table)| {
            let declared = (self.declared)(tool).unwrap_or_default();
            let mut written: Vec<&str> = table.to_vec();
            let mut own: Vec<&str> = declared.iter().map(String::as_str).collect();
            written.sort_unstable();
            own.sort_unstable();
            (!own.is_empty() && own != written).then(|| {
                format!(
                    "the scopes table gives the tool {tool:?} the scopes [{}], but its arguments' type declares [{}]; declare them in one place (#[mcp_tool(scopes(...))]) and leave the tool out of the table",
                    written.join(" "),
                    own.join(" "),
                )
            })
        })
    }

    /// The scopes a call of `tool` needs: those its type declares, and those the table
    /// of [`Authorization::tool_scopes`] gives it.
    fn needed(&self, tool: &str) -> std::sync::Arc<[String]> {
        if let Some(known) = self.known.lock().ok().and_then(|k| k.get(tool).cloned()) {
            return known;
        }
        let declared = (self.declared)(tool);
        let is_tool = declared.is_some();
        let mut needed = declared.unwrap_or_default();
        for scope in self.auth.scopes.of(tool) {
            if !needed.iter().any(|s| s == scope) {
                needed.push((*scope).to_owned());
            }
        }
        let needed: std::sync::Arc<[String]> = needed.into();
        // Only the handler's own tools are kept: a name a client makes up is asked
        // again, so that no caller can grow the map.
        if is_tool && let Ok(mut known) = self.known.lock() {
            known.insert(tool.to_owned(), std::sync::Arc::clone(&needed));
        }
        needed
    }

    /// The paths the metadata is served at.
    pub fn metadata_paths(&self) -> &[String] {
        &self.metadata_paths
    }

    /// The metadata, if `request` asks for it.
    pub fn metadata<B>(&self, request: &Request<B>) -> Option<Answer> {
        let path = request.uri().path();
        if !self.metadata_paths.iter().any(|p| p == path) {
            return None;
        }
        if request.method() != Method::GET {
            return Some(plain(StatusCode::METHOD_NOT_ALLOWED, "GET only"));
        }
        let mut response = Response::new(Full::new(self.document.clone()).boxed());
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/json"),
        );
        Some(response)
    }

    /// The caller of the request of `parts`, from its one bearer token, which is taken
    /// out of the headers (nothing after this gate sees it); or the refusal.
    pub async fn caller(&self, parts: &mut Parts) -> Result<Caller, Answer> {
        if let Some(query) = parts.uri.query()
            && query
                .split('&')
                .any(|pair| pair.split('=').next() == Some("access_token"))
        {
            return Err(self.refuse(
                StatusCode::BAD_REQUEST,
                Some((
                    "invalid_request",
                    "a token is sent in the Authorization header, never in the URL",
                )),
                None,
                None,
            ));
        }
        let mut headers = parts.headers.get_all(header::AUTHORIZATION).iter();
        let (first, second) = (headers.next(), headers.next());
        let value = match (first, second) {
            (None, _) => return Err(self.refuse(StatusCode::UNAUTHORIZED, None, None, None)),
            (Some(_), Some(_)) => {
                return Err(self.refuse(
                    StatusCode::BAD_REQUEST,
                    Some(("invalid_request", "send one Authorization header")),
                    None,
                    None,
                ));
            }
            (Some(value), None) => value,
        };
        let token = bearer(value.as_bytes()).ok_or_else(|| {
            self.refuse(
                StatusCode::UNAUTHORIZED,
                Some((
                    "invalid_token",
                    "the Authorization header is no Bearer token",
                )),
                None,
                None,
            )
        })?;
        let token = token.to_owned();
        parts.headers.remove(header::AUTHORIZATION);
        let verified = self
            .verify(&token)
            .await
            .map_err(|rejected| match rejected {
                Rejected::Invalid(reason) => self.refuse(
                    StatusCode::UNAUTHORIZED,
                    Some(("invalid_token", &reason)),
                    None,
                    None,
                ),
                Rejected::Unavailable => {
                    #[cfg(feature = "tracing")]
                    crate::serve::observe::refused(503, None, None, "");
                    unavailable()
                }
            })?;
        Ok(verified)
    }

    /// The verified caller of `token`, from the cache while it holds.
    async fn verify(&self, token: &str) -> Result<Caller, Rejected> {
        let key: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let now = SystemTime::now();
        if let Some(caller) = self.verified.get(&key, now) {
            return Ok(caller);
        }
        let verified = self.auth.verifier.verify(token).await?;
        let caller = verified.caller.clone();
        self.verified.keep(key, verified, now);
        Ok(caller)
    }

    /// Whether `caller` may make the request of `parts` with `body`: each tool it calls
    /// is held against the token's scopes, the name read from the body (and an
    /// `Mcp-Name` header, where sent, must agree with it). The refusal, if not.
    pub fn refusal(&self, parts: &Parts, body: &[u8], caller: &Caller) -> Option<Answer> {
        if parts.method != Method::POST {
            return None;
        }
        let called = called_tools(body);
        let header = parts.headers.get("mcp-name");
        if let Some(header) = header {
            let sent = header.to_str().ok().and_then(decode_header);
            let agrees = match (&sent, called.as_slice()) {
                (Some(sent), [one]) => sent == one,
                (Some(_), []) => true,
                _ => false,
            };
            if !agrees {
                let message =
                    "Bad Request: the Mcp-Name header does not match the tool named in the body.";
                return Some(json_answer(
                    StatusCode::BAD_REQUEST,
                    &jsonrpc::error(Value::Null, HEADER_MISMATCH, message),
                ));
            }
        }
        for tool in &called {
            let needed = self.needed(tool);
            let needed: Vec<&str> = needed.iter().map(String::as_str).collect();
            if !caller.has_scopes(&needed) {
                #[cfg(feature = "tracing")]
                crate::serve::observe::refused(
                    403,
                    Some(tool),
                    Some(caller.subject()),
                    &crate::caller::missing(caller, &needed).join(" "),
                );
                // Every scope the call needs, and those the token holds already: a client
                // that replaces its token with one of these scopes loses nothing it had.
                let asked: Vec<&str> = (self.supported.iter().map(String::as_str))
                    .filter(|s| needed.contains(s) || caller.has_scope(s))
                    .collect();
                return Some(self.refuse(
                    StatusCode::FORBIDDEN,
                    Some((
                        "insufficient_scope",
                        "the token does not grant every scope this tool needs",
                    )),
                    Some(&asked),
                    Some(tool),
                ));
            }
        }
        None
    }

    /// A 401, 403 or 400 with its `WWW-Authenticate` challenge: `error` (and its
    /// description), the scopes the request needs (`needed`, else those a new token
    /// should ask for), and where the metadata is.
    fn refuse(
        &self,
        status: StatusCode,
        error: Option<(&str, &str)>,
        needed: Option<&[&str]>,
        tool: Option<&str>,
    ) -> Answer {
        #[cfg(feature = "tracing")]
        if status != StatusCode::FORBIDDEN {
            crate::serve::observe::refused(
                status.as_u16(),
                tool,
                None,
                error.map_or("missing token", |(_, why)| why),
            );
        }
        let mut challenge = String::from("Bearer ");
        if let Some((code, description)) = error {
            challenge.push_str(&format!(
                "error=\"{code}\", error_description=\"{}\", ",
                quoted(description)
            ));
        }
        let scopes = match (needed, &self.auth.challenge) {
            (Some(needed), _) => needed.join(" "),
            (None, Some(challenge)) => challenge.join(" "),
            (None, None) => self.supported.join(" "),
        };
        if !scopes.is_empty() {
            challenge.push_str(&format!("scope=\"{scopes}\", "));
        }
        challenge.push_str(&format!("resource_metadata=\"{}\"", self.metadata_url));
        let message = match (status, tool) {
            (StatusCode::FORBIDDEN, Some(tool)) => format!(
                "Forbidden: the token may not call {tool}; ask the authorization server for a token with the scopes {scopes}."
            ),
            (StatusCode::BAD_REQUEST, _) => format!(
                "Bad Request: {}.",
                error.map_or("the request's authorization is malformed", |(_, d)| d)
            ),
            _ => format!(
                "Unauthorized: {}; the metadata at {} says where to get a token.",
                error.map_or("this server needs a bearer token", |(_, d)| d),
                self.metadata_url
            ),
        };
        let mut response =
            json_answer(status, &jsonrpc::error(Value::Null, UNAUTHORIZED, &message));
        if let Ok(value) = header::HeaderValue::from_str(&challenge) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// The token of `Bearer <token>` (RFC 6750 b64token), if that is what `value` is.
fn bearer(value: &[u8]) -> Option<&str> {
    if value.len() > MAX_HEADER {
        return None;
    }
    let value = std::str::from_utf8(value).ok()?;
    let (scheme, token) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let token = token.trim_start_matches(' ');
    let b64token = |c: char| c.is_ascii_alphanumeric() || "-._~+/=".contains(c);
    (!token.is_empty() && token.chars().all(b64token)).then_some(token)
}

/// The tools a request body calls: the `params.name` of each `tools/call` (one
/// message, or each of a batch). A body that is no JSON is rmcp's to refuse.
fn called_tools(body: &[u8]) -> Vec<String> {
    #[derive(Deserialize)]
    struct Message {
        method: Option<String>,
        params: Option<Params>,
    }
    #[derive(Deserialize)]
    struct Params {
        name: Option<Value>,
    }
    let name = |m: Message| -> Option<String> {
        if m.method.as_deref() != Some("tools/call") {
            return None;
        }
        // A call whose name is no string is malformed: rmcp refuses it, so no tool runs;
        // its text here only keeps the gate from reading it as no call at all.
        match m.params?.name? {
            Value::String(name) => Some(name),
            other => Some(other.to_string()),
        }
    };
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'[') {
        serde_json::from_slice::<Vec<Message>>(body)
            .map(|all| all.into_iter().filter_map(name).collect())
            .unwrap_or_default()
    } else {
        serde_json::from_slice::<Message>(body)
            .ok()
            .and_then(name)
            .into_iter()
            .collect()
    }
}

/// An `Mcp-Name` header's value: as sent, or Base64 between `=?base64?` and `?=`.
fn decode_header(value: &str) -> Option<String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(inner) => base64::engine::general_purpose::STANDARD
            .decode(inner)
            .ok()
            .and_then(|b| String::from_utf8(b).ok()),
        None => Some(value.to_owned()),
    }
}

/// A quoted-string's content: no `"` or `\` to end it early, and ASCII only (a header
/// value of other bytes would be refused, and the challenge lost with it).
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| {
            if !c.is_ascii() {
                '?'
            } else if c == '"' || c == '\\' || c.is_control() {
                '\''
            } else {
                c
            }
        })
        .collect()
}

/// `https://host:port` and `/path` of a URL.
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    }
}

fn unavailable() -> Answer {
    let message = "Service Unavailable: the authorization server's keys cannot be read now, so no token can be verified; try again shortly.";
    let mut response = json_answer(
        StatusCode::SERVICE_UNAVAILABLE,
        &jsonrpc::error(Value::Null, UNAUTHORIZED, message),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("30"));
    response
}

fn json_answer(status: StatusCode, body: &Value) -> Answer {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

fn plain(status: StatusCode, text: &'static str) -> Answer {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

/// When the event stream of a request by `caller` ends: when its token stops being
/// taken (its `exp`, with the leeway a verifier gives clocks not quite together), so
/// that a stream opened with a token does not outlive it. `None` for a token without
/// `exp` (a verifier of API keys, say): its stream ends only when the client or the
/// server ends it.
pub(in crate::serve::transport::http) fn stream_ends(caller: &Caller) -> Option<SystemTime> {
    let exp = caller.claims_map().get("exp")?.as_u64()?;
    std::time::UNIX_EPOCH
        .checked_add(std::time::Duration::from_secs(exp))?
        .checked_add(super::jwt::LEEWAY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bearer_token_is_read_and_nothing_else() {
        assert_eq!(bearer(b"Bearer abc.def-_~+/="), Some("abc.def-_~+/="));
        assert_eq!(bearer(b"bearer abc"), Some("abc"));
        assert_eq!(bearer(b"Basic abc"), None);
        assert_eq!(bearer(b"Bearer "), None);
        assert_eq!(bearer(b"Bearer a\"b"), None);
        assert_eq!(bearer(&[b'a'; MAX_HEADER + 1]), None);
    }

    #[test]
    fn the_called_tools_are_read_from_the_body() {
        let one = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"cancel_order","arguments":{"x":1}}}"#;
        assert_eq!(called_tools(one), ["cancel_order"]);
        let batch = br#"[{"method":"tools/list"},{"method":"tools/call","params":{"name":"a"}}]"#;
        assert_eq!(called_tools(batch), ["a"]);
        assert!(called_tools(b"{not json").is_empty());
        assert_eq!(
            decode_header("=?base64?Y2FuY2Vs?=").as_deref(),
            Some("cancel")
        );
    }
}
