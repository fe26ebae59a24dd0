use mcp_tool::McpTool;
use serde::Deserialize;

/// A tool's arguments that are an enum with data: its schema is one merged object, where
/// keywords written for the union would say something else.
#[derive(McpTool, Deserialize)]
#[schemars(extend("minProperties" = 1))]
enum Forms {
    A { a: String },
    B { b: u8 },
}

fn main() {}
