//! Who may call rmcp's own `#[tool]` methods served through `structured`: the scopes
//! given to it, checked against the verified caller before a method's arguments are
//! read; and the [`Caller`] as an extractor a method takes.

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::ListToolsResult;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::convert::to_rmcp_result;
use super::mailbox::{Mailbox, extraction_error};
use super::peer::{admitted, caller_of};
use super::structured::Structured;
use crate::caller::{Caller, ToolScopes, Unverified};

impl<'r, S: Send + Sync + 'static> Structured<'r, S> {
    /// The scopes each tool needs (every one), by the tool's name as rmcp lists it: a
    /// call by a caller that lacks one is refused before the method's arguments are
    /// read, and a call with no verified caller is refused for a tool with scopes. Give
    /// the HTTP server the same table (see `mcp_tool::http::auth`).
    ///
    /// rmcp's `#[tool_handler]` writes a `list_tools` that sees no caller: with scopes,
    /// the list it gets from [`Structured::list_all`] holds only the tools that need
    /// none, what a call without a verified caller may make. To list each caller the
    /// tools it may call, write `list_tools` with [`Structured::list_tools`], as below
    /// (the macro then leaves yours in place).
    ///
    /// ```
    /// use mcp_tool::ToolScopes;
    /// use mcp_tool::rmcp::Parameters;
    /// use mcp_tool::{Caller, McpTool, ToolError};
    /// use rmcp::handler::server::tool::ToolRouter;
    /// use rmcp::model::{ListToolsResult, PaginatedRequestParams};
    /// use rmcp::service::{RequestContext, RoleServer};
    /// use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
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
    ///     async fn cancel(&self, caller: Caller, Parameters(a): Parameters<Cancel>) -> Result<String, ToolError> {
    ///         Ok(format!("{} cancelled {}", caller.subject(), a.id))
    ///     }
    /// }
    ///
    /// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).with_scopes(&SCOPES))]
    /// impl ServerHandler for Desk {
    ///     async fn list_tools(
    ///         &self,
    ///         _: Option<PaginatedRequestParams>,
    ///         context: RequestContext<RoleServer>,
    ///     ) -> Result<ListToolsResult, ErrorData> {
    ///         let tools = mcp_tool::rmcp::structured(&self.tool_router).with_scopes(&SCOPES);
    ///         Ok(tools.list_tools(&context))
    ///     }
    /// }
    /// ```
    pub fn with_scopes(mut self, scopes: &'r ToolScopes) -> Self {
        self.scopes = Some(scopes);
        self
    }

    /// What a call that comes with no verified caller is served as (over stdio, or
    /// HTTP without authorization), as [`Toolbox::unverified_calls`] says for a Toolbox:
    /// by default a method whose scopes are declared (in [`Structured::with_scopes`],
    /// or on its `Parameters` type) or that takes a [`Caller`] is refused such a call.
    ///
    /// [`Toolbox::unverified_calls`]: crate::Toolbox::unverified_calls
    pub fn unverified_calls(mut self, unverified: Unverified) -> Self {
        self.unverified = unverified;
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
        let refusal = crate::caller::admit(tool, needed, caller.as_ref(), &self.unverified)
            .err()?
            .for_call(tool.to_owned(), Value::Object(Default::default()));
        Some(to_rmcp_result(refusal.into_call_result()))
    }

    /// The answer to `tools/list` for the caller of `context`: the tools it may call, in
    /// its client's profile ([`Structured::list_for`]), marked private to that caller
    /// (`cacheScope`, where the protocol version has it) when the list depends on who
    /// asks.
    pub fn list_tools(&self, context: &RequestContext<RoleServer>) -> ListToolsResult {
        let mut listed = ListToolsResult::with_all_items(self.list_for(context));
        if self.scopes.is_some() && caller_of(context).is_some() {
            listed.cache_scope = Some(rmcp::model::CacheScope::Private);
        }
        listed
    }

    /// Keeps of `tools` those a call without a verified caller may make: what a list
    /// that sees no caller shows, so that forgetting the caller hides tools rather than
    /// shows a caller tools it may not call.
    pub(super) fn keep_public(&self, tools: &mut Vec<rmcp::model::Tool>) {
        let Some(scopes) = self.scopes else { return };
        tools.retain(|tool| crate::caller::permits(scopes.of(&tool.name), None, &self.unverified));
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
            crate::caller::permits(scopes.of(&tool.name), caller.as_ref(), &self.unverified)
        });
    }
}

/// A `#[tool]` method's caller, as the transport verified it (or as the operator named
/// it, `Structured::unverified_calls`): take `caller: Caller` among the method's
/// parameters. A call without one is refused (the `permission` category) before the
/// method runs.
impl<'a, S> FromContextPart<ToolCallContext<'a, S>> for Caller {
    fn from_context_part(context: &mut ToolCallContext<'a, S>) -> Result<Self, ErrorData> {
        let tool = context.name().to_owned();
        let extensions = &context.request_context.extensions;
        let refused = match admitted(&tool, &[], extensions) {
            Ok(Some(caller)) => return Ok(caller),
            Ok(None) => crate::caller::no_caller(&tool, false),
            Err(refused) => refused,
        };
        let refused = refused.for_call(tool, Value::Object(Default::default()));
        Err(extraction_error(refused, extensions.get::<Mailbox>()))
    }
}
