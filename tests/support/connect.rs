//! A server and an rmcp client joined by an in-memory pipe, for the tests that drive a
//! server through rmcp's own client.

use rmcp::ServerHandler;
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};

/// Serves `server` on one end of an in-memory pipe; returns an rmcp client on the other.
pub async fn connect<S: ServerHandler>(server: S) -> RunningService<RoleClient, ()> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.expect("the client connects")
}
