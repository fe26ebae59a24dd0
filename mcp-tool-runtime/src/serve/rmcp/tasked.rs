//! The tasks extension on rmcp's wire: a call that becomes a task answered with
//! `CreateTaskResult`, and `tasks/get` (with the questions of a task waiting for its
//! user), `tasks/update` (their answers) and `tasks/cancel` answered from the server's
//! [`Tasks`]; each task reached only by the subject that created it.

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, ClientCapabilities, CreateTaskResult, DetailedTask, GetTaskResult, Task,
    TaskPayload, TaskStatus, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;

use super::peer::caller_of;
use crate::caller::Caller;
use crate::serve::tasks::{TaskRecord, TaskRefusal, TaskState, Tasks, timestamp};
use crate::task_support::TaskSupport;

pub(crate) use super::convert::EXECUTION_META;

/// The key under which a `Parameters` type's task support travels in its tool's input
/// schema, for `structured` to read (rmcp's `#[tool]` macro builds a method's tool from
/// that schema alone) and to move to the listed tool's `execution`.
pub(crate) const TASK_SUPPORT_KEY: &str = "x-mcp-tool-task-support";

/// `schema` with `support` under [`TASK_SUPPORT_KEY`] (unchanged for a tool without
/// tasks).
pub(crate) fn with_task_support_in_schema(
    schema: &mut serde_json::Map<String, Value>,
    support: TaskSupport,
) {
    if let Some(execution) = crate::task_support::Execution::of(support) {
        let support = serde_json::to_value(execution.task_support).unwrap_or_default();
        schema.insert(TASK_SUPPORT_KEY.to_owned(), support);
    }
}

/// The task support a tool's input schema carries (`None`: it supports none).
pub(crate) fn task_support_in_schema(
    schema: &serde_json::Map<String, Value>,
) -> Option<TaskSupport> {
    match schema.get(TASK_SUPPORT_KEY)?.as_str()? {
        "optional" => Some(TaskSupport::Optional),
        "required" => Some(TaskSupport::Required),
        _ => None,
    }
}

/// `tool` as listed: the task support its schema carried moved to the `_meta` the
/// transports move to its `execution`.
pub(crate) fn listed_execution(tool: &mut rmcp::model::Tool) {
    let Some(support) = task_support_in_schema(&tool.input_schema) else {
        return;
    };
    let mut schema = (*tool.input_schema).clone();
    schema.remove(TASK_SUPPORT_KEY);
    tool.input_schema = std::sync::Arc::new(schema);
    let execution = serde_json::json!({ "taskSupport": support });
    let meta = tool.meta.get_or_insert_with(Default::default);
    meta.0.insert(EXECUTION_META.into(), execution);
}

/// Moves each listed tool's `execution` out of its `_meta` in `message`, a JSON-RPC
/// response to `tools/list` (any other message is left as it is).
pub(crate) fn executions_onto(message: &mut Value) {
    let Some(tools) = message
        .pointer_mut("/result/tools")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for tool in tools.iter_mut().filter_map(Value::as_object_mut) {
        let Some(Value::Object(meta)) = tool.get_mut("_meta") else {
            continue;
        };
        let Some(execution) = meta.remove(EXECUTION_META) else {
            continue;
        };
        if meta.is_empty() {
            tool.remove("_meta");
        }
        tool.insert("execution".into(), execution);
    }
}

/// Whether `body` is a `tools/list` request, whose answer may carry executions.
#[cfg(feature = "http")]
pub(crate) fn lists_tools(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Method<'a> {
        #[serde(borrow)]
        method: Option<&'a str>,
    }
    serde_json::from_slice::<Method>(body).is_ok_and(|m| m.method == Some("tools/list"))
}

/// Whether the request declared the tasks extension: in its own `_meta` (2026-07-28)
/// or at `initialize`.
pub(crate) fn declared_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|caps| caps.supports_tasks())
}

/// Whether a call of a tool with `support` becomes a task, or is refused for want of
/// the extension (-32021, a missing client capability, naming it).
pub(crate) fn defers(
    support: Option<TaskSupport>,
    context: &RequestContext<RoleServer>,
) -> Result<bool, ErrorData> {
    let declared = declared_tasks(context);
    match support {
        Some(TaskSupport::Required) if !declared => {
            Err(ErrorData::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            ))
        }
        Some(support) => Ok(declared && support.allows_tasks()),
        None => Ok(false),
    }
}

/// The subject a task is bound to: the verified caller's (`None`: nobody verified one,
/// and the task's unguessable id is what reaches it).
pub(crate) fn owner(context: &RequestContext<RoleServer>) -> Option<String> {
    caller_of(context)
        .as_ref()
        .map(Caller::subject)
        .map(str::to_owned)
}

/// The answer to a call that became the task `record`, or the refusal of a bound as
/// the tool's failure (an `isError` result, the call not started).
pub(crate) fn created(
    tasks: &Tasks,
    record: Result<TaskRecord, TaskRefusal>,
    tool: &str,
) -> Result<CallToolResponse, ErrorData> {
    match record {
        Ok(record) => Ok(CallToolResponse::Task(CreateTaskResult::new(wire_task(
            tasks, &record,
        )))),
        Err(refusal) => {
            let error = crate::result::ToolError::transient(refusal.message())
                .for_call(tool.to_owned(), Value::Object(Default::default()));
            Ok(super::convert::to_rmcp_result(error.into_call_result()).into())
        }
    }
}

/// `tasks/get`.
pub(crate) async fn get(
    tasks: &Tasks,
    id: &str,
    context: &RequestContext<RoleServer>,
) -> Result<GetTaskResult, ErrorData> {
    let owner = owner(context);
    let record = tasks
        .get(id, owner.as_deref())
        .await
        .ok_or_else(|| unknown(id))?;
    let payload = match &record.state {
        TaskState::Working => TaskPayload::Working,
        TaskState::InputRequired(asked) => TaskPayload::InputRequired {
            input_requests: serde_json::from_value(Value::Object(asked.clone())).map_err(|e| {
                ErrorData::internal_error(format!("a question to the user: {e}"), None)
            })?,
        },
        TaskState::Cancelled => TaskPayload::Cancelled,
        TaskState::Completed(result) => TaskPayload::Completed {
            result: object(result),
        },
        TaskState::Failed(error) => TaskPayload::Failed {
            error: object(error),
        },
    };
    Ok(GetTaskResult::new(DetailedTask::new(
        wire_task(tasks, &record),
        payload,
    )))
}

/// `tasks/cancel`: the work is told to stop, and the task stays cancelled.
pub(crate) async fn cancel(
    tasks: &Tasks,
    id: &str,
    context: &RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    let owner = owner(context);
    found(tasks.cancel(id, owner.as_deref()).await, id)
}

/// `tasks/update`: the client's answers to the task's questions, handed to its work
/// (wherever it runs); an answer to no question outstanding is ignored, as the
/// extension has a server do.
pub(crate) async fn update(
    tasks: &Tasks,
    request: UpdateTaskParams,
    context: &RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    let owner = owner(context);
    let id = &request.task_id;
    let answers = request.input_responses.into_iter().collect();
    if tasks.update(id, owner.as_deref(), answers).await {
        Ok(())
    } else {
        Err(unknown(id))
    }
}

/// The methods of the tasks extension for a server written with rmcp's macros, whose
/// `#[tool]` methods run as tasks through
/// [`Structured::tasks`](crate::rmcp::Structured::tasks): its
/// `ServerHandler` answers `tasks/*` with them.
impl Tasks {
    /// Answers `tasks/get`.
    pub async fn get_task(
        &self,
        request: rmcp::model::GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        get(self, &request.task_id, &context).await
    }

    /// Answers `tasks/cancel`.
    pub async fn cancel_task(
        &self,
        request: rmcp::model::CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        cancel(self, &request.task_id, &context).await
    }

    /// Answers `tasks/update`.
    pub async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        update(self, request, &context).await
    }
}

/// The acknowledgement of a method on the task `id`, if this caller has it.
fn found(task: Option<TaskRecord>, id: &str) -> Result<(), ErrorData> {
    task.map(|_| ()).ok_or_else(|| unknown(id))
}

/// A task this caller has not: none of that id, expired, or another subject's: the
/// same answer for each, so that it tells nothing of others' tasks.
fn unknown(id: &str) -> ErrorData {
    let shown: String = id.chars().take(100).collect();
    ErrorData::invalid_params(
        format!("Unknown task: {shown:?}. It may have expired, or it was never this caller's."),
        None,
    )
}

fn object(value: &Value) -> serde_json::Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

/// The task as the wire has it, with the poll interval to suggest.
fn wire_task(tasks: &Tasks, record: &TaskRecord) -> Task {
    let status = match record.state {
        TaskState::Working => TaskStatus::Working,
        TaskState::InputRequired(_) => TaskStatus::InputRequired,
        TaskState::Completed(_) => TaskStatus::Completed,
        TaskState::Failed(_) => TaskStatus::Failed,
        TaskState::Cancelled => TaskStatus::Cancelled,
    };
    let mut task = Task::new(
        record.id.clone(),
        status,
        timestamp(record.created_ms),
        timestamp(record.updated_ms),
    )
    .with_ttl_ms(record.ttl_ms.max(1))
    .with_poll_interval_ms(
        u64::try_from(tasks.limits().poll_interval.as_millis()).map_or(u64::MAX, |ms| ms.max(1)),
    );
    if let Some(message) = &record.status_message {
        task = task.with_status_message(message.clone());
    }
    task
}
