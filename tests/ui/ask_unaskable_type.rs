// A form asks for text, numbers, booleans and choices: not a struct, nor a list of them.
use mcp_tool::{Argument, McpTool};
use serde::Deserialize;

#[derive(Argument, Deserialize)]
struct Passenger {
    name: String,
}

/// Book.
#[derive(McpTool, Deserialize)]
struct Book {
    #[validate(ask = "Who travels?")]
    passenger: Passenger,
    #[validate(ask = "Who travels with you?")]
    others: Vec<Passenger>,
    #[validate(ask = "Which seats?")]
    seats: Vec<String>,
}

fn main() {}
