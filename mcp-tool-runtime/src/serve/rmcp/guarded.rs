//! Every request answered, even one whose handler panics.
//!
//! rmcp answers each request in a task of its own, and a handler that panics ends that
//! task with the request unanswered: the client waits until it gives up, and stdio's
//! serving, which answers every request read before it ends, would never end. A
//! `Toolbox`, and an rmcp router handed over through `structured`, catch a tool's panic
//! themselves and say which tool failed and whether calling again is safe. The crate's
//! stdio serving runs every handler (rmcp's own router, a `list_tools` of the author's)
//! inside [`Guarded`], which answers such a request all the same. Its HTTP serving
//! cannot: rmcp's Streamable HTTP service takes a `ServerHandler`, not a `Service`, and
//! a wrapper would have to forward each of its methods, and miss any that rmcp adds.

use std::sync::Arc;

use rmcp::ServerHandler;
use rmcp::model::{
    CallToolResponse, ClientNotification, ClientRequest, ErrorData, ProtocolVersion, ServerConfig,
    ServerResult,
};
use rmcp::service::{MaybeSendFuture, NotificationContext, RequestContext, RoleServer, Service};

use super::convert::{annotations, to_rmcp_result};
use crate::describe::Annotations;
use crate::serve::call::CatchUnwind;
use crate::serve::output::internal_failure;

/// A handler whose panics are answered: a tool call's as a tool execution error, as a
/// `Toolbox` answers it; any other request's as JSON-RPC's internal error.
pub(crate) struct Guarded<H>(pub(crate) Arc<H>);

impl<H: ServerHandler> Service<RoleServer> for Guarded<H> {
    fn handle_request(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ServerResult, ErrorData>> + MaybeSendFuture + '_ {
        let tool = match &request {
            ClientRequest::CallToolRequest(call) => Some(call.params.name.to_string()),
            _ => None,
        };
        // As rmcp decides it: only 2026-07-28's results say `resultType`.
        let legacy = context
            .protocol_version()
            .is_none_or(|v| v.as_str() < ProtocolVersion::V_2026_07_28.as_str());
        let answer = Service::handle_request(&*self.0, request, context);
        async move {
            CatchUnwind(Box::pin(answer))
                .await
                .unwrap_or_else(|_| self.panicked(tool, legacy))
        }
    }

    fn handle_notification(
        &self,
        notification: ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        Service::handle_notification(&*self.0, notification, context)
    }

    fn get_info(&self) -> ServerConfig {
        Service::get_info(&*self.0)
    }

    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        Service::supported_protocol_versions(&*self.0)
    }
}

impl<H: ServerHandler> Guarded<H> {
    /// The answer to a request whose handler panicked (its message went to the log).
    fn panicked(&self, tool: Option<String>, legacy: bool) -> Result<ServerResult, ErrorData> {
        let Some(tool) = tool else {
            return Err(ErrorData::internal_error(
                "The server failed while answering this request.",
                None,
            ));
        };
        let annotations = (self.0.get_tool(&tool))
            .and_then(|t| t.annotations.as_ref().map(annotations))
            .unwrap_or(Annotations::NONE);
        let error = internal_failure(&tool, annotations).for_tool(tool);
        let result = CallToolResponse::from(to_rmcp_result(error.into_call_result()));
        let mut result = ServerResult::from(result);
        if legacy {
            result.strip_result_type_for_legacy_peer();
        }
        Ok(result)
    }
}
