//! An enum of unit variants, as a field's type.

use mcp_tool::McpEnum;
use serde::Deserialize;

#[derive(McpEnum, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Cabin {
    Economy,
    Business,
}
