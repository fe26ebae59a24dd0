use mcp_tool::McpTool;
use serde::Deserialize;

const STATUSES: &[&str] = &["PENDING", "PAID", "SHIPPED", "PAID"];

#[derive(McpTool, Deserialize)]
struct Order {
    #[validate(enum = STATUSES)]
    status: String,
}

fn main() {}
