use mcp_tool::McpTool;
use serde::Deserialize;

/// A type whose name, in snake_case, is over the spec's 128 characters.
#[derive(McpTool, Deserialize)]
struct Abbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb {}

fn main() {}
