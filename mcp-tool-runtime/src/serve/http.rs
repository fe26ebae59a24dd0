//! Serving over MCP Streamable HTTP (feature `http`), safe by default: rmcp's transport
//! under axum, with the `Host` and `Origin` of every request limited to loopback unless
//! allowed. The spec's transport section says a server MUST validate `Origin` and answer
//! 403 to a present, invalid one: without it, any web page the user opens can call a
//! server on their machine (DNS rebinding). rmcp checks `Host` by default but leaves the
//! `Origin` list empty, which turns that check off; here both are on.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

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

/// How long open event streams get to end once shutdown begins.
const DRAIN: Duration = Duration::from_secs(5);

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
/// Serving stops at Ctrl-C (or the future given to [`HttpServer::serve_until`]): new
/// requests are refused, open event streams are ended (after at most five seconds), and
/// `serve` returns.
#[derive(Debug, Clone)]
pub struct HttpServer {
    hosts: Vec<String>,
    origins: Vec<String>,
    path: String,
}

impl Default for HttpServer {
    fn default() -> Self {
        HttpServer::new()
    }
}

impl HttpServer {
    /// A server at `/mcp` that answers loopback hosts and origins only.
    pub fn new() -> Self {
        HttpServer {
            hosts: LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect(),
            origins: LOOPBACK_ORIGINS.iter().map(|o| (*o).to_owned()).collect(),
            path: "/mcp".to_owned(),
        }
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

    /// Serves at `path` instead of `/mcp`.
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
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

    /// Serves `handler` on `listener` until `shutdown` completes.
    pub async fn serve_until<H>(
        self,
        handler: H,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> io::Result<()>
    where
        H: ServerHandler,
    {
        let stop = CancellationToken::new();
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(self.hosts.clone())
            .with_allowed_origins(self.origins.clone())
            .with_cancellation_token(stop.child_token());
        let handler = Arc::new(handler);
        let service = StreamableHttpService::new(
            move || Ok(Arc::clone(&handler)),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let router = axum::Router::new().nest_service(&self.path, service);
        let local = listener.local_addr()?;
        log_start(local, &self);
        let ending = stop.clone();
        let server = axum::serve(listener, router).with_graceful_shutdown(async move {
            shutdown.await;
            // Ends every open event stream, so that the graceful shutdown can finish.
            ending.cancel();
        });
        let stopped = stop.clone();
        tokio::select! {
            served = server => served,
            // A client that holds its stream past the cancellation does not keep the
            // process alive.
            () = async move {
                stopped.cancelled().await;
                tokio::time::sleep(DRAIN).await;
            } => Ok(()),
        }
    }
}

fn log_start(local: SocketAddr, server: &HttpServer) {
    eprintln!(
        "serving MCP over Streamable HTTP at http://{local}{}; answering the hosts {} and the origins {}",
        server.path,
        server.hosts.join(", "),
        server.origins.join(", "),
    );
    if local.ip().is_unspecified() {
        eprintln!(
            "note: bound to {}, but only the hosts and origins above are answered (403 for others): \
             add them with HttpServer::allow_host and allow_origin",
            local.ip()
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
