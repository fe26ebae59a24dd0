use mcp_tool::McpTool;
use serde::Deserialize;

#[derive(Deserialize)]
struct QuietHours {
    from: u8,
    to: u8,
}

/// Set the notification preferences.
#[derive(McpTool, Deserialize)]
struct SetPreferences {
    quiet_hours: Option<QuietHours>,
}

fn main() {}
