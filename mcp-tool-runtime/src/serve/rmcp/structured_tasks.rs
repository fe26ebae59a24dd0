//! Under [`structured`](fn@super::structured), the call of a `#[tool]` method whose
//! `Parameters` type supports tasks, from a client that declared them: its arguments
//! checked by a first pass of the extractors that stops before the method, then the
//! method run in the task, called again on a clone of the server, which the task's
//! future owns (rmcp's router borrows the server for the call).

use rmcp::ErrorData;
use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::CallToolResponse;
use serde_json::Value;

use super::convert::{CALLED, Called};
use super::mailbox::{Mailbox, Stage};
use super::structured_answer::{answer, settle};
use crate::serve::settings::{Settings, Started};

/// Where `structured` keeps the calls that become tasks, and how it clones the server
/// for a call that outlives its request.
pub(super) type Tasking<'r, S> = (&'r crate::serve::tasks::Tasks, fn(&S) -> S);

/// Whether this call of `route` becomes a task (an error: the tool requires one, and
/// the client did not declare the extension).
pub(super) fn defers<S>(
    route: &ToolRoute<S>,
    context: &ToolCallContext<'_, S>,
) -> Result<bool, ErrorData> {
    let support = super::tasked::task_support_in_schema(&route.attr.input_schema);
    super::tasked::defers(support, &context.request_context)
}

/// Creates the task of a call whose arguments passed, and runs the method in it, on a
/// clone of the server: the answer is the `CreateTaskResult`. The task settles its
/// result with its own copy of `settings`, as the request would have.
pub(super) async fn start<S: Send + Sync + 'static>(
    settings: &Settings,
    (tasks, clone): Tasking<'_, S>,
    route: ToolRoute<S>,
    context: ToolCallContext<'_, S>,
    called: Called,
    started: Started,
) -> Result<CallToolResponse, ErrorData> {
    let service = clone(context.service);
    let owner = super::tasked::owner(&context.request_context);
    let name = called.tool.clone();
    let settings = settings.clone();
    let params = call_params(&context);
    let mut request_context = context.request_context;
    let mailbox = Mailbox::default();
    request_context.extensions.insert(mailbox.clone());
    let work = Box::pin(async move {
        let context = ToolCallContext::new(&service, params, request_context);
        let tool = called.tool.clone();
        let response = CALLED
            .scope(called, answer(route, context, mailbox, tool))
            .await;
        match response {
            Ok(CallToolResponse::Complete(mut result)) => {
                settle(&settings, &started, &mut result);
                serde_json::to_value(result).map_err(|e| internal(&e.to_string()))
            }
            Ok(_) => Err(internal("the method answered its task with no result")),
            Err(error) => Err(serde_json::to_value(error).unwrap_or_default()),
        }
    });
    let record = tasks.start(owner, &name, work).await;
    super::tasked::created(tasks, record, &name)
}

/// What became of a call checked before its task exists.
pub(super) enum Checked {
    /// Its arguments passed: the task comes next.
    Passed,
    /// It is answered without a task: the refusal of its arguments, or (a tool that asks
    /// its user) the first call's answer, for the asking to follow.
    Answered(Result<CallToolResponse, ErrorData>),
}

/// Runs the extractors of a call of `route` (`Parameters` checks the arguments) and
/// stops before the method.
pub(super) async fn check<S>(
    route: &ToolRoute<S>,
    context: &ToolCallContext<'_, S>,
    called: &Called,
    mailbox: &Mailbox,
) -> Checked {
    let mut request_context = context.request_context.clone();
    request_context.extensions.insert(Stage::Check);
    let check = ToolCallContext::new(context.service, call_params(context), request_context);
    let tool = called.tool.clone();
    let checked = CALLED
        .scope(
            called.clone(),
            answer(route.clone(), check, mailbox.clone(), tool),
        )
        .await;
    match checked {
        Err(error) if error.message == super::mailbox::CHECKED => Checked::Passed,
        other => Checked::Answered(other),
    }
}

/// The call of `context` (its name and arguments) as rmcp's parameters, to call again.
fn call_params<S>(context: &ToolCallContext<'_, S>) -> rmcp::model::CallToolRequestParams {
    let params = rmcp::model::CallToolRequestParams::new(context.name.clone());
    match &context.arguments {
        Some(arguments) => params.with_arguments(arguments.clone()),
        None => params,
    }
}

/// A task that failed within this server: a JSON-RPC internal error object.
fn internal(message: &str) -> Value {
    serde_json::json!({ "code": -32603, "message": message })
}
