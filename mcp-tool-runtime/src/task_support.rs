//! Whether a tool runs as a task: the `execution.taskSupport` a tool carries in
//! `tools/list`, as the tasks extension's clients read it.

use serde::Serialize;

/// Whether a call of a tool may be answered with a task rather than its result
/// (`#[mcp_tool(task_support = "...")]`).
///
/// A client opts into tasks per request, by declaring the tasks extension
/// (`io.modelcontextprotocol/tasks`) in its capabilities; the server decides: a tool
/// that supports tasks, called by a client that declared them, gets a task.
///
/// ```
/// use mcp_tool::TaskSupport;
///
/// assert_eq!(TaskSupport::default(), TaskSupport::Forbidden);
/// assert_eq!(serde_json::to_value(TaskSupport::Optional).unwrap(), "optional");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// Every call is answered within its request (the default).
    #[default]
    Forbidden,
    /// A client that declared tasks gets a task; any other client, the result within
    /// the request.
    Optional,
    /// Only a client that declared tasks may call the tool; any other gets the error
    /// -32021 (a missing client capability).
    Required,
}

impl TaskSupport {
    /// Whether a call of the tool may become a task.
    pub fn allows_tasks(self) -> bool {
        self != TaskSupport::Forbidden
    }
}

/// How a tool is run, as `tools/list` says it: `{"taskSupport": ...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Execution {
    /// Whether a call may be answered with a task.
    pub task_support: TaskSupport,
}

impl Execution {
    /// The `execution` of a tool with `task_support`: `None` for a tool that forbids
    /// tasks, which `tools/list` shows without the field (its meaning when absent).
    pub fn of(task_support: TaskSupport) -> Option<Execution> {
        task_support
            .allows_tasks()
            .then_some(Execution { task_support })
    }
}
