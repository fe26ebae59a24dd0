use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Order {
    #[serde(alias = "orderId")]
    order_id: String,
}

#[derive(McpTool, Deserialize)]
#[mcp_tool(allow_unknown_fields)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: String,
}

fn main() {}
