//! A server and an rmcp client joined by an in-memory pipe, for the tests that drive a
//! server through rmcp's own client.

#![allow(dead_code)] // each test file uses its share

use rmcp::service::{RoleClient, RunningService};
use rmcp::{ClientHandler, ServerHandler, ServiceExt};

/// Serves `server` on one end of an in-memory pipe; returns an rmcp client on the other.
pub async fn connect<S: ServerHandler>(server: S) -> RunningService<RoleClient, ()> {
    connect_as(server, ()).await
}

/// [`connect`], with `client` handling what the server sends it (its notifications, its
/// requests).
pub async fn connect_as<S: ServerHandler, C: ClientHandler>(
    server: S,
    client: C,
) -> RunningService<RoleClient, C> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    client.serve(client_io).await.expect("the client connects")
}
