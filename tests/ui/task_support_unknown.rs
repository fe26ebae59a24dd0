// `task_support` takes one of three words; anything else is refused where it is written.
use mcp_tool::McpTool;
use serde::Deserialize;

/// Exports orders.
#[derive(McpTool, Deserialize)]
#[mcp_tool(task_support = "always")]
struct Export {
    month: u8,
}

fn main() {}
