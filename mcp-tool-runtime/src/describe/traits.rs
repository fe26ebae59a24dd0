//! The traits the derives implement: [`McpTool`] for a tool's arguments, [`McpEnum`]
//! for an enum of names.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::profile::SchemaProfile;
use super::spec::{Tool, ToolSpec};
use super::types::argument::Argument;
use crate::context::Context;
use crate::result::ToolError;

/// A tool whose arguments are this struct. Implemented by `#[derive(McpTool)]`.
pub trait McpTool: Argument + DeserializeOwned {
    /// The tool's name in `tools/list` and `tools/call`.
    const NAME: &'static str;

    /// The generated description of this struct.
    #[doc(hidden)]
    fn spec() -> &'static ToolSpec;

    /// The tool's `inputSchema`: built on first call, then the same value.
    fn input_schema() -> &'static Value {
        Self::spec().input_schema()
    }

    /// The tool's `inputSchema` in the form `profile`'s clients take (see
    /// [`SchemaProfile`]): built on first call, then the same value.
    fn input_schema_for(profile: SchemaProfile) -> &'static Value {
        Self::spec().input_schema_for(profile)
    }

    /// The tool as `tools/list` lists it: name, title, description, `inputSchema`,
    /// annotations. Built on first call, then the same value.
    fn tool() -> &'static Tool {
        Self::spec().tool()
    }

    /// The OAuth scopes a caller needs to call this tool, every one of them, as
    /// `#[mcp_tool(scopes("orders:read"))]` declares them (empty: any caller the
    /// server lets in). Served over HTTP with authorization, a token without one of them
    /// gets 403 `insufficient_scope` naming them all, and does not see the tool listed
    /// (see `mcp_tool::http::auth`).
    ///
    /// ```
    /// use mcp_tool::McpTool;
    /// use serde::Deserialize;
    ///
    /// /// Cancel an order.
    /// #[derive(McpTool, Deserialize)]
    /// #[mcp_tool(scopes("orders:read", "orders:write"))]
    /// struct CancelOrder { order_id: String }
    ///
    /// assert_eq!(CancelOrder::scopes(), ["orders:read", "orders:write"]);
    /// ```
    fn scopes() -> &'static [&'static str] {
        Self::spec().scopes
    }

    /// Checks `arguments` (type, presence, unknown names, every rule) and reads them.
    /// Dates are judged by the system clock in the system's zone; see
    /// [`McpTool::from_arguments_in`].
    ///
    /// `arguments` absent (`null`) counts as `{}`; any other non-object is a malformed
    /// request ([`ToolError::is_malformed_request`]). All problems are reported at once,
    /// in declaration order. A value under a field's serde `alias` is read as the
    /// field's, as serde and a served tool read it; the client mistakes a served tool
    /// repairs (see [`Toolbox::repairs`](crate::Toolbox::repairs)) are not repaired here:
    /// what else the schema refuses, this refuses.
    ///
    /// The arguments are taken by value, as a server receives them: valid ones are moved
    /// into `Self` (no string is copied), and invalid ones are kept in the error as they
    /// came, for `attempted_query`. A caller that must keep its value passes a clone.
    fn from_arguments(arguments: Value) -> Result<Self, ToolError> {
        Self::from_arguments_in(arguments, &Context::now())
    }

    /// [`McpTool::from_arguments`] with the date rules judged in `context`.
    fn from_arguments_in(arguments: Value, context: &Context) -> Result<Self, ToolError> {
        Self::spec().from_arguments(arguments, context, SchemaProfile::Portable)
    }

    /// [`McpTool::from_arguments_in`] for arguments written against the schema of
    /// `profile`. The rules are the same in every profile; with
    /// [`SchemaProfile::OpenAi`], whose schema makes optional properties nullable,
    /// `null` for one reads as "left out".
    fn from_arguments_for(
        arguments: Value,
        context: &Context,
        profile: SchemaProfile,
    ) -> Result<Self, ToolError> {
        Self::spec().from_arguments(arguments, context, profile)
    }
}

/// An enum usable as a field's type. Implemented by `#[derive(McpEnum)]`.
pub trait McpEnum: Argument {
    /// The values on the wire, in declaration order: what the schema's `enum` lists.
    const VALUES: &'static [&'static str];
}
