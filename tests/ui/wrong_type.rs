use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Booking {
    #[validate(future_date)]
    day: u32,
    #[validate(length(max = 3))]
    confirmed: bool,
    #[validate(range(min = 1))]
    name: String,
    #[validate(items(email))]
    contact: String,
}

fn main() {}
