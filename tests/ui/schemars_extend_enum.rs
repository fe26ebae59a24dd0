use mcp_tool::{Argument, McpEnum};
use serde::Deserialize;

/// An enum with data: its forms' schemas would each need the keywords.
#[derive(Argument, Deserialize)]
#[schemars(extend("minProperties" = 1))]
enum Forms {
    A { a: String },
    B { b: u8 },
}

/// An enum of names.
#[derive(McpEnum, Deserialize)]
#[schemars(extend("x-kind" = "level"))]
enum Level {
    Low,
    High,
}

fn main() {}
