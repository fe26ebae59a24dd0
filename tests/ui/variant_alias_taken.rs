use mcp_tool::McpEnum;
use serde::Deserialize;

/// A former name that is another variant's: serde reads the first variant that takes
/// it, which the schema could not say.
#[derive(McpEnum, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Mode {
    #[serde(alias = "fast")]
    Quick,
    Fast,
}

fn main() {}
