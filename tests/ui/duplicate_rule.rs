use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Order {
    #[validate(regex = "^a")]
    #[validate(regex = "b$")]
    id: String,
    #[validate(future_date, past_date)]
    day: String,
}

fn main() {}
