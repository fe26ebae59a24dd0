use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Order {
    #[validate(enum = [])]
    status: String,
    #[validate(enum = ["a", "b", "a"])]
    kind: String,
}

fn main() {}
