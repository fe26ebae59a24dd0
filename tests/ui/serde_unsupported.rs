use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(Deserialize)]
struct Inner {
    a: String,
}

#[derive(McpTool, Deserialize)]
struct Order {
    #[serde(alias = "orderId")]
    order_id: String,
    #[serde(flatten)]
    inner: Inner,
}

#[derive(McpTool, Deserialize)]
#[mcp_tool(allow_unknown_fields)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: String,
}

fn main() {}
