use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Search {
    #[validate(regex = r"^[A-Z{3}$")]
    code: String,
}

fn main() {}
