//! The record of confirmed rounds in Redis (feature `redis`): one record for every
//! replica of a server, so that a round confirmed by its user runs once across all of
//! them, and a retry sent to any replica gets the first answer.

use std::fmt;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::record::{Claim, Stored, UsedStates};

/// What a round's key holds while the request that claimed it runs it; once it has
/// run, its answer (a JSON object, never this word).
const RUNNING: &str = "running";

/// The record of confirmed rounds in Redis (or Valkey), shared by the replicas of a
/// server: the first replica to claim a round runs it (`SET key "running" NX PX ms`);
/// the others are told it runs, or given its first answer (`GET key`). Each round is
/// forgotten when its state can no longer be sent (its lifetime, and as long again).
///
/// Every Redis call is bounded by [`RedisStates::timeout`] (1 second unless set). When
/// Redis cannot be reached or does not answer in time, a confirmed round is not run: the
/// client gets a `transient` error saying the call was not run, to send again; every
/// call that resumes no round is served as ever. The connection is made on first use
/// and made again after a failure, without a restart.
///
/// If Redis fails after a round was claimed and before its answer is kept, the round
/// stays claimed as running until it expires: a request that sends its state again is
/// told it is running (never run a second time), and once the state has expired, that
/// it expired, so the model starts over and the user is asked again.
///
/// ```no_run
/// use mcp_tool::ask::RedisStates;
/// use mcp_tool::{StateKey, Toolbox};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // The same on every replica: where rounds are recorded, and the key that seals.
/// let key = StateKey::from_hex(&std::env::var("MCP_TOOL_STATE_KEY")?)?;
/// let tools = Toolbox::new()
///     .state_key(key)
///     .used_states(RedisStates::new("redis://10.0.0.5:6379/")?);
/// # let _ = tools;
/// # Ok(())
/// # }
/// ```
pub struct RedisStates {
    link: Link,
    prefix: String,
}

/// A Redis at a URL, connected on first use and again after a failure, each command
/// bounded by a timeout: what every store of the crate in Redis talks through.
pub(crate) struct Link {
    client: redis::Client,
    /// Made on first use, in the runtime that serves; it reconnects by itself.
    connection: OnceLock<ConnectionManager>,
    pub(crate) timeout: Duration,
}

impl Link {
    /// The Redis at `url`; nothing is sent yet.
    pub(crate) fn new(url: &str) -> Result<Self, redis::RedisError> {
        Ok(Link {
            client: redis::Client::open(url)?,
            connection: OnceLock::new(),
            timeout: Duration::from_secs(1),
        })
    }

    fn connection(&self) -> Result<ConnectionManager, String> {
        if let Some(connection) = self.connection.get() {
            return Ok(connection.clone());
        }
        // Made where it is first needed, in a Tokio runtime: the manager connects when
        // first used, and again, with backoff, after a failure.
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(self.timeout))
            .set_response_timeout(Some(self.timeout))
            .set_number_of_retries(2)
            .set_max_delay(self.timeout);
        let made = ConnectionManager::new_lazy_with_config(self.client.clone(), config)
            .map_err(|e| e.to_string())?;
        Ok(self.connection.get_or_init(|| made).clone())
    }

    /// `command`'s reply, within the timeout.
    pub(crate) async fn query<T: redis::FromRedisValue>(
        &self,
        command: redis::Cmd,
    ) -> Result<T, String> {
        let mut connection = self.connection()?;
        match tokio::time::timeout(self.timeout, command.query_async(&mut connection)).await {
            Ok(Ok(reply)) => Ok(reply),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!(
                "Redis did not answer within {} ms",
                self.timeout.as_millis()
            )),
        }
    }
}

impl RedisStates {
    /// The record in the Redis at `url` (`redis://host:port/db`, with
    /// `redis://user:password@...` where it needs a password, `rediss://` for TLS if the
    /// `redis` crate was built with a TLS feature). Only the URL is read here: nothing
    /// is sent until the first round is claimed.
    pub fn new(url: &str) -> Result<Self, redis::RedisError> {
        Ok(RedisStates {
            link: Link::new(url)?,
            prefix: "mcp-tool:round:".to_owned(),
        })
    }

    /// The longest a claim may take, connecting included, and each command of it (1
    /// second unless set): past it, a confirmed round is not run and the client is told
    /// to retry.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.link.timeout = timeout;
        self
    }

    /// What every key starts with (`mcp-tool:round:` unless set): servers that share
    /// one Redis and not their rounds give each a prefix of its own.
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    async fn query<T: redis::FromRedisValue>(&self, command: redis::Cmd) -> Result<T, String> {
        self.link.query(command).await
    }

    async fn claim_round(&self, key: &str, keep_until: SystemTime) -> Result<Claim, String> {
        // A round whose key expired between the SET and the GET is claimed again.
        for _ in 0..3 {
            let set: Option<String> = self
                .query(
                    redis::cmd("SET")
                        .arg(key)
                        .arg(RUNNING)
                        .arg("NX")
                        .arg("PX")
                        .arg(millis_until(keep_until))
                        .clone(),
                )
                .await?;
            if set.is_some() {
                return Ok(Claim::First);
            }
            let held: Option<String> = self.query(redis::cmd("GET").arg(key).clone()).await?;
            match held {
                Some(value) if value == RUNNING => return Ok(Claim::Running),
                Some(answer) => return Ok(Claim::Answered(answer)),
                None => continue,
            }
        }
        Err("the round's key kept expiring while it was claimed".to_owned())
    }
}

/// Milliseconds from now to `until`, at least 1 (Redis refuses `PX 0`).
fn millis_until(until: SystemTime) -> u64 {
    until
        .duration_since(SystemTime::now())
        .map_or(1, |d| (d.as_millis() as u64).max(1))
}

impl UsedStates for RedisStates {
    fn claim<'a>(&'a self, id: &'a str, keep_until: SystemTime) -> Stored<'a, Claim> {
        Box::pin(async move {
            let key = format!("{}{id}", self.prefix);
            // The claim as a whole is bounded too, not only each of its commands.
            match tokio::time::timeout(self.link.timeout, self.claim_round(&key, keep_until)).await
            {
                Ok(claim) => claim.unwrap_or_else(Claim::Unavailable),
                Err(_) => Claim::Unavailable(format!(
                    "Redis did not answer within {} ms",
                    self.link.timeout.as_millis()
                )),
            }
        })
    }

    fn keep<'a>(&'a self, id: &'a str, answer: String, keep_until: SystemTime) -> Stored<'a, ()> {
        Box::pin(async move {
            let key = format!("{}{id}", self.prefix);
            let command = redis::cmd("SET")
                .arg(&key)
                .arg(answer)
                .arg("PX")
                .arg(millis_until(keep_until))
                .clone();
            // Not kept: the round stays claimed as running until it expires (above).
            let _kept: Result<(), String> = self.query(command).await;
            #[cfg(feature = "tracing")]
            if let Err(why) = _kept {
                tracing::warn!(target: "mcp_tool", reason = %why, "a confirmed round's answer was not kept: it stays running until it expires");
            }
        })
    }
}

impl fmt::Debug for RedisStates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Not the URL: it may hold a password.
        f.debug_struct("RedisStates")
            .field("prefix", &self.prefix)
            .field("timeout", &self.link.timeout)
            .finish_non_exhaustive()
    }
}
