//! The `Toolbox` as an rmcp `ServerHandler`, and the conversions between this crate's
//! tools, results and errors and rmcp's (see [`crate::rmcp`] for the whole picture).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ContentBlock, CustomRequest, CustomResult, ErrorCode,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::peer::{reach, takes_bare_results};
use super::toolbox::{CallError, Toolbox, malformed_call};
use crate::ask::Answer;
use crate::caller::Caller;
use crate::describe::Tool;
use crate::describe::profile::SchemaProfile;
use crate::result::{CallToolResult, Content, ToolError};

/// rmcp's router recognizes a failed extraction by this start of the message, and turns
/// it into an `isError` result instead of a JSON-RPC error.
pub(super) const RMCP_ARGUMENT_ERROR: &str = "failed to deserialize parameters: ";

/// The toolbox's tools as rmcp's type, in `profile`: made once per toolbox.
fn rmcp_tools<S: Send + Sync + 'static>(
    toolbox: &Toolbox<S>,
    profile: SchemaProfile,
) -> &[rmcp::model::Tool] {
    let lists = toolbox.rmcp_tools.get_or_init(|| {
        SchemaProfile::ALL.map(|p| toolbox.list_for(p).iter().map(to_rmcp_tool).collect())
    });
    &lists[profile.index()]
}

/// This crate's tool entry as rmcp's.
pub fn to_rmcp_tool(tool: &Tool) -> rmcp::model::Tool {
    let mut out = rmcp::model::Tool::new(
        tool.name.clone(),
        tool.description.clone().unwrap_or_default(),
        Arc::new(as_object(&tool.input_schema)),
    );
    out.description = tool.description.clone().map(Cow::Owned);
    out.title = tool.title.clone();
    out.output_schema = tool
        .output_schema
        .as_ref()
        .map(|schema| Arc::new(as_object(schema)));
    if !tool.annotations.is_empty() {
        // Same wire names on both sides.
        out.annotations = serde_json::to_value(tool.annotations)
            .ok()
            .and_then(|v| serde_json::from_value(v).ok());
    }
    out
}

pub(super) fn as_object(schema: &Value) -> serde_json::Map<String, Value> {
    schema.as_object().cloned().unwrap_or_default()
}

/// This crate's call result as rmcp's.
pub fn to_rmcp_result(result: CallToolResult) -> rmcp::model::CallToolResult {
    let content = result
        .content
        .into_iter()
        .map(|block| match block {
            Content::Text { text } => ContentBlock::text(text),
        })
        .collect();
    let mut out = if result.is_error {
        rmcp::model::CallToolResult::error(content)
    } else {
        rmcp::model::CallToolResult::success(content)
    };
    out.structured_content = result.structured_content;
    out.meta = result.meta.map(rmcp::model::MetaObject);
    out
}

/// The questions of a round, as rmcp's result.
#[cfg(feature = "ask")]
pub(super) fn to_rmcp_input_required(
    asked: crate::ask::InputRequired,
) -> Result<CallToolResponse, ErrorData> {
    use rmcp::model::{InputRequests, InputRequiredResult};
    let requests: InputRequests = serde_json::from_value(Value::Object(asked.input_requests))
        .map_err(|e| ErrorData::internal_error(format!("a question to the user: {e}"), None))?;
    Ok(InputRequiredResult::new(Some(requests), Some(asked.request_state)).into())
}

/// Without the `ask` feature no call asks (no session suspends): a question is an
/// error of the server, and rmcp's readers of questions stay out of its binary.
#[cfg(not(feature = "ask"))]
pub(super) fn to_rmcp_input_required(
    _: crate::ask::InputRequired,
) -> Result<CallToolResponse, ErrorData> {
    Err(ErrorData::internal_error(
        "mcp-tool: a call asked its user in a server built without the `ask` feature",
        None,
    ))
}

/// A protocol error as rmcp's: -32602 with the message.
pub fn to_rmcp_error(error: &CallError) -> ErrorData {
    ErrorData::invalid_params(error.message().to_owned(), None)
}

impl<S: Send + Sync + 'static> rmcp::ServerHandler for Toolbox<S> {
    fn get_info(&self) -> ServerConfig {
        let (name, version) = self.server_info();
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(rmcp::model::Implementation::new(name, version))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let profile = self.profile_for(client_name(&context).as_deref());
        let caller = caller_of(&context);
        let all = rmcp_tools(self, profile).iter().enumerate();
        let mut tools: Vec<_> = all
            .filter(|(i, _)| self.permits(*i, caller.as_ref()))
            .map(|(_, tool)| tool.clone())
            .collect();
        // A peer of 2026-07-28 takes any JSON value as structured content: the outputs
        // carried as `{"result": value}` for older peers are the value itself.
        if takes_bare_results(&context) {
            for tool in &mut tools {
                if let Some(bare) = self.bare_outputs.get(tool.name.as_ref()) {
                    tool.output_schema = Some(Arc::new(as_object(bare)));
                }
            }
        }
        let mut listed = ListToolsResult::with_all_items(tools);
        // A list that depends on who asks is no list to share between users (SEP-2567):
        // rmcp writes `cacheScope` only for a protocol version that has it.
        if caller.is_some() {
            listed.cache_scope = Some(rmcp::model::CacheScope::Private);
        }
        Ok(listed)
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        let i = self.list().iter().position(|t| t.name == name)?;
        rmcp_tools(self, self.profile_for(None)).get(i).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let profile = self.profile_for(client_name(&context).as_deref());
        let arguments = request.arguments.map_or(Value::Null, Value::Object);
        let reach = reach(
            &context,
            request.input_responses,
            request.request_state,
            self.answer_within(),
        );
        let caller = caller_of(&context);
        match self
            .call_reaching_as(caller.as_ref(), profile, &request.name, arguments, reach)
            .await
        {
            Ok(Answer::InputRequired(asked)) => to_rmcp_input_required(asked),
            Ok(Answer::Complete(mut result)) => {
                if !result.is_error
                    && takes_bare_results(&context)
                    && self.bare_outputs.contains_key(request.name.as_ref())
                    && let Some(Value::Object(mut wrapped)) = result.structured_content.take()
                {
                    result.structured_content = wrapped.remove("result");
                }
                Ok(to_rmcp_result(result).into())
            }
            Err(error) => Err(to_rmcp_error(&error)),
        }
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        reject_malformed_call(request)
    }
}

/// The name the client gives itself: in this request's `_meta` (a 2026-07-28 client
/// sends its `clientInfo` with every request, and a stateless request has no session
/// to read it from), else in the session's `initialize`.
pub(super) fn client_name(context: &RequestContext<RoleServer>) -> Option<String> {
    context.client_info().map(|info| info.name)
}

/// Who calls, as the transport verified it: a [`Caller`] in the request's extensions,
/// or (over HTTP) in those of the HTTP request, where the authorization gate puts it.
pub(super) fn caller_of(context: &RequestContext<RoleServer>) -> Option<Caller> {
    if let Some(caller) = context.extensions.get::<Caller>() {
        return Some(caller.clone());
    }
    #[cfg(feature = "http")]
    if let Some(parts) = context.extensions.get::<hyper::http::request::Parts>() {
        return parts.extensions.get::<Caller>().cloned();
    }
    None
}

/// The answer to a request that rmcp could not read as any request it knows: for a
/// `tools/call`, a JSON-RPC -32602 that says what is wrong with it; for another
/// method, rmcp's own "method not found" (-32601).
///
/// rmcp reads a `tools/call` whose `arguments` is not an object, or that has no
/// `name`, as a request of an unknown method, and answers -32601 "tools/call": the
/// client, and the model behind it, learn nothing of what to fix. [`Toolbox`] answers
/// through this function; an rmcp `#[tool_handler]` server can do the same by adding
/// one method to its `ServerHandler` impl:
///
/// ```
/// # use mcp_tool::rmcp::Parameters;
/// # use mcp_tool::{McpTool, ToolError};
/// # use rmcp::handler::server::tool::ToolRouter;
/// # use rmcp::{ServerHandler, tool, tool_handler, tool_router};
/// use rmcp::model::{CustomRequest, CustomResult};
/// use rmcp::service::{RequestContext, RoleServer};
/// # /// Say hello.
/// # #[derive(McpTool, serde::Deserialize)]
/// # struct Greet { name: String }
/// # #[derive(Clone)]
/// # struct Desk { tool_router: ToolRouter<Self> }
/// # #[tool_router]
/// # impl Desk {
/// #     #[tool(description = "Say hello")]
/// #     async fn greet(&self, Parameters(a): Parameters<Greet>) -> Result<String, ToolError> {
/// #         Ok(a.name)
/// #     }
/// # }
///
/// #[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router))]
/// impl ServerHandler for Desk {
///     async fn on_custom_request(
///         &self,
///         request: CustomRequest,
///         _: RequestContext<RoleServer>,
///     ) -> Result<CustomResult, rmcp::ErrorData> {
///         mcp_tool::rmcp::reject_malformed_call(request)
///     }
/// }
/// ```
pub fn reject_malformed_call(request: CustomRequest) -> Result<CustomResult, ErrorData> {
    if request.method != "tools/call" {
        return Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            request.method,
            None,
        ));
    }
    let params = request.params.unwrap_or(Value::Null);
    // rmcp sends here only what it could not read as a call: something is wrong with it.
    let message = malformed_call(&params)
        .unwrap_or_else(|| "tools/call could not be read as a call".to_owned());
    Err(ErrorData::invalid_params(message, None))
}

/// A handler's `ToolError` becomes an `isError` result with the contract's
/// `structuredContent`, so an rmcp `#[tool]` method can return `Result<T, ToolError>`.
impl IntoCallToolResult for ToolError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        // Under `structured`, the call it answers is known; else "The tool".
        let called = super::router::CALLED.try_with(Clone::clone).ok();
        let error = match called {
            Some(c) => self.settled(&c.tool, c.annotations, c.show_unexpected),
            None => self.settled("The tool", crate::describe::Annotations::NONE, false),
        };
        Ok(to_rmcp_result(error.into_call_result()).into())
    }
}
