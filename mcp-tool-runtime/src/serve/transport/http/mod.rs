//! Serving over MCP Streamable HTTP (feature `http`), safe by default: rmcp's transport
//! on connections accepted and watched here (see [`HttpServer`]'s limits), with the
//! `Host` and `Origin` of every request limited to loopback unless allowed. The spec's
//! transport section says a server MUST validate `Origin` and answer 403 to a present,
//! invalid one: without it, any web page the user opens can call a server on their
//! machine (DNS rebinding). rmcp checks `Host` by default but leaves the
//! `Origin` list empty, which turns that check off; here both are on.

#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub mod auth;
mod conn;
mod exchange;
mod per_caller;
pub(crate) mod sessions;

pub use sessions::Sessions;

use std::future::Future;
use std::io;
#[cfg(feature = "tracing")]
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use conn::Connections;
use http_body_util::combinators::BoxBody;

use exchange::Exchange;
use per_caller::PerCaller;

/// The hosts a loopback server answers to (with or without a port).
const LOOPBACK_HOSTS: &[&str] = &["localhost", "127.0.0.1", "::1", "[::1]"];

/// The origins a loopback server answers to, on any port.
const LOOPBACK_ORIGINS: &[&str] = &[
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// How long open event streams and requests under way get to end once shutdown begins.
const DRAIN: Duration = Duration::from_secs(5);

/// The JSON-RPC code (implementation-defined server error) of the answer to a
/// connection past the bound when none can make room.
const BUSY: i64 = -32000;

/// A Streamable HTTP server for one MCP handler (a [`Toolbox`](crate::Toolbox), or an
/// rmcp `#[tool_router]` server) at `/mcp`.
///
/// By default only loopback `Host`s and `Origin`s are answered; any other gets 403,
/// whatever address the server is bound to. A server reached under another name, or
/// called from a web page, names them:
///
/// ```no_run
/// # async fn run(tools: mcp_tool::Toolbox) -> std::io::Result<()> {
/// mcp_tool::http::HttpServer::new()
///     .allow_host("mcp.example.com")
///     .allow_origin("https://app.example.com")
///     .serve(tools, "0.0.0.0:8080")
///     .await
/// # }
/// ```
///
/// A request without `Origin` (not from a browser) is answered as its `Host` allows.
///
/// # Limits
///
/// A client cannot hold the server's capacity by being slow or idle. Each limit has a
/// setter; the defaults:
///
/// | limit | default | past it |
/// |---|---|---|
/// | [`header_timeout`](HttpServer::header_timeout): a request's head, from its first byte (a new connection's first request, from the connection's opening) | 10 s | the connection is closed |
/// | [`body_timeout`](HttpServer::body_timeout): a request's body, from its head | 30 s | 408, a JSON-RPC error, the connection closed |
/// | [`idle_timeout`](HttpServer::idle_timeout): a kept-alive connection with no request under way | 60 s | the connection is closed |
/// | [`max_connections`](HttpServer::max_connections): connections open at once | 512 | the connection idle the longest is closed to make room; if every one is answering, 503 with a JSON-RPC error |
/// | [`max_body`](HttpServer::max_body): a request's body | 4 MiB | 413, a JSON-RPC error, the connection closed |
///
/// An open event stream (a response still being sent) is not idle, and no timeout
/// ends it. Each connection has `TCP_NODELAY` set: answers are sent at once, not held
/// back for the client's acknowledgement. A body that is not JSON gets 400 with a
/// JSON-RPC parse error (-32700, `id` null); JSON that is no JSON-RPC message, 400 with
/// an invalid request (-32600).
///
/// Serving stops at Ctrl-C (or the future given to [`HttpServer::serve_until`]): no new
/// connection is taken, each open one finishes the request it is answering, open event
/// streams are ended, and `serve` returns (after at most five seconds).
#[derive(Debug, Clone)]
pub struct HttpServer {
    hosts: Vec<String>,
    origins: Vec<String>,
    path: String,
    limits: Limits,
    sessions: Sessions,
    #[cfg(feature = "auth")]
    authorization: Option<auth::Authorization>,
}

/// How long a client may take and how much it may hold (see [`HttpServer`]).
#[derive(Debug, Clone, Copy)]
struct Limits {
    header_timeout: Duration,
    body_timeout: Duration,
    idle_timeout: Duration,
    max_connections: usize,
    max_body: usize,
}

impl Default for HttpServer {
    fn default() -> Self {
        HttpServer::new()
    }
}

impl HttpServer {
    /// A server at `/mcp` that answers loopback hosts and origins only, with the
    /// default limits.
    pub fn new() -> Self {
        HttpServer {
            hosts: LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect(),
            origins: LOOPBACK_ORIGINS.iter().map(|o| (*o).to_owned()).collect(),
            path: "/mcp".to_owned(),
            limits: Limits {
                header_timeout: Duration::from_secs(10),
                body_timeout: Duration::from_secs(30),
                idle_timeout: Duration::from_secs(60),
                max_connections: 512,
                max_body: 4 * 1024 * 1024,
            },
            sessions: Sessions::in_process(),
            #[cfg(feature = "auth")]
            authorization: None,
        }
    }

    /// Serves as an OAuth 2.1 resource server (feature `auth`): every request to the
    /// endpoint needs a bearer token `authorization` verifies, each tool call the
    /// scopes its tool declares, and the Protected Resource Metadata is served (see
    /// [`auth`] for the whole picture).
    #[cfg(feature = "auth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
    pub fn authorization(mut self, authorization: auth::Authorization) -> Self {
        self.authorization = Some(authorization);
        self
    }

    /// Also answers requests whose `Host` is `host` (a name, or `name:port`).
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.hosts.push(host.into());
        self
    }

    /// Also answers requests from pages of `origin`: a scheme, a host and a port
    /// (`https://app.example.com`, `http://localhost:*` for any port).
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.origins.push(origin.into());
        self
    }

    /// Where the sessions of protocol 2025-11-25 are kept (in this process unless
    /// set): [`Sessions::redis`] for replicas behind a balancer that does not pin a
    /// session to one of them. Whatever the book, with authorization each session is
    /// bound to the subject that opened it.
    pub fn sessions(mut self, sessions: Sessions) -> Self {
        self.sessions = sessions;
        self
    }

    /// Serves at `path` instead of `/mcp`.
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// How long a request's head may take to arrive, from its first byte, or for a new
    /// connection's first request, from the opening (default 10 seconds).
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.limits.header_timeout = timeout;
        self
    }

    /// How long a request's body may take to arrive, once its head has (default 30
    /// seconds).
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.limits.body_timeout = timeout;
        self
    }

    /// How long a kept-alive connection may stay open with no request under way
    /// (default 60 seconds).
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.limits.idle_timeout = timeout;
        self
    }

    /// How many connections may be open at once (default 512; at least 1). Keep it
    /// below the process's limit of open files (`ulimit -n`).
    pub fn max_connections(mut self, max: usize) -> Self {
        self.limits.max_connections = max.max(1);
        self
    }

    /// The largest request body read, in bytes (default 4 MiB).
    pub fn max_body(mut self, bytes: usize) -> Self {
        self.limits.max_body = bytes;
        self
    }

    /// Serves `handler` at `addr` until Ctrl-C.
    pub async fn serve<H>(self, handler: H, addr: impl tokio::net::ToSocketAddrs) -> io::Result<()>
    where
        H: ServerHandler,
    {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serve_until(handler, listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    }

    /// The endpoint serving `handler` as this server would (Streamable HTTP at its
    /// path, `Host` and `Origin` checked, the body read within its time and size, the
    /// resource server's gate and metadata where it has an
    /// [`authorization`](HttpServer::authorization)), as a tower `Service` to mount in
    /// an application of your own: see [`Endpoint`].
    ///
    /// # Errors
    ///
    /// A server that would not start: an authorization whose table of scopes
    /// contradicts what a tool's type declares (see
    /// [`Authorization::tool_scopes`](auth::Authorization::tool_scopes)), named in the
    /// error.
    pub fn endpoint<H: ServerHandler>(&self, handler: H) -> io::Result<Endpoint> {
        let stop = CancellationToken::new();
        let mut config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(self.hosts.clone())
            .with_allowed_origins(self.origins.clone())
            .with_max_request_body_bytes(self.limits.max_body)
            .with_cancellation_token(stop.child_token());
        // Each session's `initialize` is kept in the book with its opener: to bind it
        // to its subject, and (in Redis) to open it on another replica.
        config.session_store = Some(self.sessions.store());
        let manager = Arc::new(LocalSessionManager::default());
        // Each caller's `tools/list` is made knowing the caller (see `PerCaller`).
        let handler = Arc::new(PerCaller(handler));
        #[cfg(feature = "auth")]
        let declared = {
            let handler = Arc::clone(&handler);
            move |tool: &str| {
                let tool = handler.get_tool(tool)?;
                Some(crate::caller::scopes_in_schema(&tool.input_schema))
            }
        };
        let service = StreamableHttpService::new(
            move || Ok(Arc::clone(&handler)),
            Arc::clone(&manager),
            config,
        );
        #[cfg_attr(not(feature = "auth"), expect(unused_mut))]
        let mut exchange = Exchange::new(
            service,
            self.path.clone(),
            self.limits,
            self.sessions.clone(),
            manager,
        );
        #[cfg(feature = "auth")]
        if let Some(authorization) = self.authorization.clone() {
            let gate = auth::gate::Gate::new(authorization, &self.path, Box::new(declared))?;
            if let Some(why) = gate.contradiction() {
                return Err(io::Error::new(io::ErrorKind::InvalidInput, why));
            }
            exchange.gate = Some(gate);
        }
        Ok(Endpoint {
            exchange: Arc::new(exchange),
            stop,
        })
    }

    /// Serves `handler` on `listener` until `shutdown` completes.
    ///
    /// # Errors
    ///
    /// As [`HttpServer::endpoint`], before any connection is taken; then only if the
    /// listener's address cannot be read.
    pub async fn serve_until<H>(
        self,
        handler: H,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> io::Result<()>
    where
        H: ServerHandler,
    {
        let endpoint = self.endpoint(handler)?;
        let exchange = Arc::clone(&endpoint.exchange);
        let connections = Connections::new(self.limits);
        #[cfg(feature = "tracing")]
        log_start(listener.local_addr()?, &self);
        let mut shutdown = pin!(shutdown);
        loop {
            tokio::select! {
                () = &mut shutdown => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => connections.admit(stream, Arc::clone(&exchange)),
                    Err(e) => refused_accept(&e).await,
                },
            }
        }
        drop(listener);
        // Each connection finishes the request it is answering; open event streams end.
        connections.close();
        endpoint.close();
        // A client that holds its stream or its request past that does not keep the
        // process alive.
        let _ = tokio::time::timeout(DRAIN, connections.emptied()).await;
        Ok(())
    }
}

/// The MCP endpoint as a tower `Service`, for an application that serves HTTP itself
/// (an axum `Router` beside its `/health`, its metrics, its middleware and TLS): built
/// by [`HttpServer::endpoint`] (or [`endpoint`]) from a [`Toolbox`](crate::Toolbox) or
/// an rmcp server, it answers exactly as [`HttpServer`] does, for the same settings:
/// Streamable HTTP at the server's path, `Host` and `Origin` checked, a request's body
/// read within [`body_timeout`](HttpServer::body_timeout) and
/// [`max_body`](HttpServer::max_body), and with an
/// [`authorization`](HttpServer::authorization), the gate (401, 403, the `Caller`) and
/// the Protected Resource Metadata.
///
/// Mount it at each of its [`paths`](Endpoint::paths) with axum's `route_service` (the
/// endpoint's and, with authorization, the metadata's, which RFC 9728 puts at the
/// root):
///
/// ```no_run
/// use axum::Router;
/// use axum::routing::get;
/// use axum::serve::ListenerExt as _;
///
/// # async fn run(tools: mcp_tool::Toolbox) -> std::io::Result<()> {
/// let endpoint = mcp_tool::http::HttpServer::new().endpoint(tools)?;
/// let mut app = Router::new().route("/health", get(|| async { "ok" }));
/// for path in endpoint.paths() {
///     app = app.route_service(&path, endpoint.clone());
/// }
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// let listener = listener.tap_io(|tcp| drop(tcp.set_nodelay(true)));
/// axum::serve(listener, app).await
/// # }
/// ```
///
/// Under `nest_service("/mcp", ..)` axum takes the prefix off the path: build the
/// endpoint `.at("/")` there.
///
/// What stays with the application is what [`HttpServer`] does for a connection,
/// which a service never sees: `TCP_NODELAY` (without it a small answer waits for the
/// client's acknowledgement, tens of milliseconds: with axum, `ListenerExt::tap_io` and
/// `set_nodelay(true)`), the [header](HttpServer::header_timeout) and
/// [idle](HttpServer::idle_timeout) timeouts and the bound on
/// [connections](HttpServer::max_connections). Add them with your server's own settings
/// (hyper's `header_read_timeout`, a load balancer's idle timeout) or tower-http's and
/// tower's layers (`tower_http::timeout::TimeoutLayer` for a whole request,
/// `tower::limit::ConcurrencyLimitLayer`, `tower::load_shed::LoadShedLayer`); mind that a
/// request timeout must not end the event streams of `GET /mcp`, which stay open by
/// design. On shutdown, [`Endpoint::close`] ends the open event streams.
#[derive(Clone)]
pub struct Endpoint {
    exchange: Arc<Exchange>,
    stop: CancellationToken,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("paths", &self.paths())
            .finish_non_exhaustive()
    }
}

impl Endpoint {
    /// The paths this endpoint answers: the MCP endpoint's, then, with authorization,
    /// those of the Protected Resource Metadata (under the endpoint's path, and the
    /// root's).
    pub fn paths(&self) -> Vec<String> {
        self.exchange.paths()
    }

    /// Ends the open event streams (at shutdown: a client holding one would keep the
    /// application's graceful shutdown waiting). Requests under way are answered.
    pub fn close(&self) {
        self.stop.cancel();
    }
}

impl<B> tower_service::Service<hyper::Request<B>> for Endpoint
where
    B: hyper::body::Body<Data = bytes::Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = hyper::Response<BoxBody<bytes::Bytes, std::convert::Infallible>>;
    type Error = std::convert::Infallible;
    type Future = std::pin::Pin<
        Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send + 'static>,
    >;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: hyper::Request<B>) -> Self::Future {
        let exchange = Arc::clone(&self.exchange);
        Box::pin(async move { Ok(exchange.respond(request).await) })
    }
}

/// The endpoint of [`HttpServer::new`] (loopback hosts and origins only) serving
/// `handler`: [`HttpServer::endpoint`].
///
/// # Errors
///
/// As [`HttpServer::endpoint`].
pub fn endpoint<H: ServerHandler>(handler: H) -> io::Result<Endpoint> {
    HttpServer::new().endpoint(handler)
}

/// After a failed `accept`: a connection that went away before it was taken is
/// nothing; out of file descriptors or memory, wait a moment, since retrying at once
/// would fail again and spin.
async fn refused_accept(error: &io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    #[cfg(feature = "tracing")]
    tracing::warn!(target: "mcp_tool", %error, "accepting a connection failed; trying again in 100 ms");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// The operator's event of a server's start (feature `tracing`): where it serves, and
/// whom it answers. A library prints nothing; a program says what it likes.
#[cfg(feature = "tracing")]
fn log_start(local: SocketAddr, server: &HttpServer) {
    tracing::info!(
        target: "mcp_tool",
        address = %local,
        path = server.path.as_str(),
        hosts = server.hosts.join(", ").as_str(),
        origins = server.origins.join(", ").as_str(),
        "serving MCP over Streamable HTTP",
    );
    if local.ip().is_unspecified() {
        tracing::warn!(
            target: "mcp_tool",
            address = %local,
            "bound to every interface, but only the hosts and origins allowed are answered (403 for others): add them with HttpServer::allow_host and allow_origin",
        );
    }
}

/// Serves `handler` over Streamable HTTP at `http://addr/mcp` until Ctrl-C, answering
/// loopback hosts and origins only: [`HttpServer::new`]`.serve(handler, addr)`.
pub async fn serve<H: ServerHandler>(
    handler: H,
    addr: impl tokio::net::ToSocketAddrs,
) -> io::Result<()> {
    HttpServer::new().serve(handler, addr).await
}
