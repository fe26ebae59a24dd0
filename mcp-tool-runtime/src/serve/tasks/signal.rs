//! What a handler can know of the call it runs for: whether its caller cancelled it
//! ([`Cancelled`]: the task, or the request), and how to say how far a task got
//! ([`progress`], and the task's side of [`Progress`](crate::serve::progress::Progress)).

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::TaskStore;
use crate::serve::progress::{Follower, Step};

/// The task a handler's work runs for, while it runs.
pub(super) struct Running {
    pub token: CancellationToken,
    pub id: String,
    pub store: Arc<dyn TaskStore>,
    /// Notified when the task's client answered a question here.
    pub answered: Arc<Notify>,
    /// When the task expires, in milliseconds since the Unix epoch: no answer comes
    /// after.
    pub expires_ms: u64,
    /// How many questions the task has put: each one's key is new.
    pub asked: AtomicU64,
}

tokio::task_local! {
    pub(super) static RUNNING: Running;
}

/// The signal that the call a handler runs for was cancelled: its task, by
/// `tasks/cancel`; or, for a call answered within its request, the request, by the
/// client's `notifications/cancelled` (or, for a stateless request over Streamable
/// HTTP, by the client hanging up). Await it beside the work (`tokio::select!`), or
/// ask [`Cancelled::is_cancelled`] between steps, and stop: a cancelled task stays
/// cancelled, and nothing the handler returns after is reported, as done or failed; a
/// cancelled request's answer is not sent (the client gave up on it).
///
/// A handler takes it before its arguments, as it takes its state or its caller:
///
/// ```
/// use mcp_tool::{Cancelled, McpTool, ToolError, Toolbox};
/// use serde::Deserialize;
///
/// /// Exports the orders of a month.
/// #[derive(McpTool, Deserialize)]
/// #[mcp_tool(task_support = "optional")]
/// struct Export { month: u8 }
///
/// async fn export(cancelled: Cancelled, args: Export) -> Result<String, ToolError> {
///     for day in 1..=28 {
///         if cancelled.is_cancelled() {
///             return Err(ToolError::transient("Cancelled: nothing was exported."));
///         }
///         // ... export the orders of `day` ...
///         # let _ = day;
///     }
///     Ok(format!("Exported month {}", args.month))
/// }
///
/// let tools = Toolbox::new().tool(export);
/// # let _ = tools;
/// ```
///
/// Taken as a piece, it follows the request where the call is not a task (a call
/// made without a transport, [`Toolbox::call`](crate::Toolbox::call), is never
/// cancelled). Within a task, [`Cancelled::current`] reads it too, wherever the
/// handler's code is; outside one, `current` gives a signal that never comes.
///
/// ```
/// use mcp_tool::Cancelled;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let cancelled = Cancelled::current();
/// assert!(!cancelled.is_cancelled()); // not in a task: never cancelled
/// tokio::select! {
///     () = cancelled => unreachable!(),
///     () = std::future::ready(()) => {}
/// }
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct Cancelled(CancellationToken);

impl Cancelled {
    /// The signal of the task the current handler runs for (one that never comes
    /// outside a task).
    pub fn current() -> Cancelled {
        let token = RUNNING.try_with(|r| r.token.clone());
        Cancelled(token.unwrap_or_default())
    }

    /// Whether the task was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.0.is_cancelled()
    }
}

impl IntoFuture for Cancelled {
    type Output = ();
    type IntoFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.0.cancelled_owned())
    }
}

/// A handler may take the signal of its call, as it takes its other pieces (see
/// [`FromCall`](crate::FromCall)): its task's, else its request's.
impl<S> crate::serve::handler::FromCall<S> for Cancelled {
    fn from_call(
        parts: &crate::serve::handler::CallParts<S>,
    ) -> Result<Self, crate::result::ToolError> {
        Ok(Cancelled::of_call(parts.signals.cancelled.as_ref()))
    }
}

impl Cancelled {
    /// The signal of the task the handler runs for; outside a task, `request`'s
    /// (the request that carries the call, where the transport knows it).
    pub(crate) fn of_call(request: Option<&CancellationToken>) -> Cancelled {
        match RUNNING.try_with(|r| r.token.clone()) {
            Ok(task) => Cancelled(task),
            Err(_) => Cancelled(request.cloned().unwrap_or_default()),
        }
    }
}

/// Says how far the current task got: its `statusMessage`, which `tasks/get` shows
/// while it works. Nothing outside a task.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// mcp_tool::tasks::progress("Exported 1,200 of 5,000 orders").await;
/// # });
/// ```
pub async fn progress(message: impl Into<String>) {
    let Ok((id, store)) = RUNNING.try_with(|r| (r.id.clone(), Arc::clone(&r.store))) else {
        return;
    };
    store.progress(&id, message.into()).await;
}

/// The task a handler's work runs for, as the follower of its progress: a step
/// becomes the task's `statusMessage` (with [`progress`]; nothing outside a task).
pub(crate) struct InTask;

impl Follower for InTask {
    fn follow(&self, step: Step) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(progress(step.said()))
    }
}

/// [`InTask`], where the current work runs for a task.
pub(crate) fn follower() -> Option<Arc<dyn Follower>> {
    RUNNING
        .try_with(|_| Arc::new(InTask) as Arc<dyn Follower>)
        .ok()
}
