use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Booking {
    #[validate(future_date(format = "%d/%m"))]
    day: String,
    #[validate(past_date(format = "%Y-%m-%d %H:%M"))]
    at: String,
    #[validate(future_date(format = "%Y-%m-%q"))]
    when: String,
}

fn main() {}
