// A handler takes the pieces of the call first and its arguments last; a piece that is
// none is named.
use mcp_tool::{Caller, McpTool, ToolError, Toolbox};
use serde::Deserialize;

/// Find an order.
#[derive(McpTool, Deserialize)]
struct FindOrder {
    id: String,
}

async fn arguments_first(args: FindOrder, caller: Caller) -> Result<String, ToolError> {
    Ok(format!("{} {}", args.id, caller.subject()))
}

async fn not_a_piece(limit: u32, args: FindOrder) -> Result<String, ToolError> {
    Ok(format!("{} {limit}", args.id))
}

fn main() {
    let _ = Toolbox::new().tool(arguments_first);
    let _ = Toolbox::new().tool(not_a_piece);
}
