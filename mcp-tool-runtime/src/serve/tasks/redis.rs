//! Tasks kept in Redis (feature `redis`): one store for every replica of a server, so
//! that a task created on one is polled, fetched and cancelled through any other.

use std::fmt;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::ask::in_redis::Link;

use super::{StoreFuture, TaskLimits, TaskRecord, TaskRefusal, TaskState, TaskStore, now_ms};

/// A [`TaskStore`] in Redis (or Valkey), shared by the replicas of a server. Each task
/// is a hash that expires with its time to live; two sorted sets count the tasks kept,
/// in all and per caller, for the bounds.
///
/// The work of a task runs on the replica that created it, which renews the task's
/// lease while it runs (every quarter of [`RedisTasks::lease`], 10 seconds unless set)
/// and learns there of a cancel sent to any replica. A task whose lease lapsed while it
/// was working (its replica stopped or died, or lost Redis) is shown `failed` on every
/// replica, saying so, never `working` forever: within the lease of the replica going
/// away.
///
/// A task's questions to its user (its handler's `Ask`, `input_required`) are fields of
/// its hash, and so are the answers `tasks/update` brings through any replica: the
/// replica running the task looks for them every 200 ms while its handler waits.
///
/// Every Redis call is bounded by [`RedisTasks::timeout`] (1 second unless set): past
/// it, a call that would create a task gets a `transient` error and is not started, and
/// `tasks/*` answer as for a task they cannot find.
///
/// ```no_run
/// use mcp_tool::Toolbox;
/// use mcp_tool::tasks::{RedisTasks, TaskLimits, Tasks};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let store = RedisTasks::new("redis://10.0.0.5:6379/")?;
/// let tools = Toolbox::new().tasks(Tasks::new(store, TaskLimits::default()));
/// # let _ = tools;
/// # Ok(())
/// # }
/// ```
pub struct RedisTasks {
    link: Link,
    prefix: String,
    lease: Duration,
}

impl RedisTasks {
    /// The store in the Redis at `url` (`redis://host:port/db`). Only the URL is read
    /// here: nothing is sent until the first task.
    pub fn new(url: &str) -> Result<Self, redis::RedisError> {
        Ok(RedisTasks {
            link: Link::new(url)?,
            prefix: "mcp-tool:task:".to_owned(),
            lease: Duration::from_secs(10),
        })
    }

    /// The longest each Redis call may take (1 second unless set).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.link.timeout = timeout;
        self
    }

    /// What every key starts with (`mcp-tool:task:` unless set).
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// How long a working task's replica may go unheard before the task is shown
    /// failed (10 seconds unless set); renewed every quarter of it.
    pub fn lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// The reply of the Lua `script` on `keys` with `args`, within the timeout.
    async fn eval<T: redis::FromRedisValue>(
        &self,
        script: &str,
        keys: &[String],
        args: &[String],
    ) -> Result<T, String> {
        let mut command = redis::cmd("EVAL");
        command.arg(script).arg(keys.len()).arg(keys).arg(args);
        self.query(command).await
    }

    async fn query<T: redis::FromRedisValue>(&self, command: redis::Cmd) -> Result<T, String> {
        self.link.query(command).await
    }

    fn key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }

    fn owned_by(&self, owner: Option<&str>) -> String {
        // A subject may hold any character: its length keeps it apart from the rest.
        match owner {
            Some(owner) => format!("{}of:{}:{owner}", self.prefix, owner.len()),
            None => format!("{}of:-", self.prefix),
        }
    }

    fn lease_ms(&self) -> u64 {
        u64::try_from(self.lease.as_millis()).unwrap_or(u64::MAX)
    }

    async fn read(&self, id: &str) -> Option<TaskRecord> {
        let fields: Vec<(String, String)> = self
            .query(redis::cmd("HGETALL").arg(self.key(id)).clone())
            .await
            .ok()?;
        let field = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let number = |name: &str| field(name).and_then(|v| v.parse::<u64>().ok());
        let payload = || field("payload").and_then(|p| serde_json::from_str::<Value>(p).ok());
        let now = now_ms();
        let state = match field("status")? {
            "working" if number("lease").is_some_and(|lease| lease < now) => {
                TaskState::Failed(json!({
                    "code": -32603,
                    "message": "The server process running this task stopped before it ended: its work may be partly done. Call again.",
                }))
            }
            "working" => {
                // The questions outstanding, each in a field of its own.
                let asked: Map<String, Value> = fields
                    .iter()
                    .filter_map(|(k, v)| Some((k.strip_prefix("ask:")?, v)))
                    .filter_map(|(k, v)| Some((k.to_owned(), serde_json::from_str(v).ok()?)))
                    .collect();
                if asked.is_empty() {
                    TaskState::Working
                } else {
                    TaskState::InputRequired(asked)
                }
            }
            "completed" => TaskState::Completed(payload()?),
            "failed" => TaskState::Failed(payload()?),
            _ => TaskState::Cancelled,
        };
        let record = TaskRecord {
            id: id.to_owned(),
            owner: field("owner")
                .filter(|o| !o.is_empty())
                .map(|o| o[1..].to_owned()),
            tool: field("tool")?.to_owned(),
            state,
            status_message: field("message").map(str::to_owned),
            created_ms: number("created")?,
            updated_ms: number("updated")?,
            ttl_ms: number("ttl")?,
        };
        (!record.expired(now)).then_some(record)
    }
}

/// Keeps a task, unless a bound is reached: 1, all; 2, its owner's.
const CREATE: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 1 end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then return 2 end
redis.call('HSET', KEYS[1], 'status', 'working', 'owner', ARGV[5], 'tool', ARGV[6],
  'created', ARGV[1], 'updated', ARGV[1], 'ttl', ARGV[7], 'lease', ARGV[8])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[9])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[9])
redis.call('PEXPIREAT', KEYS[2], ARGV[4], 'GT')
redis.call('PEXPIREAT', KEYS[3], ARGV[4], 'GT')
return 0
";

/// Moves the answers to questions outstanding (`ask:KEY`) to `answer:KEY` for the work
/// to take, ignoring any other, while the task works; the arguments are key, answer,
/// ..., then the time.
const ANSWER: &str = r"
if redis.call('HGET', KEYS[1], 'status') ~= 'working' then return 0 end
local n = 0
for i = 1, #ARGV - 1, 2 do
  if redis.call('HDEL', KEYS[1], 'ask:' .. ARGV[i]) == 1 then
    redis.call('HSET', KEYS[1], 'answer:' .. ARGV[i], ARGV[i + 1])
    n = n + 1
  end
end
if n > 0 then redis.call('HSET', KEYS[1], 'updated', ARGV[#ARGV]) end
return n
";

/// Takes the answer to a question: its text, or nil.
const TAKE: &str = r"
local answer = redis.call('HGET', KEYS[1], 'answer:' .. ARGV[1])
if answer then redis.call('HDEL', KEYS[1], 'answer:' .. ARGV[1]) end
return answer
";

/// Sets fields of a task that is working (1), or leaves it (0).
const WHILE_WORKING: &str = r"
if redis.call('HGET', KEYS[1], 'status') ~= 'working' then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
";

impl TaskStore for RedisTasks {
    fn create<'a>(
        &'a self,
        task: TaskRecord,
        limits: &'a TaskLimits,
    ) -> StoreFuture<'a, Result<(), TaskRefusal>> {
        Box::pin(async move {
            let expiry = task.created_ms.saturating_add(task.ttl_ms);
            // The owner as kept: a mark first, so that no owner and an empty one differ.
            let owner = task
                .owner
                .as_deref()
                .map_or(String::new(), |o| format!("={o}"));
            let keys = [
                self.key(&task.id),
                format!("{}all", self.prefix),
                self.owned_by(task.owner.as_deref()),
            ];
            let args = [
                task.created_ms.to_string(),
                limits.in_all.to_string(),
                limits.per_caller.to_string(),
                expiry.to_string(),
                owner,
                task.tool.clone(),
                task.ttl_ms.to_string(),
                task.created_ms.saturating_add(self.lease_ms()).to_string(),
                task.id.clone(),
            ];
            match self.eval::<i64>(CREATE, &keys, &args).await {
                Ok(0) => Ok(()),
                Ok(1) => Err(TaskRefusal::InAll(limits.in_all)),
                Ok(_) => Err(TaskRefusal::PerCaller(limits.per_caller)),
                Err(why) => Err(TaskRefusal::Unavailable(why)),
            }
        })
    }

    fn get<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let record = self.read(id).await?;
            (record.owner.as_deref() == owner).then_some(record)
        })
    }

    fn finish<'a>(&'a self, id: &'a str, state: TaskState) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let (status, payload) = match &state {
                TaskState::Completed(result) => ("completed", result.to_string()),
                TaskState::Failed(error) => ("failed", error.to_string()),
                TaskState::Cancelled => ("cancelled", String::new()),
                TaskState::Working | TaskState::InputRequired(_) => return false,
            };
            self.while_working(id, &[("status", status.to_owned()), ("payload", payload)])
                .await
        })
    }

    fn progress<'a>(&'a self, id: &'a str, message: String) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.while_working(id, &[("message", message)]).await;
        })
    }

    fn cancel<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            self.get(id, owner).await?;
            self.while_working(id, &[("status", "cancelled".to_owned())])
                .await;
            self.read(id).await
        })
    }

    fn heartbeat<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let lease = now_ms().saturating_add(self.lease_ms());
            self.while_working(id, &[("lease", lease.to_string())])
                .await
        })
    }

    fn heartbeat_every(&self) -> Option<Duration> {
        Some(self.lease / 4)
    }

    fn ask<'a>(&'a self, id: &'a str, key: &'a str, request: Value) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            self.while_working(id, &[(&format!("ask:{key}"), request.to_string())])
                .await
        })
    }

    fn answer<'a>(
        &'a self,
        id: &'a str,
        owner: Option<&'a str>,
        answers: Map<String, Value>,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            if self.get(id, owner).await.is_none() {
                return false;
            }
            let mut args: Vec<String> = answers
                .into_iter()
                .flat_map(|(key, answer)| [key, answer.to_string()])
                .collect();
            args.push(now_ms().to_string());
            // Answers that could not be kept are as if never sent: the task still asks.
            let _ = self.eval::<i64>(ANSWER, &[self.key(id)], &args).await;
            true
        })
    }

    fn take_answer<'a>(&'a self, id: &'a str, key: &'a str) -> StoreFuture<'a, Option<Value>> {
        Box::pin(async move {
            let taken = self
                .eval::<Option<String>>(TAKE, &[self.key(id)], &[key.to_owned()])
                .await;
            serde_json::from_str(&taken.ok()??).ok()
        })
    }

    /// An answer sent through another replica is looked for every 200 ms.
    fn answers_every(&self) -> Option<Duration> {
        Some(ANSWERS_EVERY)
    }
}

/// How often the work waiting for an answer looks for it in Redis.
const ANSWERS_EVERY: Duration = Duration::from_millis(200);

impl RedisTasks {
    /// Sets `fields` of the task `id` if it is working; whether it was.
    async fn while_working(&self, id: &str, fields: &[(&str, String)]) -> bool {
        let now = now_ms().to_string();
        let args: Vec<String> = (fields.iter().chain([&("updated", now)]))
            .flat_map(|(name, value)| [(*name).to_owned(), value.clone()])
            .collect();
        let set = self
            .eval::<i64>(WHILE_WORKING, &[self.key(id)], &args)
            .await;
        set.is_ok_and(|set| set == 1)
    }
}

impl fmt::Debug for RedisTasks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Not the URL: it may hold a password.
        f.debug_struct("RedisTasks")
            .field("prefix", &self.prefix)
            .field("timeout", &self.link.timeout)
            .field("lease", &self.lease)
            .finish_non_exhaustive()
    }
}
