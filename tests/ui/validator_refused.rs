use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Refused {
    #[validate(regex(path = *SKU))]
    compiled: String,
    #[validate(custom(function = "check", use_context))]
    with_context: String,
    #[validate(does_not_contain(pattern = "admin"))]
    without: String,
    #[validate(must_match(other = "without"))]
    again: String,
    #[validate(credit_card)]
    card: String,
    #[validate(ip(v4))]
    address: String,
    #[validate(required)]
    required_not_option: String,
}

fn main() {}
