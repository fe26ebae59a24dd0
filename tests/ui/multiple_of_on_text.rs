use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Order {
    #[validate(multiple_of = 5)]
    name: String,
}

fn main() {}
