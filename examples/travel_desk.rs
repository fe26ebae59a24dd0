//! An rmcp server written with rmcp's own macros, adopting mcp-tool by changing one type:
//! `Parameters` comes from `mcp_tool::rmcp` instead of rmcp. The methods may then return
//! `Result<_, ToolError>`.
//!
//! ```sh
//! cargo run --example travel_desk                           # serves over MCP stdio
//! cargo run --example travel_desk -- --http 127.0.0.1:8080  # over MCP Streamable HTTP, at /mcp
//! ```

use std::time::Duration;

use mcp_tool::rmcp::Parameters; // was: rmcp::handler::server::wrapper::Parameters
use mcp_tool::{McpTool, SchemaProfile, ToolError};
use rmcp::handler::server::tool::ToolRouter;
use rmcp::handler::server::wrapper::Json;
use rmcp::model::{CustomRequest, CustomResult, ListToolsResult, PaginatedRequestParams};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[path = "common/flight.rs"]
mod flight;
#[path = "common/serve.rs"]
mod serve;

use flight::{BookFlight, Booking};

/// Cancel a booking made on this desk.
#[derive(McpTool, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CancelBooking {
    /// The booking reference, such as PNR-7XQ2KD.
    #[validate(regex(pattern = r"^PNR-[A-Z0-9]{6}$"))]
    booking_ref: String,
}

/// Fares for a route from every airline this desk sells.
#[derive(McpTool, Deserialize)]
struct QuoteFares {
    /// Departure airport, IATA code.
    #[validate(regex = r"^[A-Z]{3}$")]
    origin: String,
    /// Arrival airport, IATA code.
    #[validate(regex = r"^[A-Z]{3}$")]
    destination: String,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Cancelled {
    booking_ref: String,
    refund_cents: i64,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Fares {
    fares: Vec<Fare>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Fare {
    airline: String,
    cents: i64,
}

#[derive(Clone)]
struct TravelDesk {
    tool_router: ToolRouter<Self>,
    /// The form its schemas are advertised in.
    profile: SchemaProfile,
    /// Each client gets its family's form (`--schema-profile auto`).
    from_client: bool,
}

#[tool_router]
impl TravelDesk {
    fn new(profile: SchemaProfile, from_client: bool) -> Self {
        TravelDesk {
            tool_router: Self::tool_router(),
            profile,
            from_client,
        }
    }

    /// The router as this desk serves it: the argument errors' structuredContent kept,
    /// the schemas in the profile asked for.
    fn served(&self) -> mcp_tool::rmcp::Structured<'_, Self> {
        let router = mcp_tool::rmcp::structured(&self.tool_router);
        serve::profiled_router(router, self.profile, self.from_client)
    }

    #[tool(description = "Book a flight for one or more passengers.")]
    async fn book_flight(
        &self,
        Parameters(args): Parameters<BookFlight>,
    ) -> Result<Json<Booking>, ToolError> {
        flight::book_flight(args).await.map(Json)
    }

    #[tool(description = "Cancel a booking made on this desk.")]
    async fn cancel_booking(
        &self,
        Parameters(args): Parameters<CancelBooking>,
    ) -> Result<Json<Cancelled>, ToolError> {
        match args.booking_ref.as_str() {
            "PNR-7XQ2KD" => Ok(Json(Cancelled {
                booking_ref: args.booking_ref,
                refund_cents: 41000,
            })),
            "PNR-FLOWN1" => Err(ToolError::business(
                "Booking PNR-FLOWN1 has been flown; a flown booking cannot be cancelled.",
            )
            .with_hint("Tell the user; a refund claim goes through customer care.")),
            _ => Err(ToolError::permission(format!(
                "Booking {} cannot be managed from this desk.",
                args.booking_ref
            ))),
        }
    }

    #[tool(description = "Fares for a route from every airline this desk sells.")]
    async fn quote_fares(
        &self,
        Parameters(args): Parameters<QuoteFares>,
    ) -> Result<Json<Fares>, ToolError> {
        // One of the two airlines is down: what the other gave comes back with the error.
        let gathered = vec![Fare {
            airline: "Air Example".into(),
            cents: 41000,
        }];
        Err(
            ToolError::transient("SkyLow's fare service is not answering.")
                .for_call(
                    "quote_fares",
                    json!({"origin": args.origin, "destination": args.destination}),
                )
                .with_partial_results(Fares { fares: gathered })
                .retry_after(Duration::from_secs(20)),
        )
    }
}

// `structured` keeps the structuredContent of argument errors, which rmcp's own router
// drops; without it (`#[tool_handler]` alone) the text still lists every violation.
#[tool_handler(router = self.served())]
impl ServerHandler for TravelDesk {
    // Written here, not by `#[tool_handler]`, so that the list is in the profile of the
    // client of this request.
    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, rmcp::ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.served().list_for(&context),
        ))
    }

    // rmcp reads a tools/call whose arguments are not an object as a request of an
    // unknown method (-32601); this answers it as a malformed request (-32602).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, rmcp::ErrorData> {
        mcp_tool::rmcp::reject_malformed_call(request)
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let command = serve::command_line("travel_desk", &[]);
    let desk = TravelDesk::new(command.profile, command.from_client);
    match command.mode {
        serve::Mode::Http(addr) => serve::http(desk, addr).await,
        // A server in rmcp's style has no printed session: it serves over stdio.
        serve::Mode::Stdio | serve::Mode::Demo => serve::stdio(desk).await,
    }
}

#[cfg(test)]
#[path = "../tests/support/conforms.rs"]
mod conforms;
#[cfg(test)]
#[path = "../tests/support/connect.rs"]
mod connect;

#[cfg(test)]
mod tests {
    use rmcp::model::CallToolRequestParams;
    use serde_json::Value;

    use super::*;

    #[tokio::test]
    async fn every_result_matches_the_advertised_output_schema() {
        let client = super::connect::connect(TravelDesk::new(SchemaProfile::Portable, false)).await;
        let tools = serde_json::to_value(client.list_all_tools().await.unwrap()).unwrap();
        let calls = [
            (
                "book_flight",
                json!({"origin": "CDG", "destination": "JFK",
                "departure_date": "15/01/2099", "cabin": "first", "passengers": 1}),
            ),
            ("book_flight", json!({"origin": "Paris", "passengers": 0})),
            ("cancel_booking", json!({"bookingRef": "PNR-7XQ2KD"})),
            ("cancel_booking", json!({"bookingRef": "PNR-FLOWN1"})),
            ("cancel_booking", json!({"bookingRef": "PNR-OTHER1"})),
            ("cancel_booking", json!({"bookngRef": "PNR-7XQ2KD"})),
            // Its name in another case style: read as `bookingRef`.
            ("cancel_booking", json!({"booking_ref": "PNR-7XQ2KD"})),
            (
                "quote_fares",
                json!({"origin": "CDG", "destination": "JFK"}),
            ),
        ];
        let mut errors = 0;
        for (name, arguments) in calls {
            let Value::Object(arguments) = arguments else {
                unreachable!()
            };
            let result = client
                .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
                .await
                .unwrap();
            let result = serde_json::to_value(result).unwrap();
            errors += usize::from(result["isError"] == true);
            let tool = tools
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["name"] == name)
                .unwrap();
            super::conforms::assert_conforms(tool, &result);
        }
        assert_eq!(errors, 5);
    }
}
