//! Tasks kept in one process's memory: what a single server needs; replicas need a
//! store they share.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::{Map, Value};

use super::{StoreFuture, TaskLimits, TaskRecord, TaskRefusal, TaskState, TaskStore, lock, now_ms};

/// A [`TaskStore`] in this process's memory. Expired tasks are dropped as new ones are
/// created, so that the store holds at most [`TaskLimits::in_all`] tasks.
#[derive(Debug, Default)]
pub struct MemoryTasks {
    tasks: Mutex<HashMap<String, TaskRecord>>,
    /// The answers of each task's client not yet taken by its work, by key.
    answers: Mutex<HashMap<String, Map<String, Value>>>,
}

impl MemoryTasks {
    /// An empty store.
    pub fn new() -> Self {
        MemoryTasks::default()
    }
}

impl TaskStore for MemoryTasks {
    fn create<'a>(
        &'a self,
        task: TaskRecord,
        limits: &'a TaskLimits,
    ) -> StoreFuture<'a, Result<(), TaskRefusal>> {
        Box::pin(async move {
            let now = now_ms();
            let mut tasks = lock(&self.tasks);
            tasks.retain(|_, t| !t.expired(now));
            lock(&self.answers).retain(|id, _| tasks.contains_key(id));
            if tasks.len() >= limits.in_all {
                return Err(TaskRefusal::InAll(limits.in_all));
            }
            let owned = tasks.values().filter(|t| t.owner == task.owner).count();
            if owned >= limits.per_caller {
                return Err(TaskRefusal::PerCaller(limits.per_caller));
            }
            tasks.insert(task.id.clone(), task);
            Ok(())
        })
    }

    fn get<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let tasks = lock(&self.tasks);
            let task = tasks.get(id)?;
            (task.owner.as_deref() == owner && !task.expired(now_ms())).then(|| task.clone())
        })
    }

    fn finish<'a>(&'a self, id: &'a str, state: TaskState) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tasks = lock(&self.tasks);
            match tasks.get_mut(id) {
                Some(task) if !task.state.is_terminal() => {
                    task.state = state;
                    task.updated_ms = now_ms();
                    true
                }
                _ => false,
            }
        })
    }

    fn progress<'a>(&'a self, id: &'a str, message: String) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tasks = lock(&self.tasks);
            if let Some(task) = tasks.get_mut(id)
                && !task.state.is_terminal()
            {
                task.status_message = Some(message);
                task.updated_ms = now_ms();
            }
        })
    }

    fn cancel<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let now = now_ms();
            let mut tasks = lock(&self.tasks);
            let task = tasks.get_mut(id)?;
            if task.owner.as_deref() != owner || task.expired(now) {
                return None;
            }
            if !task.state.is_terminal() {
                task.state = TaskState::Cancelled;
                task.updated_ms = now;
            }
            Some(task.clone())
        })
    }

    fn ask<'a>(&'a self, id: &'a str, key: &'a str, request: Value) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut tasks = lock(&self.tasks);
            let Some(task) = tasks.get_mut(id) else {
                return false;
            };
            match &mut task.state {
                TaskState::Working => {
                    task.state = TaskState::InputRequired(Map::from_iter([(key.into(), request)]));
                }
                TaskState::InputRequired(asked) => {
                    asked.insert(key.to_owned(), request);
                }
                _ => return false,
            }
            task.updated_ms = now_ms();
            true
        })
    }

    fn answer<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
        answers: Map<String, Value>,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let now = now_ms();
            let mut tasks = lock(&self.tasks);
            let Some(task) = tasks.get_mut(id) else {
                return false;
            };
            if task.owner.as_deref() != owner || task.expired(now) {
                return false;
            }
            let TaskState::InputRequired(asked) = &mut task.state else {
                return true;
            };
            let mut kept = lock(&self.answers);
            for (key, answer) in answers {
                if asked.remove(&key).is_some() {
                    kept.entry(id.to_owned()).or_default().insert(key, answer);
                    task.updated_ms = now;
                }
            }
            if asked.is_empty() {
                task.state = TaskState::Working;
            }
            true
        })
    }

    fn take_answer<'a>(&'a self, id: &'a str, key: &'a str) -> StoreFuture<'a, Option<Value>> {
        Box::pin(async move {
            let mut kept = lock(&self.answers);
            let answers = kept.get_mut(id)?;
            let answer = answers.remove(key);
            if answers.is_empty() {
                kept.remove(id);
            }
            answer
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, owner: Option<&str>, ttl_ms: u64) -> TaskRecord {
        TaskRecord::working(id, owner.map(str::to_owned), "export", ttl_ms)
    }

    fn run<T>(future: StoreFuture<'_, T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn each_caller_has_its_own_bound_and_the_server_one_in_all() {
        let store = MemoryTasks::new();
        let limits = TaskLimits::default().per_caller(1).in_all(2);
        assert_eq!(
            run(store.create(task("a1", Some("ada"), 60_000), &limits)),
            Ok(())
        );
        let refused = run(store.create(task("a2", Some("ada"), 60_000), &limits));
        assert_eq!(refused, Err(TaskRefusal::PerCaller(1)));
        assert_eq!(
            run(store.create(task("b1", Some("bob"), 60_000), &limits)),
            Ok(())
        );
        let full = run(store.create(task("c1", Some("cy"), 60_000), &limits));
        assert_eq!(full, Err(TaskRefusal::InAll(2)));
        // Nothing of the tasks kept was touched by the refusals.
        assert!(run(store.get("a1", Some("ada"))).is_some());
        assert!(run(store.get("a2", Some("ada"))).is_none());
    }

    #[test]
    fn an_expired_task_counts_for_nothing_and_is_found_by_nobody() {
        let store = MemoryTasks::new();
        let limits = TaskLimits::default().per_caller(1);
        let mut old = task("old", Some("ada"), 1_000);
        old.created_ms -= 2_000;
        run(store.create(old, &limits)).unwrap();
        assert!(run(store.get("old", Some("ada"))).is_none());
        assert_eq!(
            run(store.create(task("new", Some("ada"), 60_000), &limits)),
            Ok(())
        );
    }

    #[test]
    fn a_task_is_its_owners_and_a_cancelled_one_stays_cancelled() {
        let store = MemoryTasks::new();
        run(store.create(task("t", Some("ada"), 60_000), &TaskLimits::default())).unwrap();
        assert!(run(store.get("t", Some("bob"))).is_none());
        assert!(run(store.get("t", None)).is_none());
        assert!(run(store.cancel("t", Some("bob"))).is_none());
        let cancelled = run(store.cancel("t", Some("ada"))).unwrap();
        assert_eq!(cancelled.state, TaskState::Cancelled);
        // The handler's result, after, is not kept.
        assert!(!run(
            store.finish("t", TaskState::Completed(serde_json::json!({})))
        ));
        assert_eq!(
            run(store.get("t", Some("ada"))).unwrap().state,
            TaskState::Cancelled
        );
    }

    #[test]
    fn answers_reach_the_questions_outstanding_of_the_owners_task_only() {
        let store = MemoryTasks::new();
        run(store.create(task("t", Some("ada"), 60_000), &TaskLimits::default())).unwrap();
        let asked = serde_json::json!({ "method": "elicitation/create", "params": {} });
        assert!(run(store.ask("t", "q1", asked.clone())));
        assert!(run(store.ask("t", "q2", asked)));
        let yes = serde_json::json!({ "action": "accept" });
        let answers = |keys: &[&str]| keys.iter().map(|k| (k.to_string(), yes.clone())).collect();
        // Another subject's answers find no task, and reach nothing.
        assert!(!run(store.answer("t", Some("bob"), answers(&["q1"]))));
        assert_eq!(run(store.take_answer("t", "q1")), None);
        // An answer to no question is ignored; the task waits for the other.
        assert!(run(store.answer("t", Some("ada"), answers(&["q1", "q9"]))));
        let TaskState::InputRequired(left) = run(store.get("t", Some("ada"))).unwrap().state else {
            panic!("no longer waiting");
        };
        assert_eq!(left.keys().collect::<Vec<_>>(), ["q2"]);
        assert_eq!(run(store.take_answer("t", "q1")), Some(yes.clone()));
        assert_eq!(run(store.take_answer("t", "q1")), None, "taken once");
        assert_eq!(run(store.take_answer("t", "q9")), None);
        run(store.answer("t", Some("ada"), answers(&["q2"])));
        assert_eq!(
            run(store.get("t", Some("ada"))).unwrap().state,
            TaskState::Working
        );
        // Over, it asks nothing more.
        run(store.finish("t", TaskState::Completed(serde_json::json!({}))));
        assert!(!run(store.ask("t", "q3", serde_json::json!({}))));
    }
}
