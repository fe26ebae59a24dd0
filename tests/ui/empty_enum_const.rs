use mcp_tool::McpTool;
use serde::Deserialize;

const NOTHING: &[&str] = &[];

#[derive(McpTool, Deserialize)]
struct Order {
    #[validate(enum = NOTHING)]
    state: String,
}

fn main() {}
