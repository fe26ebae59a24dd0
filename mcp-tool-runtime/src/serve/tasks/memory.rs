//! Tasks kept in one process's memory: what a single server needs; replicas need a
//! store they share.

use std::collections::HashMap;
use std::sync::Mutex;

use super::{StoreFuture, TaskLimits, TaskRecord, TaskRefusal, TaskState, TaskStore, lock, now_ms};

/// A [`TaskStore`] in this process's memory. Expired tasks are dropped as new ones are
/// created, so that the store holds at most [`TaskLimits::in_all`] tasks.
#[derive(Debug, Default)]
pub struct MemoryTasks {
    tasks: Mutex<HashMap<String, TaskRecord>>,
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
                Some(task) if task.state == TaskState::Working => {
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
                && task.state == TaskState::Working
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
            if task.state == TaskState::Working {
                task.state = TaskState::Cancelled;
                task.updated_ms = now;
            }
            Some(task.clone())
        })
    }
}
