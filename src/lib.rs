//! Examples and integration tests of mcp-tool; the API lives in `mcp_tool_runtime`.
pub use mcp_tool_runtime::*;
