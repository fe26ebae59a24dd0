//! The conversions between this crate's tools, results and errors and rmcp's, and the
//! call an rmcp method's [`ToolError`] answers (rmcp turns the error into a result
//! through `IntoCallToolResult`, knowing nothing of the call).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, ContentBlock, CustomRequest, CustomResult, ErrorCode};
use serde_json::Value;

use crate::describe::{Annotations, Tool};
use crate::result::{CallToolResult, Content, ToolError};
use crate::serve::toolbox::{CallError, malformed_call};

/// The key of a tool's `_meta` that carries its `execution` from the handler to the
/// transport: rmcp's `Tool` has no field for it, so the transport moves it out of
/// `_meta` to the tool's own `execution`, where the clients of tasks read it.
pub(crate) const EXECUTION_META: &str = "mcp-tool/execution";

/// rmcp's router recognizes a failed extraction by this start of the message, and turns
/// it into an `isError` result instead of a JSON-RPC error.
pub(crate) const RMCP_ARGUMENT_ERROR: &str = "failed to deserialize parameters: ";

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
    if let Some(execution) = tool.execution {
        // rmcp's `Tool` has no `execution`: it rides in `_meta` to the transport, which
        // writes it where clients read it (see `tasked::executions_onto`).
        let mut meta = serde_json::Map::new();
        let execution = serde_json::to_value(execution).unwrap_or_default();
        meta.insert(EXECUTION_META.into(), execution);
        out.meta = Some(rmcp::model::MetaObject(meta));
    }
    if !tool.annotations.is_empty() {
        // Same wire names on both sides.
        out.annotations = serde_json::to_value(tool.annotations)
            .ok()
            .and_then(|v| serde_json::from_value(v).ok());
    }
    out
}

pub(crate) fn as_object(schema: &Value) -> serde_json::Map<String, Value> {
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
pub(crate) fn to_rmcp_input_required(
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
pub(crate) fn to_rmcp_input_required(
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

/// The answer to a request that rmcp could not read as any request it knows: for a
/// `tools/call`, a JSON-RPC -32602 that says what is wrong with it; for another
/// method, rmcp's own "method not found" (-32601).
///
/// rmcp reads a `tools/call` whose `arguments` is not an object, or that has no
/// `name`, as a request of an unknown method, and answers -32601 "tools/call": the
/// client, and the model behind it, learn nothing of what to fix. [`Toolbox`](crate::Toolbox) answers
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

/// rmcp's annotations of a tool as this crate's.
pub(crate) fn annotations(a: &rmcp::model::ToolAnnotations) -> Annotations {
    Annotations {
        read_only_hint: a.read_only_hint,
        destructive_hint: a.destructive_hint,
        idempotent_hint: a.idempotent_hint,
        open_world_hint: a.open_world_hint,
    }
}

/// The call a method runs in, for the `ToolError` it returns (which rmcp turns into a
/// result through `IntoCallToolResult`, knowing nothing of the call).
#[derive(Debug, Clone)]
pub(crate) struct Called {
    pub tool: String,
    pub annotations: Annotations,
    pub show_unexpected: bool,
    pub sorting: std::sync::Arc<crate::result::ErrorSorting>,
}

tokio::task_local! {
    pub(crate) static CALLED: Called;
}

/// A handler's `ToolError` becomes an `isError` result with the contract's
/// `structuredContent`, so an rmcp `#[tool]` method can return `Result<T, ToolError>`.
impl IntoCallToolResult for ToolError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        // Under `structured`, the call it answers is known; else "The tool".
        let called = CALLED.try_with(Clone::clone).ok();
        let error = match called {
            Some(c) => self.sorted_for(&c.tool, c.annotations, c.show_unexpected, &c.sorting),
            None => self.sorted_for(
                "The tool",
                Annotations::NONE,
                false,
                crate::result::ErrorSorting::NONE,
            ),
        };
        Ok(to_rmcp_result(error.into_call_result()).into())
    }
}
