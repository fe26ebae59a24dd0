use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Search {
    #[validate(regx = "^a$")]
    query: String,
    #[validate(length(minimum = 1))]
    text: String,
}

fn main() {}
