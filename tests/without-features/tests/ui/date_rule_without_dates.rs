use mcp_tool::McpTool;
use serde::Deserialize;

/// Book a flight.
#[derive(McpTool, Deserialize)]
struct BookFlight {
    #[validate(regex = r"^[A-Z]{3}$")]
    origin: String,
    #[validate(future_date(format = "%d/%m/%Y"))]
    departure_date: String,
    #[validate(past_date)]
    born: String,
}

fn main() {}
