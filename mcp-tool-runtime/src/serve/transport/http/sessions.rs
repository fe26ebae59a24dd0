//! The sessions of protocol 2025-11-25 (feature `http`): each bound to the subject
//! that opened it, and, with [`Sessions::redis`] (feature `redis`), open on every
//! replica behind one address.
//!
//! A 2025-11-25 client opens a session with `initialize` and sends its id
//! (`Mcp-Session-Id`) with every request after. rmcp keeps a session in the process that
//! opened it; the book here records, for each session, who opened it and what rmcp
//! needs to open it again elsewhere (the client's `initialize`), so that:
//!
//! - a request, stream, resumption, answer or `DELETE` that names a session another
//!   subject opened gets 404, as an unknown session does (the spec: sessions must not
//!   stand for authentication, and should be bound to their user);
//! - with the book in Redis, a replica that never saw the session opens it from the
//!   book (rmcp replays its `initialize`), and a client's answer to a question the
//!   server asked (a confirmation, `elicitation/create`) that reaches another replica
//!   than the one waiting for it is handed over through Redis to the one that waits.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
#[cfg(feature = "redis")]
use std::sync::OnceLock;
use std::sync::{Arc, Mutex};
#[cfg(feature = "redis")]
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::{SessionState, SessionStore};

#[cfg(feature = "redis")]
use crate::serve::rmcp::waiting::Waiters;

type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;
type StoreError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// The most sessions a book in this process holds; past it, the oldest are forgotten
/// (a forgotten session is unknown: its client opens a new one).
const MOST: usize = 100_000;

tokio::task_local! {
    /// The subject of the request being answered, while rmcp answers it: the
    /// subject a session it opens is bound to.
    static OPENING: Option<String>;
}

/// Runs `future` (rmcp answering one request) knowing the request's subject.
pub(super) async fn answering<F: Future>(subject: Option<String>, future: F) -> F::Output {
    OPENING.scope(subject, future).await
}

/// Where the sessions of protocol 2025-11-25 are kept: in this process (the default),
/// or in Redis, where every replica of the server finds them.
///
/// ```no_run
/// # #[cfg(feature = "redis")]
/// # fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_tool::http::{HttpServer, Sessions};
///
/// // The same Redis on every replica, and the same state key (see Toolbox::state_key).
/// let server = HttpServer::new().sessions(Sessions::redis("redis://10.0.0.5:6379/")?);
/// # let _ = server;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Sessions {
    pub(super) book: Arc<Book>,
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = match &*self.book {
            Book::Memory(_) => "in this process",
            #[cfg(feature = "redis")]
            Book::Redis(_) => "in Redis",
        };
        f.debug_struct("Sessions").field("kept", &kept).finish()
    }
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions::in_process()
    }
}

impl Sessions {
    /// Sessions kept in this process: a balancer in front of several replicas must
    /// send each session's requests to the replica that opened it.
    pub fn in_process() -> Self {
        Sessions {
            book: Arc::new(Book::Memory(Mutex::default())),
        }
    }

    /// Sessions kept in the Redis at `url` (as [`RedisStates`](crate::ask::RedisStates)
    /// takes it), shared by every replica: a session opened on one is served by any,
    /// and an answer to a question one replica asked is handed to it by whichever
    /// receives it. Each session is kept a day after it opens (see
    /// [`Sessions::keep_for`]). Only the URL is read here.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn redis(url: &str) -> Result<Self, redis::RedisError> {
        Ok(Sessions {
            book: Arc::new(Book::Redis(RedisBook {
                client: redis::Client::open(url)?,
                connection: OnceLock::new(),
                prefix: "mcp-tool:session:".to_owned(),
                keep: Duration::from_secs(24 * 3600),
                timeout: Duration::from_secs(1),
            })),
        })
    }

    /// How long a session is kept in Redis after it opens (a day unless set); past
    /// it, the session is unknown and its client opens a new one.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn keep_for(mut self, keep: Duration) -> Self {
        if let Some(Book::Redis(redis)) = Arc::get_mut(&mut self.book) {
            redis.keep = keep;
        }
        self
    }

    /// Whether the sessions are shared by replicas.
    #[cfg(feature = "redis")]
    pub(super) fn shared(&self) -> bool {
        !matches!(*self.book, Book::Memory(_))
    }

    /// The store rmcp keeps each session's `initialize` in (and so, here, its subject).
    pub(super) fn store(&self) -> Arc<dyn SessionStore> {
        Arc::new(Store(Arc::clone(&self.book)))
    }

    /// Who opened the session `id`: `None` if it is unknown here; `Some(None)` if it
    /// was opened without a verified caller.
    pub(super) async fn opener(&self, id: &str) -> Result<Option<Option<String>>, String> {
        Ok(self.book.load(id).await?.map(|entry| entry.subject))
    }

    /// Hands `message` (the client's answer in the session `id`) to the replica that
    /// waits for it.
    #[cfg(feature = "redis")]
    pub(super) async fn hand_over(
        &self,
        id: &str,
        message: &serde_json::Value,
    ) -> Result<(), String> {
        match &*self.book {
            Book::Redis(redis) => redis.publish(id, message).await,
            Book::Memory(_) => Ok(()),
        }
    }
}

/// A session as the book keeps it.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub(super) struct Entry {
    subject: Option<String>,
    state: SessionState,
}

pub(super) enum Book {
    /// In this process, oldest first.
    Memory(Mutex<(HashMap<String, Entry>, std::collections::VecDeque<String>)>),
    #[cfg(feature = "redis")]
    Redis(RedisBook),
}

impl Book {
    async fn load(&self, id: &str) -> Result<Option<Entry>, String> {
        match self {
            Book::Memory(book) => Ok(book.lock().map_err(|e| e.to_string())?.0.get(id).cloned()),
            #[cfg(feature = "redis")]
            Book::Redis(redis) => redis.load(id).await,
        }
    }

    async fn keep(&self, id: &str, entry: Entry) -> Result<(), String> {
        match self {
            Book::Memory(book) => {
                let mut book = book.lock().map_err(|e| e.to_string())?;
                let (sessions, order) = &mut *book;
                while sessions.len() >= MOST {
                    match order.pop_front() {
                        Some(oldest) => sessions.remove(&oldest),
                        None => break,
                    };
                }
                if sessions.insert(id.to_owned(), entry).is_none() {
                    order.push_back(id.to_owned());
                }
                Ok(())
            }
            #[cfg(feature = "redis")]
            Book::Redis(redis) => redis.keep(id, &entry).await,
        }
    }

    async fn forget(&self, id: &str) -> Result<(), String> {
        match self {
            Book::Memory(book) => {
                let mut book = book.lock().map_err(|e| e.to_string())?;
                let (sessions, order) = &mut *book;
                if sessions.remove(id).is_some() {
                    order.retain(|kept| kept != id);
                }
                Ok(())
            }
            #[cfg(feature = "redis")]
            Book::Redis(redis) => redis.forget(id).await,
        }
    }
}

/// rmcp's store of sessions, over the book: a session's `initialize` is kept with the
/// subject of the request that opened it.
struct Store(Arc<Book>);

impl SessionStore for Store {
    fn load<'a, 'b, 'c>(&'a self, session_id: &'b str) -> StoreFuture<'c, Option<SessionState>>
    where
        'a: 'c,
        'b: 'c,
        Self: 'c,
    {
        Box::pin(async move {
            let entry = self.0.load(session_id).await?;
            Ok(entry.map(|e| e.state))
        })
    }

    fn store<'a, 'b, 'd, 'c>(
        &'a self,
        session_id: &'b str,
        state: &'d SessionState,
    ) -> StoreFuture<'c, ()>
    where
        'a: 'c,
        'b: 'c,
        'd: 'c,
        Self: 'c,
    {
        let subject = OPENING.try_with(Clone::clone).ok().flatten();
        Box::pin(async move {
            let entry = Entry {
                subject,
                state: state.clone(),
            };
            Ok(self.0.keep(session_id, entry).await?)
        })
    }

    fn delete<'a, 'b, 'c>(&'a self, session_id: &'b str) -> StoreFuture<'c, ()>
    where
        'a: 'c,
        'b: 'c,
        Self: 'c,
    {
        Box::pin(async move { Ok(self.0.forget(session_id).await?) })
    }
}

/// The book in Redis: a session's entry under its key, kept for a time; answers handed
/// over on one channel every replica listens to.
#[cfg(feature = "redis")]
pub(super) struct RedisBook {
    client: redis::Client,
    connection: OnceLock<redis::aio::ConnectionManager>,
    prefix: String,
    keep: Duration,
    timeout: Duration,
}

#[cfg(feature = "redis")]
impl RedisBook {
    fn connection(&self) -> Result<redis::aio::ConnectionManager, String> {
        if let Some(connection) = self.connection.get() {
            return Ok(connection.clone());
        }
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(self.timeout))
            .set_response_timeout(Some(self.timeout))
            .set_number_of_retries(2)
            .set_max_delay(self.timeout);
        let made = redis::aio::ConnectionManager::new_lazy_with_config(self.client.clone(), config)
            .map_err(|e| e.to_string())?;
        Ok(self.connection.get_or_init(|| made).clone())
    }

    async fn query<T: redis::FromRedisValue>(&self, command: redis::Cmd) -> Result<T, String> {
        let mut connection = self.connection()?;
        match tokio::time::timeout(self.timeout, command.query_async(&mut connection)).await {
            Ok(reply) => reply.map_err(|e| e.to_string()),
            Err(_) => Err(format!(
                "Redis did not answer within {} ms",
                self.timeout.as_millis()
            )),
        }
    }

    async fn load(&self, id: &str) -> Result<Option<Entry>, String> {
        let key = format!("{}{id}", self.prefix);
        let held: Option<String> = self.query(redis::cmd("GET").arg(key).clone()).await?;
        held.map(|json| serde_json::from_str(&json).map_err(|e| e.to_string()))
            .transpose()
    }

    async fn keep(&self, id: &str, entry: &Entry) -> Result<(), String> {
        let key = format!("{}{id}", self.prefix);
        let json = serde_json::to_string(entry).map_err(|e| e.to_string())?;
        let millis = self.keep.as_millis().max(1) as u64;
        self.query::<()>(
            redis::cmd("SET")
                .arg(key)
                .arg(json)
                .arg("PX")
                .arg(millis)
                .clone(),
        )
        .await
    }

    async fn forget(&self, id: &str) -> Result<(), String> {
        let key = format!("{}{id}", self.prefix);
        self.query::<()>(redis::cmd("DEL").arg(key).clone()).await
    }

    /// The channel answers are handed over on.
    fn channel(&self) -> String {
        format!("{}answers", self.prefix)
    }

    async fn publish(&self, id: &str, message: &serde_json::Value) -> Result<(), String> {
        let payload = serde_json::json!({"session": id, "message": message}).to_string();
        self.query::<()>(
            redis::cmd("PUBLISH")
                .arg(self.channel())
                .arg(payload)
                .clone(),
        )
        .await
    }
}

/// Listens for answers handed over by other replicas and gives each to the session
/// here that waits for it, as long as the process serves (reconnecting after a failure);
/// `subscribed` says whether it listens now.
#[cfg(feature = "redis")]
pub(super) fn listen<F>(
    sessions: &Sessions,
    waiters: Arc<Waiters>,
    subscribed: Arc<tokio::sync::watch::Sender<bool>>,
    deliver: F,
) where
    F: Fn(String, serde_json::Value) -> Pin<Box<dyn Future<Output = ()> + Send>>
        + Send
        + Sync
        + 'static,
{
    use futures_util::StreamExt as _;
    let Book::Redis(redis) = &*sessions.book else {
        return;
    };
    let (client, channel) = (redis.client.clone(), redis.channel());
    tokio::spawn(async move {
        loop {
            let pubsub = async {
                let mut pubsub = client.get_async_pubsub().await?;
                pubsub.subscribe(&channel).await?;
                Ok::<_, redis::RedisError>(pubsub)
            };
            let Ok(mut pubsub) = pubsub.await else {
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            };
            subscribed.send_replace(true);
            let mut messages = pubsub.on_message();
            while let Some(message) = messages.next().await {
                let Ok(payload) = message.get_payload::<String>() else {
                    continue;
                };
                let Ok(handed) = serde_json::from_str::<serde_json::Value>(&payload) else {
                    continue;
                };
                let (Some(session), Some(answer)) =
                    (handed["session"].as_str(), handed.get("message"))
                else {
                    continue;
                };
                let id = answer
                    .get("id")
                    .map(ToString::to_string)
                    .unwrap_or_default();
                if waiters.waits_for(session, &id) {
                    deliver(session.to_owned(), answer.clone()).await;
                }
            }
            subscribed.send_replace(false);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
}
