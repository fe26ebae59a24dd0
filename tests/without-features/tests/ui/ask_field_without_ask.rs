use mcp_tool::McpTool;
use serde::Deserialize;

/// Book a flight.
#[derive(McpTool, Deserialize)]
struct BookFlight {
    #[validate(ask = "Where do you fly from?", regex = r"^[A-Z]{3}$")]
    origin: String,
}

fn main() {}
