use mcp_tool::McpTool;
use serde::Deserialize;

/// Cancel an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(destructive, confirm = "Cancel order {order_id}?", unconfirmed = "run")]
struct CancelOrder {
    order_id: String,
}

/// Refund an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(unconfirmed = "run")]
struct Refund {
    order_id: String,
}

fn main() {}
