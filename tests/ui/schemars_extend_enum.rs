use mcp_tool::Argument;
use serde::Deserialize;

/// An enum with data: its forms' schemas would each need the keywords.
#[derive(Argument, Deserialize)]
#[schemars(extend("minProperties" = 1))]
enum Forms {
    A { a: String },
    B { b: u8 },
}

fn main() {}
