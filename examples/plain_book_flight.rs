//! The `book_flight` tool as a plain rmcp server writes it, without mcp-tool: rmcp's
//! `#[tool_router]`, its `Parameters`, schemars for the schema (advertising the same
//! rules), rmcp's stdio transport, and rmcp's Streamable HTTP service under axum. rmcp
//! enforces none of the advertised rules: every call that serde can read runs. The
//! baseline of the load benchmark (`benches/load.rs`).
//!
//! ```sh
//! cargo run --example plain_book_flight -- --stdio
//! cargo run --example plain_book_flight -- --http 127.0.0.1:8080
//! ```

use std::error::Error;
use std::sync::Arc;

use axum::serve::ListenerExt;
use rmcp::handler::server::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};

/// Book a flight for one or more passengers.
#[derive(Deserialize, schemars::JsonSchema)]
struct BookFlight {
    /// Departure airport, IATA code.
    #[schemars(regex(pattern = r"^[A-Z]{3}$"))]
    origin: String,
    /// Arrival airport, IATA code.
    #[schemars(regex(pattern = r"^[A-Z]{3}$"))]
    destination: String,
    /// The day of departure, dd/mm/yyyy, in the future.
    departure_date: String,
    #[schemars(extend("enum" = ["economy", "premium_economy", "business", "first"]))]
    cabin: String,
    #[schemars(range(min = 1, max = 9))]
    passengers: u8,
    /// Where the confirmation is sent.
    #[schemars(email)]
    email: Option<String>,
}

/// A confirmed booking: the same as the mcp-tool example's.
#[derive(Serialize, schemars::JsonSchema)]
struct Booking {
    /// The booking reference.
    confirmation: String,
    route: String,
    date: String,
    cabin: String,
    passengers: u8,
    /// Where the confirmation was sent, if anywhere.
    confirmation_sent_to: Option<String>,
}

#[derive(Clone)]
struct Desk {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Desk {
    fn new() -> Self {
        Desk {
            tool_router: Self::tool_router(),
        }
    }

    /// Book a flight for one or more passengers.
    #[tool(name = "book_flight")]
    async fn book_flight(
        &self,
        Parameters(flight): Parameters<BookFlight>,
    ) -> Result<Json<Booking>, String> {
        if flight.origin == flight.destination {
            return Err(format!(
                "A flight from {} to {} goes nowhere.",
                flight.origin, flight.destination
            ));
        }
        Ok(Json(Booking {
            confirmation: "PNR-7XQ2KD".into(),
            route: format!("{} -> {}", flight.origin, flight.destination),
            date: flight.departure_date,
            cabin: flight.cabin,
            passengers: flight.passengers,
            confirmation_sent_to: flight.email,
        }))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Desk {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["--stdio"] => {
            let server = Desk::new().serve(rmcp::transport::stdio()).await?;
            server.waiting().await?;
        }
        ["--http", addr] => {
            let service = StreamableHttpService::new(
                || Ok(Desk::new()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            let router = axum::Router::new().nest_service("/mcp", service);
            // TCP_NODELAY, as a careful server sets it: the comparison is of the work
            // per call, not of a 40 ms wait for a delayed ACK.
            let listener = tokio::net::TcpListener::bind(addr).await?.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            axum::serve(listener, router).await?;
        }
        _ => {
            eprintln!("usage: cargo run --example plain_book_flight -- --stdio | --http ADDR");
            std::process::exit(2);
        }
    }
    Ok(())
}
