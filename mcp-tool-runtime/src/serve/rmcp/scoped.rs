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
    /// More scopes, by the tool's name as rmcp lists it, for methods whose scopes no
    /// `Parameters` type declares (a method that takes no arguments). Scopes declared
    /// on a method's `Parameters` type (`#[mcp_tool(scopes(...))]`) need no table: they
    /// are read from the type, by the call's check, each caller's `tools/list` and the
    /// HTTP server's 403 alike. A tool's scopes are those its type declares and those
    /// the table adds, every one.
    ///
    /// ```
    /// use mcp_tool::ToolScopes;
    /// use mcp_tool::rmcp::Parameters;
    /// use mcp_tool::{Caller, McpTool, ToolError};
    /// use rmcp::handler::server::tool::ToolRouter;
    /// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
    /// use std::sync::LazyLock;
    ///
    /// // `report` takes no arguments: no type to declare its scope on.
    /// static SCOPES: LazyLock<ToolScopes> =
    ///     LazyLock::new(|| ToolScopes::from_table(&[("report", &["orders:read"])]));
    ///
    /// /// Cancel an order.
    /// #[derive(McpTool, serde::Deserialize)]
    /// #[mcp_tool(scopes("orders:write"))]
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
    ///
    ///     #[tool(description = "Today's orders")]
    ///     async fn report(&self) -> Result<String, ToolError> {
    ///         Ok("3 orders".into())
    ///     }
    /// }
    ///
    /// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router).scopes(&SCOPES))]
    /// impl ServerHandler for Desk {}
    /// ```
    pub fn scopes(mut self, scopes: &'r ToolScopes) -> Self {
        self.scopes = Some(scopes);
        self
    }

    /// What a call that comes with no verified caller is served as (over stdio, or
    /// HTTP without authorization), as [`Toolbox::unverified_calls`] says for a Toolbox:
    /// by default a method whose scopes are declared (in [`Structured::scopes`],
    /// or on its `Parameters` type) or that takes a [`Caller`] is refused such a call.
    ///
    /// [`Toolbox::unverified_calls`]: crate::Toolbox::unverified_calls
    pub fn unverified_calls(mut self, unverified: Unverified) -> Self {
        self.unverified = unverified;
        self
    }

    /// The scopes `tool` needs: those its `Parameters` type declares (carried in its
    /// schema by this crate) and those [`Structured::scopes`] gives it.
    pub(super) fn scopes_of(&self, tool: &rmcp::model::Tool) -> Vec<String> {
        let mut scopes = crate::caller::scopes_in_schema(&tool.input_schema);
        if let Some(table) = self.scopes {
            for scope in table.of(&tool.name) {
                if !scopes.iter().any(|s| s == scope) {
                    scopes.push((*scope).to_owned());
                }
            }
        }
        scopes
    }

    /// The refusal of a call of `tool` by the caller of `context`, if it may not make it.
    pub(super) fn refused(
        &self,
        tool: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<rmcp::model::CallToolResult> {
        let needed = self.scopes_of(self.router_tool(tool)?);
        let needed: Vec<&str> = needed.iter().map(String::as_str).collect();
        let caller = caller_of(context);
        let refusal = crate::caller::admit(tool, &needed, caller.as_ref(), &self.unverified)
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
        if caller_of(context).is_some() {
            listed.cache_scope = Some(rmcp::model::CacheScope::Private);
        }
        listed
    }

    /// Keeps of `tools` those `caller` may call (`None`: a call without a verified
    /// caller, served as [`Structured::unverified_calls`] says), each schema without the
    /// scopes it carried: forgetting the caller hides tools rather than shows a caller
    /// tools it may not call.
    pub(super) fn keep_permitted(
        &self,
        tools: &mut Vec<rmcp::model::Tool>,
        caller: Option<&Caller>,
    ) {
        tools.retain_mut(|tool| {
            let needed = self.scopes_of(tool);
            let needed: Vec<&str> = needed.iter().map(String::as_str).collect();
            if !crate::caller::permits(&needed, caller, &self.unverified) {
                return false;
            }
            if tool.input_schema.contains_key(crate::caller::SCOPES_KEY) {
                let mut schema = (*tool.input_schema).clone();
                schema.remove(crate::caller::SCOPES_KEY);
                tool.input_schema = std::sync::Arc::new(schema);
            }
            true
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

/// An rmcp `#[tool]` method under [`structured`](super::structured) may take the
/// progress of its call, as a handler of the Toolbox does (see
/// [`Progress`](crate::serve::progress::Progress)): in a task, the task's; else the
/// request's, if its client sent a `progressToken`.
impl<'a, S> FromContextPart<ToolCallContext<'a, S>> for crate::serve::progress::Progress {
    fn from_context_part(context: &mut ToolCallContext<'a, S>) -> Result<Self, ErrorData> {
        let progress = crate::serve::tasks::follower()
            .or_else(|| super::peer::signals(&context.request_context).progress);
        Ok(crate::serve::progress::Progress::to(progress))
    }
}

/// An rmcp `#[tool]` method under [`structured`](super::structured) may take the signal
/// that its call was cancelled, as a handler of the Toolbox does (see
/// [`Cancelled`](crate::serve::tasks::Cancelled)): its task's, else its request's.
impl<'a, S> FromContextPart<ToolCallContext<'a, S>> for crate::serve::tasks::Cancelled {
    fn from_context_part(context: &mut ToolCallContext<'a, S>) -> Result<Self, ErrorData> {
        Ok(crate::serve::tasks::Cancelled::of_call(Some(
            &context.request_context.ct,
        )))
    }
}
