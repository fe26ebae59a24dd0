//! Who may call rmcp's own `#[tool]` methods served through `structured`: the scopes
//! given to it, checked against the verified caller before a method's arguments are
//! read; and the [`Caller`] as an extractor a method takes.

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::convert::to_rmcp_result;
use super::peer::caller_of;
use super::structured::Structured;
use crate::caller::{Caller, ToolScopes, Unverified};

impl<'r, S: Send + Sync + 'static> Structured<'r, S> {
    /// The scopes each tool needs (every one), by the tool's name as rmcp lists it: a
    /// call by a caller that lacks one is refused before the method's arguments are
    /// read, a call with no verified caller is refused for a tool with scopes, and
    /// [`Structured::list_for`] lists each caller only the tools it may call. Give the
    /// HTTP server the same table (see `mcp_tool::http::auth`).
    ///
    /// ```
    /// use mcp_tool::ToolScopes;
    /// use mcp_tool::rmcp::Parameters;
    /// use mcp_tool::{McpTool, ToolError};
    /// use rmcp::handler::server::tool::ToolRouter;
    /// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
    /// use std::sync::LazyLock;
    ///
    /// static SCOPES: LazyLock<ToolScopes> =
    ///     LazyLock::new(|| ToolScopes::from_table(&[("cancel", &["orders:write"])]));
    ///
    /// /// Cancel an order.
    /// #[derive(McpTool, serde::Deserialize)]
    /// struct Cancel { id: String }
    ///
    /// #[derive(Clone)]
    /// struct Desk { tool_router: ToolRouter<Self> }
    ///
    /// #[tool_router]
    /// impl Desk {
    ///     #[tool(description = "Cancel an order")]
    ///     async fn cancel(&self, Parameters(a): Parameters<Cancel>) -> Result<String, ToolError> {
    ///         Ok(a.id)
    ///     }
    /// }
    ///
    /// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).with_scopes(&SCOPES))]
    /// impl ServerHandler for Desk {}
    /// ```
    pub fn with_scopes(mut self, scopes: &'r ToolScopes) -> Self {
        self.scopes = Some(scopes);
        self
    }

    /// The refusal of a call of `tool` by the caller of `context`, if it may not make it.
    pub(super) fn refused(
        &self,
        tool: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<rmcp::model::CallToolResult> {
        let needed = self.scopes?.of(tool);
        let caller = caller_of(context);
        let refusal = crate::caller::admit(tool, needed, caller.as_ref(), &Unverified::Refused)
            .err()?
            .for_call(tool.to_owned(), Value::Object(Default::default()));
        Some(to_rmcp_result(refusal.into_call_result()))
    }

    /// Keeps of `tools` those the caller of `context` may call.
    pub(super) fn keep_permitted(
        &self,
        tools: &mut Vec<rmcp::model::Tool>,
        context: &RequestContext<RoleServer>,
    ) {
        let Some(scopes) = self.scopes else { return };
        let caller = caller_of(context);
        tools.retain(|tool| {
            crate::caller::permits(scopes.of(&tool.name), caller.as_ref(), &Unverified::Refused)
        });
    }
}

/// A `#[tool]` method's caller, as the transport verified it: take `caller: Caller`
/// among the method's parameters. A call without a verified caller is refused (the
/// `permission` category) before the method runs.
impl<'a, S> FromContextPart<ToolCallContext<'a, S>> for Caller {
    fn from_context_part(context: &mut ToolCallContext<'a, S>) -> Result<Self, ErrorData> {
        caller_of(&context.request_context).ok_or_else(|| {
            let tool = context.name().to_owned();
            let refusal = crate::caller::no_caller(&tool, false)
                .for_call(tool, Value::Object(Default::default()));
            let text = refusal.text();
            ErrorData::invalid_params(
                format!("{}{text}", super::convert::RMCP_ARGUMENT_ERROR),
                None,
            )
        })
    }
}
