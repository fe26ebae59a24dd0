use mcp_tool::{Argument, McpEnum, McpTool};
use serde::Deserialize;

/// A tool's arguments are an object, not one value read by the type's own reading.
#[derive(McpTool, Deserialize)]
#[schemars(transparent)]
struct Tool {
    id: String,
}

/// Two fields: no one value to be the type's JSON.
#[derive(Argument)]
#[schemars(transparent)]
struct Pair {
    a: String,
    b: String,
}

/// An enum with data is several forms, not one field's value.
#[derive(Argument)]
#[schemars(transparent)]
enum Forms {
    A(String),
    B(u8),
}

/// serde reads another type: the two attributes say different things.
#[derive(Argument, Deserialize)]
#[schemars(transparent)]
#[serde(try_from = "String")]
struct Converted(String);

impl TryFrom<String> for Converted {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        Ok(Converted(s))
    }
}

/// An enum of names is a string already.
#[derive(McpEnum, Deserialize)]
#[schemars(transparent)]
enum Level {
    Low,
    High,
}

fn main() {}
