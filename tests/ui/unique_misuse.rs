use std::collections::HashSet;

use mcp_tool::McpTool;
use serde::Deserialize;

// `unique` is for a list: on a string it has no items, on a set it would say nothing
// (a set keeps no repeats already), and it takes no value.
#[derive(McpTool, Deserialize)]
struct Tags {
    #[validate(unique)]
    name: String,
    #[validate(unique)]
    labels: HashSet<String>,
}

#[derive(McpTool, Deserialize)]
struct Written {
    #[validate(unique = true)]
    tags: Vec<String>,
    #[validate(unique(items = 3))]
    more: Vec<String>,
}

fn main() {}
