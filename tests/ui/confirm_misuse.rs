// `confirm` names fields that exist and may be shown; `unconfirmed` needs a `confirm`.
use mcp_tool::McpTool;
use serde::Deserialize;

/// Cancel an order.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Cancel {ordr_id}? Reason: {reason}")]
struct Misnamed {
    order_id: String,
    reason: String,
}

/// Pay.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Pay with {card}?")]
struct ShowsASecret {
    #[validate(sensitive)]
    card: String,
}

/// Braces.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Send {id}} now?")]
struct StrayBrace {
    id: String,
}

/// Nothing to confirm.
#[derive(McpTool, Deserialize)]
#[mcp_tool(unconfirmed = "run")]
struct NoConfirm {
    id: String,
}

/// Not a choice.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Go?", unconfirmed = "maybe")]
struct BadChoice {
    id: String,
}

/// Nothing said.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = " ")]
struct Empty {
    id: String,
}

fn main() {}
