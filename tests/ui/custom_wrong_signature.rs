use mcp_tool::McpTool;
use serde::Deserialize;

fn positive(n: &i64) -> Result<(), String> {
    if *n > 0 { Ok(()) } else { Err("must be positive".into()) }
}

#[derive(McpTool, Deserialize)]
struct Order {
    #[validate(custom = positive)]
    name: String,
}

fn main() {}
