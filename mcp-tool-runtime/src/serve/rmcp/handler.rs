//! The [`Toolbox`] as an rmcp `ServerHandler` (see [`crate::rmcp`] for the whole
//! picture).

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CustomRequest, CustomResult,
    GetTaskParams, GetTaskResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use std::sync::Arc;

use super::convert::{
    as_object, reject_malformed_call, to_rmcp_error, to_rmcp_input_required, to_rmcp_result,
    to_rmcp_tool,
};
use super::peer::{caller_of, client_name, reach, signals, takes_bare_results};
use super::tasked;
use crate::ask::Answer;
use crate::describe::profile::SchemaProfile;
use crate::serve::call::Routed;
use crate::serve::toolbox::Toolbox;
use crate::serve::toolbox::completed;

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

impl<S: Send + Sync + 'static> rmcp::ServerHandler for Toolbox<S> {
    fn get_info(&self) -> ServerConfig {
        let (name, version) = self.server_info();
        let capabilities = ServerCapabilities::builder().enable_tools();
        // The tasks extension, where a tool supports tasks.
        let capabilities = if self.serves_tasks() {
            capabilities.enable_tasks().build()
        } else {
            capabilities.build()
        };
        ServerConfig::new(capabilities)
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

    /// The tool `name`, its schema carrying the scopes it declares for the HTTP server
    /// to read (as a `structured` router's tools carry theirs; lists never show them).
    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        if name == crate::caller::ALL_SCOPES {
            let mut all: Vec<&'static str> =
                self.scopes.iter().flat_map(|s| s.iter().copied()).collect();
            all.sort_unstable();
            all.dedup();
            let mut schema = serde_json::Map::new();
            crate::caller::with_scopes_in_schema(&mut schema, &all);
            return Some(rmcp::model::Tool::new(
                name.to_owned(),
                "",
                Arc::new(schema),
            ));
        }
        let i = self.list().iter().position(|t| t.name == name)?;
        let mut tool = rmcp_tools(self, self.profile_for(None)).get(i).cloned()?;
        if !self.scopes[i].is_empty() {
            let mut schema = (*tool.input_schema).clone();
            crate::caller::with_scopes_in_schema(&mut schema, self.scopes[i]);
            tool.input_schema = Arc::new(schema);
        }
        Some(tool)
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
        let defer = tasked::defers(self.task_support_of(&request.name), &context)?
            .then(crate::serve::tasks::questions);
        let mut signals = signals(&context);
        if defer.is_some() {
            // Its request is answered with the task: the handler's progress is the
            // task's.
            signals.progress = Some(Arc::new(crate::serve::tasks::InTask));
        }
        let routed = self.call_routed(
            caller.as_ref(),
            profile,
            &request.name,
            arguments,
            reach,
            defer,
            signals,
        );
        let bare = takes_bare_results(&context) && self.bare_outputs.contains_key(&*request.name);
        match routed.await {
            Ok(Routed::Now(answer)) => answered(answer, bare, &request.name),
            Ok(Routed::Later(later)) => {
                let name = request.name.to_string();
                let work = Box::pin(async move {
                    let Ok(answer) = later.await else {
                        return Err(internal(&format!(
                            "The tool {name} failed unexpectedly (its handler panicked): its work may be partly done."
                        )));
                    };
                    // A handler asks within its task through the task: never a round.
                    let answer = Answer::Complete(completed(&name, answer));
                    match answered(answer, bare, &name) {
                        Ok(CallToolResponse::Complete(result)) => {
                            serde_json::to_value(result).map_err(|e| internal(&e.to_string()))
                        }
                        Ok(_) => Err(internal("the call asked its user within a task")),
                        Err(error) => Err(serde_json::to_value(error).unwrap_or_default()),
                    }
                });
                let owner = tasked::owner(&context);
                let record = self.tasks.start(owner, &request.name, work).await;
                tasked::created(&self.tasks, record, &request.name)
            }
            Err(error) => Err(to_rmcp_error(&error)),
        }
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        tasked::get(&self.tasks, &request.task_id, &context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        tasked::cancel(&self.tasks, &request.task_id, &context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        tasked::update(&self.tasks, request, &context).await
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        reject_malformed_call(request)
    }
}

/// A call's answer as rmcp's: the questions for the user, or the result (its output the
/// value itself where `bare`: a peer of 2026-07-28 takes any JSON value as structured
/// content, and the output carried as `{"result": value}` for older peers is unwrapped).
fn answered(answer: Answer, bare: bool, _tool: &str) -> Result<CallToolResponse, ErrorData> {
    match answer {
        Answer::InputRequired(asked) => to_rmcp_input_required(asked),
        Answer::Complete(mut result) => {
            if !result.is_error
                && bare
                && let Some(Value::Object(mut wrapped)) = result.structured_content.take()
            {
                result.structured_content = wrapped.remove("result");
            }
            Ok(to_rmcp_result(result).into())
        }
    }
}

/// A task that failed within this server: a JSON-RPC internal error object.
fn internal(message: &str) -> Value {
    serde_json::json!({ "code": -32603, "message": message })
}
