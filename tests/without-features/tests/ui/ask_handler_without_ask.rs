use std::sync::Arc;

use mcp_tool::{Ask, McpTool, ToolError, Toolbox};
use serde::Deserialize;

/// Refund an order.
#[derive(McpTool, Deserialize)]
struct Refund {
    customer: String,
}

async fn refund(_: Arc<()>, _ask: Ask, args: Refund) -> Result<String, ToolError> {
    Ok(args.customer)
}

fn main() {
    let _ = Toolbox::new().tool(refund);
}
