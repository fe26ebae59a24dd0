//! A tool's annotations: hints for the client, and for this crate the words of its
//! retry advice after an unexpected error (a read-only tool took no effect).

use serde::Serialize;

/// MCP tool annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
/// `openWorldHint`), set with `#[mcp_tool(read_only, destructive, idempotent,
/// open_world)]`. Unset hints are left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// The tool does not change its environment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy or overwrite data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool reaches outside the server (the web, other systems).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl Annotations {
    /// No hints.
    pub const NONE: Annotations = Annotations {
        read_only_hint: None,
        destructive_hint: None,
        idempotent_hint: None,
        open_world_hint: None,
    };

    /// True when no hint is set.
    pub fn is_empty(&self) -> bool {
        *self == Annotations::NONE
    }
}
