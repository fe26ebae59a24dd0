use mcp_tool::{Argument, McpTool};
use serde::Deserialize;

/// A page of results.
#[derive(Argument, Deserialize)]
struct Page {
    limit: Option<u32>,
}

/// Get an object.
#[derive(McpTool, Deserialize)]
// A misspelt field, on each side.
#[mcp_tool(require(locl_path, when(mode = "download")))]
#[mcp_tool(require(local_path, when(mdoe = "download")))]
// No condition; no field required.
#[mcp_tool(require(local_path))]
#[mcp_tool(require(when(mode)))]
// A field that requires itself.
#[mcp_tool(require(mode, when(mode = "download")))]
// A flattened struct is no field of the object.
#[mcp_tool(require(page, when(mode)))]
// A value that is no literal; an empty list.
#[mcp_tool(require(local_path, when(mode = download)))]
#[mcp_tool(require(local_path, when(mode = [])))]
struct GetObject {
    #[serde(default)]
    mode: String,
    local_path: Option<String>,
    #[serde(flatten)]
    page: Page,
}

/// A rule across fields on an enum.
#[derive(McpTool, Deserialize)]
#[serde(tag = "kind")]
#[mcp_tool(require(a, when(b)))]
enum Forms {
    One { a: Option<u8>, b: Option<u8> },
}

fn main() {}
