use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Booking {
    #[validate(range(min = 9, max = 1))]
    passengers: u8,
    #[validate(range(exclusive_min = 1, max = 1))]
    adults: u8,
    #[validate(length(min = 5, max = 2))]
    name: String,
    #[validate(range())]
    seats: u8,
}

fn main() {}
