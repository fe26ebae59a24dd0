use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(McpTool, Deserialize)]
struct Pair(String, u32);

#[derive(McpTool, Deserialize)]
enum Cabin {
    Economy,
    Business,
}

#[derive(McpTool, Deserialize)]
struct Ping;

fn main() {}
