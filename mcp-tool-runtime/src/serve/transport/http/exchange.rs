//! One HTTP request to the MCP endpoint, from its body to rmcp's answer: the body read
//! whole within its time and size, handed to rmcp's Streamable HTTP service, and a body
//! rmcp could not read as a JSON-RPC message answered the way JSON-RPC says (rmcp
//! answers it with 415 and a line of plain text, which no client shows as an error).

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::{Request, Response, StatusCode, header};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;

use super::Limits;
use super::sessions::{self, Sessions};
use crate::serve::rmcp::waiting::Waiters;
use crate::serve::transport::jsonrpc;

/// The service behind rmcp's transport, type-erased: the exchange does not depend on
/// the handler's type.
type Handle = dyn Fn(
        Request<Full<Bytes>>,
    ) -> Pin<Box<dyn Future<Output = Response<BoxBody<Bytes, Infallible>>> + Send>>
    + Send
    + Sync;

/// What answers the requests of every connection.
pub(super) struct Exchange {
    handle: Box<Handle>,
    path: String,
    limits: Limits,
    /// The sessions of protocol 2025-11-25: who opened each, and where they are kept.
    sessions: Sessions,
    /// rmcp's sessions in this process, for an answer handed over by another replica.
    #[cfg_attr(not(feature = "redis"), expect(dead_code))]
    manager: Arc<LocalSessionManager>,
    /// Whether this process listens for answers handed over (started with the first
    /// request, in the runtime that serves).
    #[cfg_attr(not(feature = "redis"), expect(dead_code))]
    listening: std::sync::Once,
    /// Whether this process is subscribed to the answers handed over (set by the
    /// listener, which keeps it while subscribed).
    #[cfg(feature = "redis")]
    subscribed: Arc<tokio::sync::watch::Sender<bool>>,
    /// The questions asked in this endpoint's sessions, awaiting answers.
    waiters: Arc<Waiters>,
    /// Who may call what, when the server authorizes (feature `auth`).
    #[cfg(feature = "auth")]
    pub gate: Option<super::auth::gate::Gate>,
}

impl Exchange {
    pub fn new<H: rmcp::ServerHandler>(
        service: StreamableHttpService<Arc<H>, LocalSessionManager>,
        path: String,
        limits: Limits,
        sessions: Sessions,
        manager: Arc<LocalSessionManager>,
    ) -> Self {
        let service = Arc::new(service);
        Exchange {
            handle: Box::new(move |request| {
                let service = Arc::clone(&service);
                Box::pin(async move { service.handle(request).await })
            }),
            path,
            limits,
            sessions,
            manager,
            listening: std::sync::Once::new(),
            #[cfg(feature = "redis")]
            subscribed: Arc::new(tokio::sync::watch::channel(false).0),
            waiters: Arc::default(),
            #[cfg(feature = "auth")]
            gate: None,
        }
    }

    /// The paths answered: the endpoint's, and the metadata's where there is a gate.
    pub fn paths(&self) -> Vec<String> {
        #[cfg_attr(not(feature = "auth"), expect(unused_mut))]
        let mut paths = vec![self.path.clone()];
        #[cfg(feature = "auth")]
        if let Some(gate) = &self.gate {
            paths.extend(gate.metadata_paths().iter().cloned());
        }
        paths
    }

    /// The response to `request`, whose body is read here within the limits (a
    /// connection of [`super::HttpServer`]'s, or of the application that mounted the
    /// [`super::Endpoint`]).
    pub async fn respond<B>(&self, request: Request<B>) -> Response<BoxBody<Bytes, Infallible>>
    where
        B: hyper::body::Body<Data = Bytes>,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        #[cfg(feature = "auth")]
        if let Some(metadata) = self.gate.as_ref().and_then(|g| g.metadata(&request)) {
            return metadata;
        }
        if request.uri().path() != self.path {
            return plain(
                StatusCode::NOT_FOUND,
                format!("Not Found: MCP is served at {}", self.path),
            );
        }
        let (mut parts, body) = request.into_parts();
        #[cfg(feature = "auth")]
        let caller = match &self.gate {
            Some(gate) => match gate.caller(&mut parts).await {
                Ok(caller) => Some(caller),
                Err(refused) => return closing(refused),
            },
            None => None,
        };
        #[cfg(feature = "auth")]
        let stream_ends = caller.as_ref().and_then(super::auth::gate::stream_ends);
        let limit = self.limits.max_body;
        let read = Limited::new(body, limit).collect();
        let body = match tokio::time::timeout(self.limits.body_timeout, read).await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(e)) if e.is::<LengthLimitError>() => {
                let message = format!(
                    "Invalid Request: the body has more than {limit} bytes, the most this server reads. It was not read; send a smaller one."
                );
                return refusal(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    jsonrpc::INVALID_REQUEST,
                    &message,
                );
            }
            Ok(Err(e)) => {
                let message = format!("Invalid Request: the body could not be read ({e}).");
                return refusal(StatusCode::BAD_REQUEST, jsonrpc::INVALID_REQUEST, &message);
            }
            Err(_) => {
                let message = format!(
                    "Invalid Request: the body did not arrive whole within {} seconds.",
                    self.limits.body_timeout.as_secs_f64()
                );
                return refusal(
                    StatusCode::REQUEST_TIMEOUT,
                    jsonrpc::INVALID_REQUEST,
                    &message,
                );
            }
        };
        #[cfg_attr(not(feature = "auth"), expect(unused_mut))]
        let mut subject = None;
        #[cfg(feature = "auth")]
        if let (Some(gate), Some(caller)) = (&self.gate, caller) {
            if let Some(refused) = gate.refusal(&parts, &body, &caller) {
                return refused;
            }
            subject = Some(caller.subject().to_owned());
            parts.extensions.insert(caller);
        }
        let session = parts
            .headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let Some(session) = &session
            && let Some(refused) = self.foreign_session(session, subject.as_deref()).await
        {
            return refused;
        }
        #[cfg(feature = "redis")]
        if let Some(session) = &session
            && let Some(handed) = self.hand_over(&parts, session, &body).await
        {
            return handed;
        }
        // For a call that asks its user within it: it says here that it waits.
        parts.extensions.insert(Arc::clone(&self.waiters));
        let kept = body.clone();
        let is_json = is_json(&parts.headers);
        let request = Request::from_parts(parts, Full::new(body));
        let response = sessions::answering(subject, (self.handle)(request)).await;
        // An event stream opened with a token ends when the token does.
        #[cfg(feature = "auth")]
        let response = match stream_ends {
            Some(ends) if is_event_stream(response.headers()) => response.map(|body| {
                let left = ends
                    .duration_since(std::time::SystemTime::now())
                    .unwrap_or_default();
                Until {
                    body,
                    ends: Box::pin(tokio::time::sleep(left)),
                }
                .boxed()
            }),
            _ => response,
        };
        // rmcp answers 415 to a body of the right Content-Type that it cannot read as a
        // message (and to a wrong Content-Type, which is a 415 indeed).
        if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE
            && is_json
            && let Err(e) = serde_json::from_slice::<ClientJsonRpcMessage>(&kept)
        {
            return json(
                StatusCode::BAD_REQUEST,
                &jsonrpc::unreadable(&kept, &e.to_string()),
            );
        }
        if crate::serve::rmcp::tasked::lists_tools(&kept) {
            return with_executions(response);
        }
        response
    }
}

impl Exchange {
    /// The refusal of a request in the session `id` by `subject` (`None`: no verified
    /// caller), if another subject opened it: 404, as rmcp answers a session it does
    /// not know, so that a session's id opens nothing to anyone else. Without
    /// authorization there is no subject to bind.
    async fn foreign_session(
        &self,
        id: &str,
        subject: Option<&str>,
    ) -> Option<Response<BoxBody<Bytes, Infallible>>> {
        let subject = subject?;
        match self.sessions.opener(id).await {
            Ok(Some(Some(opener))) if opener == subject => None,
            // Unknown to the book, opened by another, or by nobody verified.
            Ok(_) => Some(plain(
                StatusCode::NOT_FOUND,
                "Not Found: Session not found".into(),
            )),
            Err(_why) => {
                #[cfg(feature = "tracing")]
                tracing::error!(target: "mcp_tool", error = %_why, "the book of sessions could not be read: requests in a session are refused (503) until it can");
                let mut response = plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Service Unavailable: the server's sessions cannot be read now; try again shortly.".into(),
                );
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
                Some(response)
            }
        }
    }

    /// A client's answer in the session `id` to a question this process did not ask
    /// (another replica did, and waits for it), handed over through the shared book:
    /// 202, as rmcp answers an answer. `None` for any other request.
    #[cfg(feature = "redis")]
    async fn hand_over(
        &self,
        parts: &hyper::http::request::Parts,
        id: &str,
        body: &Bytes,
    ) -> Option<Response<BoxBody<Bytes, Infallible>>> {
        if parts.method != hyper::Method::POST || !self.sessions.shared() {
            return None;
        }
        self.listen();
        // A question this request asks may be answered through another replica, which
        // publishes the answer once: Redis keeps nothing for a subscriber yet to
        // subscribe, so the request waits (the first one, a moment) until this process
        // listens. If it cannot within SUBSCRIBE_WITHIN, the request goes on: an answer
        // through this replica still arrives, one through another would be lost.
        let mut subscribed = self.subscribed.subscribe();
        let _ = tokio::time::timeout(SUBSCRIBE_WITHIN, subscribed.wait_for(|s| *s)).await;
        let message: Value = serde_json::from_slice(body).ok()?;
        let is_answer = message.get("method").is_none()
            && (message.get("result").is_some() || message.get("error").is_some());
        let request = message.get("id")?.to_string();
        if !is_answer || self.waiters.waits_for(id, &request) {
            return None;
        }
        if self.sessions.hand_over(id, &message).await.is_err() {
            return Some(plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service Unavailable: the answer could not be handed to the server that asked; send it again shortly.".into(),
            ));
        }
        let mut response = plain(StatusCode::ACCEPTED, String::new());
        *response.status_mut() = StatusCode::ACCEPTED;
        Some(response)
    }

    /// Starts listening for answers other replicas hand over, once.
    #[cfg(feature = "redis")]
    fn listen(&self) {
        self.listening.call_once(|| {
            let manager = Arc::clone(&self.manager);
            let waiters = Arc::clone(&self.waiters);
            let subscribed = Arc::clone(&self.subscribed);
            sessions::listen(
                &self.sessions,
                waiters,
                subscribed,
                move |session, answer| {
                    let manager = Arc::clone(&manager);
                    Box::pin(async move {
                        use rmcp::transport::streamable_http_server::session::SessionManager as _;
                        if let Ok(message) = serde_json::from_value::<ClientJsonRpcMessage>(answer)
                        {
                            let _ = manager.accept_message(&session.into(), message).await;
                        }
                    })
                },
            );
        });
    }
}

/// Whether a response is an event stream (it may stay open).
#[cfg(feature = "auth")]
fn is_event_stream(headers: &hyper::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"))
}

/// A response body that ends when `ends` does, whatever is still to come.
#[cfg(feature = "auth")]
struct Until {
    body: BoxBody<Bytes, Infallible>,
    ends: Pin<Box<tokio::time::Sleep>>,
}

#[cfg(feature = "auth")]
impl hyper::body::Body for Until {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
        if self.ends.as_mut().poll(cx).is_ready() {
            return std::task::Poll::Ready(None);
        }
        Pin::new(&mut self.body).poll_frame(cx)
    }
}

/// How long a request in a shared session waits for this process to listen for the
/// answers handed over (see `Exchange::hand_over`).
#[cfg(feature = "redis")]
const SUBSCRIBE_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

/// A `tools/list` answer with each tool's `execution` where clients read it (see
/// `tasked::executions_onto`), frame by frame: a JSON body, or an event stream's
/// events, each whole in a frame of rmcp's.
fn with_executions(
    response: Response<BoxBody<Bytes, Infallible>>,
) -> Response<BoxBody<Bytes, Infallible>> {
    let (mut parts, body) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = body.map_frame(|frame| match frame.into_data() {
        Ok(data) => hyper::body::Frame::data(executions_in(data)),
        Err(frame) => frame,
    });
    Response::from_parts(parts, body.boxed())
}

/// `data`, a JSON message or events whose `data:` lines are, with the executions moved.
fn executions_in(data: Bytes) -> Bytes {
    let marker = crate::serve::rmcp::tasked::EXECUTION_META.as_bytes();
    if !data.windows(marker.len()).any(|w| w == marker) {
        return data;
    }
    let Ok(text) = std::str::from_utf8(&data) else {
        return data;
    };
    let moved = |json: &str| -> Option<String> {
        let mut message: Value = serde_json::from_str(json).ok()?;
        crate::serve::rmcp::tasked::executions_onto(&mut message);
        Some(message.to_string())
    };
    if let Some(whole) = moved(text) {
        return Bytes::from(whole);
    }
    let lines: Vec<String> =
        text.split('\n')
            .map(|line| match line.strip_prefix("data:") {
                Some(json) => moved(json.trim_start())
                    .map_or_else(|| line.to_owned(), |m| format!("data: {m}")),
                None => line.to_owned(),
            })
            .collect();
    Bytes::from(lines.join("\n"))
}

fn is_json(headers: &hyper::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// A JSON-RPC error (`id` null) with `status`, and the connection closed after it: its
/// request was not read whole.
fn refusal(status: StatusCode, code: i64, message: &str) -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = json(status, &jsonrpc::error(Value::Null, code, message));
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

/// `response`, and the connection closed after it: its request's body was not read.
#[cfg(feature = "auth")]
fn closing(
    mut response: Response<BoxBody<Bytes, Infallible>>,
) -> Response<BoxBody<Bytes, Infallible>> {
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

fn json(status: StatusCode, body: &Value) -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

fn plain(status: StatusCode, text: String) -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
    *response.status_mut() = status;
    response
}
