// `ask` stands on a tool's own field that a form can ask for.
use mcp_tool::{Argument, McpTool};
use serde::Deserialize;

#[derive(Argument, Deserialize)]
struct Passenger {
    #[validate(ask = "Your name?")]
    name: String,
}

/// Book.
#[derive(McpTool, Deserialize)]
struct Book {
    #[validate(sensitive, ask = "Your card number?")]
    card: String,
    #[validate(ask = "  ")]
    note: String,
    #[validate(items(ask = "Which?"))]
    tags: Vec<String>,
}

fn main() {}
