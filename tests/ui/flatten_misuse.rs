use mcp_tool::McpTool;
use serde::Deserialize;

/// Derives only Deserialize: no description to flatten.
#[derive(Deserialize)]
struct Paging {
    limit: u32,
}

/// List things.
#[derive(McpTool, Deserialize)]
struct List {
    #[serde(flatten)]
    paging: Paging,
}

/// A flattened field has no value of its own.
#[derive(McpTool, Deserialize)]
struct Labels {
    #[serde(flatten)]
    #[validate(length(max = 3))]
    labels: std::collections::HashMap<String, String>,
}

fn main() {}
