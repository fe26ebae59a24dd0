//! The result of `tools/call` as MCP puts it on the wire.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The result of `tools/call`, as MCP puts it on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// What many clients hand the model: for an error, everything actionable.
    pub content: Vec<Content>,
    /// The same, as data.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub structured_content: Option<Value>,
    /// True for a tool execution error.
    #[serde(default)]
    pub is_error: bool,
    /// `_meta`: what this crate says of the call beside its result, under keys of its
    /// own (`mcp-tool/repairs`: the client mistakes repaired before the checks).
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<serde_json::Map<String, Value>>,
}

/// A member that is present, read as `Some` even when it is `null` (a tool's result
/// may be JSON's null itself).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// The `_meta` key under which the repairs of a call are listed.
pub const REPAIRS_KEY: &str = "mcp-tool/repairs";

impl CallToolResult {
    /// A success carrying `value` as `structuredContent` and as the same JSON in a text
    /// block, as the MCP specification advises.
    pub fn success(value: Value) -> Self {
        CallToolResult {
            content: vec![Content::text(json_text(&value))],
            structured_content: Some(value),
            is_error: false,
            meta: None,
        }
    }

    /// A success with no content: "nothing matched" is not an error.
    pub fn empty() -> Self {
        CallToolResult {
            content: Vec::new(),
            structured_content: None,
            is_error: false,
            meta: None,
        }
    }

    /// This result, saying the repairs made to the call's arguments in `_meta`.
    pub(crate) fn with_repairs(mut self, repairs: &[crate::result::Repair]) -> Self {
        if !repairs.is_empty() {
            let listed = serde_json::to_value(repairs).unwrap_or(Value::Null);
            self.meta
                .get_or_insert_with(serde_json::Map::new)
                .insert(REPAIRS_KEY.into(), listed);
        }
        self
    }

    /// This result as JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The text blocks, one after another on lines of their own: what a client that
    /// reads only text (many do, for errors) shows the model.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .map(|c| match c {
                Content::Text { text } => text.as_str(),
            })
            .collect();
        texts.join("\n")
    }
}

/// `value` as compact JSON. Written straight into the string: `Value`'s `Display`
/// goes through `fmt::Formatter` a piece at a time and costs twice as much.
pub(crate) fn json_text(value: &Value) -> String {
    // Serializing a `Value` cannot fail: its keys are strings.
    serde_json::to_string(value).unwrap_or_default()
}

/// One content block of a [`CallToolResult`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Content {
    /// A text block.
    Text {
        /// The text.
        text: String,
    },
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text { text: text.into() }
    }
}
