use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
#[validate(schema(function = "whole"))]
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
    #[validate(contains(message = "needs a slash"))]
    contains_nothing: String,
    #[validate(non_control_character(pattern = "x"))]
    control_with_pattern: String,
}

fn main() {}
