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
    /// Who may call what, when the server authorizes (feature `auth`).
    #[cfg(feature = "auth")]
    pub gate: Option<super::auth::gate::Gate>,
}

impl Exchange {
    pub fn new<H: rmcp::ServerHandler>(
        service: StreamableHttpService<Arc<H>, LocalSessionManager>,
        path: String,
        limits: Limits,
    ) -> Self {
        let service = Arc::new(service);
        Exchange {
            handle: Box::new(move |request| {
                let service = Arc::clone(&service);
                Box::pin(async move { service.handle(request).await })
            }),
            path,
            limits,
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
        #[cfg_attr(not(feature = "auth"), expect(unused_mut))]
        let (mut parts, body) = request.into_parts();
        #[cfg(feature = "auth")]
        let caller = match &self.gate {
            Some(gate) => match gate.caller(&mut parts).await {
                Ok(caller) => Some(caller),
                Err(refused) => return closing(refused),
            },
            None => None,
        };
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
        #[cfg(feature = "auth")]
        if let (Some(gate), Some(caller)) = (&self.gate, caller) {
            if let Some(refused) = gate.refusal(&parts, &body, &caller) {
                return refused;
            }
            parts.extensions.insert(caller);
        }
        let kept = body.clone();
        let is_json = is_json(&parts.headers);
        let response = (self.handle)(Request::from_parts(parts, Full::new(body))).await;
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
