//! A task's questions to its user: within a task, the handler's [`Ask`](crate::Ask)
//! puts each question on the task, which is `input_required` with it among its
//! `inputRequests`, and waits for the answer its client sends with `tasks/update`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::signal::RUNNING;
use super::{TaskStore, now_ms};
use crate::ask::Elicit;

/// How a call that becomes a task asks its user, from then on: through the task.
pub(crate) fn questions() -> Arc<dyn Elicit> {
    Arc::new(ThroughTask)
}

/// Asks through the task the current handler runs for.
struct ThroughTask;

impl Elicit for ThroughTask {
    fn elicit(&self, params: Value) -> Pin<Box<dyn Future<Output = Result<Value, String>> + Send>> {
        // Read where the handler's future runs: a future it spawned has no task.
        let question = RUNNING.try_with(|r| Question {
            id: r.id.clone(),
            key: format!(
                "mcp-tool/input/{}",
                r.asked.fetch_add(1, Ordering::Relaxed) + 1
            ),
            store: Arc::clone(&r.store),
            token: r.token.clone(),
            answered: Arc::clone(&r.answered),
            expires_ms: r.expires_ms,
        });
        Box::pin(async move {
            let question = question.map_err(|_| {
                "the question was asked outside the future of its task's handler".to_owned()
            })?;
            question.put(params).await
        })
    }
}

/// One question of a task, under its key.
struct Question {
    id: String,
    key: String,
    store: Arc<dyn TaskStore>,
    token: CancellationToken,
    answered: Arc<Notify>,
    expires_ms: u64,
}

impl Question {
    /// Puts the question on the task and waits for its answer (an `ElicitResult`, as
    /// JSON), until the task is cancelled or expires.
    async fn put(self, params: Value) -> Result<Value, String> {
        let request = json!({ "method": "elicitation/create", "params": params });
        if !self.store.ask(&self.id, &self.key, request).await {
            return Err("the question could not be put on the task".into());
        }
        let left = Duration::from_millis(self.expires_ms.saturating_sub(now_ms()));
        let expiry = tokio::time::sleep(left);
        tokio::pin!(expiry);
        loop {
            // Listening before looking: an answer between the two still wakes it.
            let answered = self.answered.notified();
            tokio::pin!(answered);
            answered.as_mut().enable();
            if let Some(answer) = self.store.take_answer(&self.id, &self.key).await {
                return Ok(answer);
            }
            tokio::select! {
                () = answered => {}
                () = look_again(self.store.answers_every()) => {}
                () = self.token.cancelled() => return Err("the task was cancelled".into()),
                () = &mut expiry => {
                    return Err("no answer came within the task's time to live".into());
                }
            }
        }
    }
}

/// Waits `every`, or for ever where the store wakes the work itself.
async fn look_again(every: Option<Duration>) {
    match every {
        Some(every) => tokio::time::sleep(every).await,
        None => std::future::pending().await,
    }
}
