//! The `orders` desk's MCP endpoint mounted in an axum application, beside the
//! application's own `GET /health`: what a team does whose service is already an axum
//! app (its routes, its middleware, its TLS), with the same tools, flags and answers as
//! `orders --http`.
//!
//! ```sh
//! cargo run --example axum_app -- --http 127.0.0.1:8080
//! curl http://127.0.0.1:8080/health
//! # with OAuth: tokens of that issuer, for that resource (as orders takes them)
//! cargo run --example axum_app -- --http 127.0.0.1:8080 \
//!     --issuer http://127.0.0.1:9000 --resource http://127.0.0.1:8080/mcp
//! # one of several replicas, as orders
//! cargo run --example axum_app -- --http 127.0.0.1:8081 --db /srv/orders.sqlite3 \
//!     --redis redis://127.0.0.1:6379/ --state-key "$(cat /etc/orders/state-key.hex)"
//! ```
//!
//! The endpoint is a tower `Service` (`mcp_tool::http::Endpoint`) built by
//! `HttpServer::endpoint`, mounted with `route_service` at each of its paths (`/mcp`,
//! and with `--issuer` the Protected Resource Metadata's). What `HttpServer` does for a
//! connection (`TCP_NODELAY`, its header and idle timeouts, its bound on connections)
//! is the application's here: this one sets `TCP_NODELAY` and leaves the rest to
//! axum's server.

use std::error::Error;

use axum::Router;
use axum::routing::get;
use axum::serve::ListenerExt as _;

#[path = "orders.rs"]
#[allow(dead_code)] // orders' own `main` and its printed demo
mod orders;

use orders::serve;

/// The application's own route, served beside the MCP endpoint.
async fn health() -> &'static str {
    "ok"
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let command = serve::command_line("axum_app", orders::FLAGS);
    let serve::Mode::Http(addr) = command.mode else {
        return Err(
            "axum_app serves over HTTP only: give --http ADDR (orders serves stdio)".into(),
        );
    };
    let (tools, server) = orders::desk_for(&command, Some(addr))?;
    let endpoint = server.endpoint(tools)?;
    let mut app = Router::new().route("/health", get(health));
    for path in endpoint.paths() {
        app = app.route_service(&path, endpoint.clone());
    }
    // As HttpServer does for its connections: an answer goes out at once, not held
    // back for the client's acknowledgement (Nagle's algorithm costs a small request
    // and answer tens of milliseconds).
    let listener = tokio::net::TcpListener::bind(addr).await?.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    eprintln!("axum_app: GET /health, and MCP at http://{addr}/mcp");
    let closing = endpoint.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            // Open event streams would hold the graceful shutdown: end them.
            closing.close();
        })
        .await?;
    Ok(())
}
