//! `GetObject`: a tool of an object store with a documented enum field that has a
//! default, and rules across fields of every kind: a value of an enum (whose default
//! does not require the field), a value that holds by its field's default, a boolean,
//! an integer among several, and a field sent (both sides `Option`, so `null` is no
//! value; and both sides not, so that `dependentRequired` says it). Shared by `tests/across_fields.rs` and the property suite.
#![allow(dead_code)] // the fields exist for the derive to read

use mcp_tool::{McpEnum, McpTool};
use serde::Deserialize;

/// What is done with the object.
#[derive(McpEnum, Deserialize, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum GetObjectMode {
    /// Read the object into the reply.
    #[default]
    Read,
    /// Save the object to `local_path` on the server.
    Download,
    Head,
}

/// How the object is encrypted at rest.
#[derive(McpEnum, Deserialize, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Encryption {
    #[serde(rename = "none")]
    None,
    #[serde(rename = "AES256")]
    Aes256,
    #[default]
    #[serde(rename = "aws:kms")]
    Kms,
}

/// Get an object from a bucket.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(require(local_path, when(mode = "download")))]
#[mcp_tool(require(kms_key_id, when(encryption = "aws:kms")))]
#[mcp_tool(require(reason, when(force = true)))]
#[mcp_tool(require(part_size, when(parts = [2, 3])))]
#[mcp_tool(require(range_end, when(range_start)))]
#[mcp_tool(require(etag, when(version_id)))]
pub struct GetObject {
    pub bucket: String,
    pub key: String,
    /// What to do with it.
    #[serde(default)]
    pub mode: GetObjectMode,
    /// Where to save it.
    pub local_path: Option<String>,
    #[serde(default)]
    pub encryption: Encryption,
    pub kms_key_id: Option<String>,
    #[serde(default)]
    pub force: bool,
    pub reason: Option<String>,
    #[serde(default)]
    pub parts: u8,
    pub part_size: Option<u32>,
    pub range_start: Option<u64>,
    pub range_end: Option<u64>,
    /// Read this version only.
    #[serde(default)]
    pub version_id: String,
    /// The version's ETag, checked before reading.
    #[serde(default)]
    pub etag: String,
    /// Bytes to read at most.
    #[serde(default)]
    pub max_bytes: usize,
}
