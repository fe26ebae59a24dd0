use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
#[mcp_tool(name = "book flight", read_onyl)]
struct BookFlight {
    #[mcp_tool(sensitive)]
    origin: String,
}

fn main() {}
