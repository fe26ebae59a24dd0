// `confirm` names fields that exist and may be shown; `unconfirmed` and
// `unconfirmed_scope` need a `confirm`, and contradict each other; a trusted scope is a
// scope-token.
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

/// Trusted with nothing to confirm.
#[derive(McpTool, Deserialize)]
#[mcp_tool(unconfirmed_scope = "orders:unattended")]
struct TrustedNoConfirm {
    id: String,
}

/// Both ways at once.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Go?", unconfirmed = "run", unconfirmed_scope = "orders:unattended")]
struct RunAndScope {
    id: String,
}

/// No scope-token.
#[derive(McpTool, Deserialize)]
#[mcp_tool(confirm = "Go?", unconfirmed_scope = "orders unattended")]
struct BadScope {
    id: String,
}

fn main() {}
