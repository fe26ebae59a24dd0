use mcp_tool::{McpEnum, McpTool};
use serde::Deserialize;

/// What is done with the object.
#[derive(McpEnum, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Read,
    Download,
}

/// Get an object.
#[derive(McpTool, Deserialize)]
// A value the enum does not have.
#[mcp_tool(require(local_path, when(mode = "dowload")))]
// A string for a boolean, and a boolean for an integer.
#[mcp_tool(require(reason, when(force = "yes")))]
#[mcp_tool(require(reason, when(parts = true)))]
// A number past the type's range.
#[mcp_tool(require(reason, when(parts = 256)))]
// A type that no value is compared with.
#[mcp_tool(require(reason, when(ratio = 1)))]
struct GetObject {
    mode: Mode,
    local_path: Option<String>,
    #[serde(default)]
    force: bool,
    #[serde(default)]
    parts: u8,
    ratio: f64,
    reason: Option<String>,
}

fn main() {}
