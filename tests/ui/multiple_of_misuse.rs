use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Order {
    #[validate(multiple_of = 0)]
    quantity: u32,
    #[validate(multiple_of = 5)]
    name: String,
    #[validate(multiple_of)]
    cents: i64,
    #[validate(multiple_of(factor = -0.5))]
    price: f64,
}

fn main() {}
