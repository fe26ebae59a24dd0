//! Long calls as tasks (the MCP tasks extension, `io.modelcontextprotocol/tasks`,
//! SEP-2663): a call of a tool that supports tasks, from a client that declared them,
//! is checked like any call, then answered at once with a task while its handler runs
//! in the background; the client polls `tasks/get` for its status and, once it is
//! over, its result, and may cancel it with `tasks/cancel`.
//!
//! [`Tasks`] keeps a server's tasks: where they are stored ([`TaskStore`]: in memory
//! here, [`MemoryTasks`]), how long a task is kept ([`TaskLimits`]), and the work each
//! runs in this process, with the signal that tells a handler its task was cancelled
//! ([`Cancelled`]). A handler that asks its user (the crate's [`Ask`](crate::Ask))
//! within a task puts its question on the task, `input_required` until the client
//! answers it with `tasks/update`.

mod input;
mod memory;
#[cfg(feature = "redis")]
mod redis;
mod signal;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

pub(crate) use input::questions;

pub use memory::MemoryTasks;
#[cfg(feature = "redis")]
pub use redis::RedisTasks;
pub use signal::{Cancelled, progress};
pub(crate) use signal::{InTask, follower};

/// A future a store answers with.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Where a task is, as `tasks/get` shows it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TaskState {
    /// Its handler runs.
    Working,
    /// Its handler waits for its client's answers: each question outstanding
    /// (`{"method": "elicitation/create", "params": {...}}`), by the key an answer
    /// names it with.
    InputRequired(Map<String, Value>),
    /// Its handler returned: the call's result (`isError` true for a tool's failure).
    Completed(Value),
    /// It could not end with a result: a JSON-RPC error object (`code`, `message`).
    Failed(Value),
    /// Its caller cancelled it; whatever its handler did after is not reported.
    Cancelled,
}

impl TaskState {
    /// Whether the task is over.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            TaskState::Completed(_) | TaskState::Failed(_) | TaskState::Cancelled
        )
    }
}

/// One task, as a store keeps it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TaskRecord {
    /// The id the client polls: 128 random bits.
    pub id: String,
    /// The subject of the verified caller who created it (`None`: nobody verified
    /// one); only the same subject reaches it.
    pub owner: Option<String>,
    /// The tool called.
    pub tool: String,
    /// Where it is.
    pub state: TaskState,
    /// What its handler last said of its progress.
    pub status_message: Option<String>,
    /// When it was created and last changed, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// See `created_ms`.
    pub updated_ms: u64,
    /// How long it is kept from its creation, in milliseconds.
    pub ttl_ms: u64,
}

impl TaskRecord {
    /// A task of `owner` calling `tool`, working from now, kept `ttl_ms`.
    pub fn working(
        id: impl Into<String>,
        owner: Option<String>,
        tool: impl Into<String>,
        ttl_ms: u64,
    ) -> Self {
        let now = now_ms();
        TaskRecord {
            id: id.into(),
            owner,
            tool: tool.into(),
            state: TaskState::Working,
            status_message: None,
            created_ms: now,
            updated_ms: now,
            ttl_ms,
        }
    }

    /// Whether its time to live has passed at `now_ms`.
    pub fn expired(&self, now_ms: u64) -> bool {
        now_ms >= self.created_ms.saturating_add(self.ttl_ms)
    }
}

/// Why a task was not created: a bound of [`TaskLimits`] reached.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskRefusal {
    /// The caller already has this many tasks kept.
    PerCaller(usize),
    /// The server already keeps this many tasks.
    InAll(usize),
    /// The store could not be reached (why).
    Unavailable(String),
}

impl TaskRefusal {
    /// The message for the model: what bound, and what to do.
    pub fn message(&self) -> String {
        match self {
            TaskRefusal::PerCaller(n) => format!(
                "This caller already has {n} tasks kept by this server, its limit: the call was not started. Wait for a task to end and its time to live to pass, or cancel one, then call again."
            ),
            TaskRefusal::InAll(n) => format!(
                "This server already keeps {n} tasks, its limit: the call was not started. Call again later."
            ),
            TaskRefusal::Unavailable(_) => "The server could not keep a task for this call just now: it was not started. Call again in a moment.".to_owned(),
        }
    }
}

/// Where tasks are kept: one process's memory ([`MemoryTasks`]), or a store its
/// replicas share. A store keeps each task until its time to live passes, and never
/// shows one to a caller other than its owner.
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps `task`, new, unless a bound of `limits` is reached (the tasks of its owner,
    /// or all); expired tasks count for nothing. Returns once a `get` anywhere finds it.
    fn create<'a>(
        &'a self,
        task: TaskRecord,
        limits: &'a TaskLimits,
    ) -> StoreFuture<'a, Result<(), TaskRefusal>>;

    /// The task `id` of `owner`, unless it expired (`None` for any other owner).
    fn get<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
    ) -> StoreFuture<'a, Option<TaskRecord>>;

    /// Ends the task `id`, working or waiting for input, in `state` (`false`: it was
    /// over already, as when cancelled meanwhile, and is left as it is).
    fn finish<'a>(&'a self, id: &'a str, state: TaskState) -> StoreFuture<'a, bool>;

    /// Sets the status message of the task `id` while it is not over.
    fn progress<'a>(&'a self, id: &'a str, message: String) -> StoreFuture<'a, ()>;

    /// Puts the question `request` (`{"method": "elicitation/create", "params"}`) to the
    /// client of the task `id`, under `key` (never used twice in one task): the task is
    /// `input_required` until every question put is answered. `false`: the task is over
    /// or gone, and nobody will answer.
    fn ask<'a>(&'a self, id: &'a str, key: &'a str, request: Value) -> StoreFuture<'a, bool>;

    /// Takes `owner`'s answers to the questions of the task `id` (`tasks/update`): an
    /// answer to a question outstanding is kept for the work to take, any other is
    /// ignored (an unknown key, or one answered already); once none is outstanding the
    /// task is `working` again. `false`: `owner` has no such task.
    fn answer<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
        answers: Map<String, Value>,
    ) -> StoreFuture<'a, bool>;

    /// Takes the answer to the question `key` of the task `id` (`None`: not yet).
    fn take_answer<'a>(&'a self, id: &'a str, key: &'a str) -> StoreFuture<'a, Option<Value>>;

    /// For a store that replicas share: how often the work waiting for an answer looks
    /// for it, since the answer may reach another replica; `None` (the default) for a
    /// store of one process, where every answer arrives in the process that waits for
    /// it, and wakes it at once.
    fn answers_every(&self) -> Option<Duration> {
        None
    }

    /// Cancels the task `id` of `owner` if it is working; `None` if `owner` has no such
    /// task. A task already over is left as it is (cancelling it again is no error).
    fn cancel<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
    ) -> StoreFuture<'a, Option<TaskRecord>>;

    /// For a store that replicas share: how often the replica running a task says it
    /// still runs it ([`TaskStore::heartbeat`]); `None` (the default) for a store of one
    /// process, whose tasks go with it.
    fn heartbeat_every(&self) -> Option<Duration> {
        None
    }

    /// Says that the task `id` still runs here; whether it is still working (`false`:
    /// cancelled, through any replica, or gone).
    fn heartbeat<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        let _ = id;
        Box::pin(std::future::ready(true))
    }
}

/// How many tasks are kept, and for how long.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TaskLimits {
    /// Tasks one caller may have kept at once, working or over (default 32).
    pub per_caller: usize,
    /// Tasks the server keeps at once (default 4096).
    pub in_all: usize,
    /// A task's time to live, from its creation: its result is kept until then
    /// (default one hour).
    pub ttl: Duration,
    /// How often a client is asked to poll (default 500 ms).
    pub poll_interval: Duration,
    /// The largest result kept, in bytes of JSON (default 4 MiB): a larger one fails
    /// its task, saying so.
    pub max_result_bytes: usize,
}

impl Default for TaskLimits {
    fn default() -> Self {
        TaskLimits {
            per_caller: 32,
            in_all: 4096,
            ttl: Duration::from_secs(3600),
            poll_interval: Duration::from_millis(500),
            max_result_bytes: 4 << 20,
        }
    }
}

impl TaskLimits {
    /// Sets [`TaskLimits::ttl`].
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// Sets [`TaskLimits::per_caller`].
    pub fn per_caller(mut self, tasks: usize) -> Self {
        self.per_caller = tasks;
        self
    }

    /// Sets [`TaskLimits::in_all`].
    pub fn in_all(mut self, tasks: usize) -> Self {
        self.in_all = tasks;
        self
    }

    /// Sets [`TaskLimits::max_result_bytes`].
    pub fn max_result_bytes(mut self, bytes: usize) -> Self {
        self.max_result_bytes = bytes;
        self
    }

    /// Sets [`TaskLimits::poll_interval`].
    pub fn poll_interval(mut self, every: Duration) -> Self {
        self.poll_interval = every;
        self
    }
}

/// A server's tasks: their store, their limits, and the work of those started in this
/// process (whose cancellation signals it holds).
pub struct Tasks {
    store: Arc<dyn TaskStore>,
    limits: TaskLimits,
    running: Arc<Mutex<HashMap<String, Live>>>,
}

/// The work of a task running in this process: the signal that stops it, and the one
/// that wakes it when its client answered.
struct Live {
    token: CancellationToken,
    answered: Arc<Notify>,
}

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks")
            .field("limits", &self.limits)
            .finish()
    }
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks::new(MemoryTasks::new(), TaskLimits::default())
    }
}

/// The work of a task: the rest of a call once its arguments passed, giving its result
/// as JSON (`Err`: a JSON-RPC error object that fails the task).
pub(crate) type Work = Pin<Box<dyn Future<Output = Result<Value, Value>> + Send>>;

impl Tasks {
    /// Tasks kept in `store`, within `limits`.
    pub fn new(store: impl TaskStore, limits: TaskLimits) -> Self {
        Tasks {
            store: Arc::new(store),
            limits,
            running: Arc::default(),
        }
    }

    /// The limits.
    pub fn limits(&self) -> &TaskLimits {
        &self.limits
    }

    /// Creates the task of `owner` calling `tool`, stored before this returns, and runs
    /// `work` in the background, with the signal its handler reads ([`Cancelled`]).
    pub(crate) async fn start(
        &self,
        owner: Option<String>,
        tool: &str,
        work: Work,
    ) -> Result<TaskRecord, TaskRefusal> {
        let id = crate::id::random_id().unwrap_or_else(|_| fallback_id());
        let ttl_ms = u64::try_from(self.limits.ttl.as_millis()).unwrap_or(u64::MAX);
        let record = TaskRecord::working(id.clone(), owner, tool, ttl_ms);
        self.store.create(record.clone(), &self.limits).await?;
        let token = CancellationToken::new();
        let answered = Arc::new(Notify::new());
        let live = Live {
            token: token.clone(),
            answered: Arc::clone(&answered),
        };
        lock(&self.running).insert(id.clone(), live);
        let store = Arc::clone(&self.store);
        let running = Arc::clone(&self.running);
        let max = self.limits.max_result_bytes;
        let signal = signal::Running {
            token: token.clone(),
            id: id.clone(),
            store: Arc::clone(&store),
            answered,
            expires_ms: record.created_ms.saturating_add(ttl_ms),
            asked: Default::default(),
        };
        let done = CancellationToken::new();
        if let Some(every) = store.heartbeat_every() {
            tokio::spawn(heartbeats(
                Arc::clone(&store),
                id.clone(),
                every,
                token.clone(),
                done.clone(),
            ));
        }
        tokio::spawn(async move {
            let outcome = signal::RUNNING.scope(signal, work).await;
            done.cancel();
            lock(&running).remove(&id);
            // A cancelled task stays cancelled: what its handler did after is not
            // reported, as done or failed.
            if token.is_cancelled() {
                return;
            }
            let state = match outcome {
                Ok(result) => within(result, max),
                Err(error) => TaskState::Failed(error),
            };
            store.finish(&id, state).await;
        });
        Ok(record)
    }

    /// The task `id` of `owner`.
    pub async fn get(&self, id: &str, owner: Option<&str>) -> Option<TaskRecord> {
        self.store.get(id, owner).await
    }

    /// Cancels the task `id` of `owner`, signalling its handler if it runs here.
    pub async fn cancel(&self, id: &str, owner: Option<&str>) -> Option<TaskRecord> {
        let record = self.store.cancel(id, owner).await?;
        if let Some(live) = lock(&self.running).get(id) {
            live.token.cancel();
        }
        Some(record)
    }

    /// Takes `owner`'s answers to the questions of the task `id` (`tasks/update`), and
    /// wakes its work if it runs here (`false`: `owner` has no such task).
    pub async fn update(&self, id: &str, owner: Option<&str>, answers: Map<String, Value>) -> bool {
        if !self.store.answer(id, owner, answers).await {
            return false;
        }
        if let Some(live) = lock(&self.running).get(id) {
            live.answered.notify_waiters();
        }
        true
    }
}

/// Says every `every` that the task `id` runs here, until it is `done`; tells its
/// handler (`token`) when it was cancelled through another replica.
async fn heartbeats(
    store: Arc<dyn TaskStore>,
    id: String,
    every: Duration,
    token: CancellationToken,
    done: CancellationToken,
) {
    loop {
        tokio::select! {
            () = done.cancelled() => return,
            () = tokio::time::sleep(every) => {}
        }
        if !store.heartbeat(&id).await && !done.is_cancelled() {
            token.cancel();
            return;
        }
    }
}

/// The result kept, or the task failed for a result over `max` bytes.
fn within(result: Value, max: usize) -> TaskState {
    let size = result.to_string().len();
    if size > max {
        return TaskState::Failed(json!({
            "code": -32603,
            "message": format!(
                "The tool's result was {size} bytes of JSON, over this server's limit of {max} for a task's result: it was not kept."
            ),
        }));
    }
    TaskState::Completed(result)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// An id when the system's randomness fails: unique in this process, and a task is
/// still bound to its owner.
fn fallback_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("t{:x}-{:x}", now_ms(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// `ms` since the epoch as RFC 3339 (`2026-12-06T23:41:27.123Z`).
pub(crate) fn timestamp(ms: u64) -> String {
    let at = UNIX_EPOCH + Duration::from_millis(ms);
    crate::calendar::rfc3339_millis(at).unwrap_or_default()
}
