use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Order {
    #[serde(alias = "orderId")]
    order_id: String,
}

fn lenient<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    u32::deserialize(d)
}

#[derive(McpTool, Deserialize)]
struct Lenient {
    #[serde(deserialize_with = "lenient")]
    count: u32,
}

#[derive(McpTool, Deserialize)]
#[mcp_tool(allow_unknown_fields)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: String,
}

fn main() {}
