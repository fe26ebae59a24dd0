use mcp_tool::McpTool;
use serde::Deserialize;

/// Another crate's type, described remotely.
#[derive(mcp_tool::Argument, Deserialize)]
#[serde(remote = "std::ops::Range<u32>")]
struct RangeDef {
    start: u32,
    end: u32,
}

/// A unit enum in serde's tagged shape: no plain string.
#[derive(mcp_tool::McpEnum, Deserialize)]
#[serde(tag = "kind")]
enum Kind {
    A,
    B,
}

#[derive(McpTool, Deserialize)]
#[mcp_tool(allow_unknown_fields)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: String,
}

fn main() {}
