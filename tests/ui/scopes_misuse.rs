// A tool's scopes are RFC 6749 scope-tokens, never `offline_access`, each once.
use mcp_tool::McpTool;
use serde::Deserialize;

/// Two scopes in one string.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:read orders:write"))]
struct SpaceInside {
    id: String,
}

/// A quote.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders\"read"))]
struct Quote {
    id: String,
}

/// A backslash.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders\\read"))]
struct Backslash {
    id: String,
}

/// Not ASCII.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("commandes:lire:é"))]
struct NotAscii {
    id: String,
}

/// A refresh token is no scope of a tool.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:read", "offline_access"))]
struct Offline {
    id: String,
}

/// Empty.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes(""))]
struct EmptyScope {
    id: String,
}

/// No scopes at all.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes())]
struct NoScopes {
    id: String,
}

/// Twice.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes("orders:read", "orders:read"))]
struct Twice {
    id: String,
}

/// Not a list.
#[derive(McpTool, Deserialize)]
#[mcp_tool(scopes = "orders:read")]
struct NotAList {
    id: String,
}

/// A scope is no setting of a value inside a tool's arguments.
#[derive(mcp_tool::Argument, Deserialize)]
#[mcp_tool(scopes("orders:read"))]
struct Inner {
    id: String,
}

fn main() {}
