use mcp_tool::{Argument, McpTool};
use serde::Deserialize;

/// A name.
#[derive(Argument, Deserialize)]
#[validate(length(min = 1, max = 256))]
struct Name(String);

/// Uses `like` where it does not go.
#[derive(McpTool, Deserialize)]
struct Wrong {
    // `like` is for the field, not its items.
    #[validate(items(like = Name))]
    names: Vec<String>,
    // Given twice.
    #[validate(like = Name, like = Name)]
    other: String,
}

fn main() {}
