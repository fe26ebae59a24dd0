//! The server's connections: each accepted one, its state (a request under way, idle
//! since when, a request's head begun when), and the watch that closes it when a client
//! stops sending. A client that opens a connection and sends nothing, stops in the
//! middle of a request's head, or keeps an idle connection open forever would otherwise
//! hold a task and a file descriptor for as long as it likes, and a thousand such
//! clients would take the server's capacity.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use hyper::body::{Body, Frame, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::Limits;
use super::exchange::Exchange;

/// Every open connection, by a number of its own.
pub(super) struct Connections {
    limits: Limits,
    epoch: Instant,
    by_id: Mutex<HashMap<u64, Arc<Connection>>>,
    next: AtomicU64,
    /// Told when the last connection has closed.
    emptied: Notify,
    /// Cancelled when the server stops: each connection finishes what it is answering,
    /// then closes.
    closing: CancellationToken,
}

/// Without `TCP_NODELAY`, a response written in two parts on a kept-alive connection
/// waits for the client's delayed acknowledgement of the first (Nagle's algorithm):
/// about 40 ms a call.
fn tune(stream: &TcpStream) {
    let _ = stream.set_nodelay(true);
}

/// One connection's state, shared by its task, its reads and its requests.
pub(super) struct Connection {
    /// Requests under way (their responses not yet sent whole): while any is, the
    /// connection is not idle.
    busy: AtomicUsize,
    /// Milliseconds since the connections's epoch when the connection last became idle.
    quiet_since: AtomicU64,
    /// One more than the millisecond the first byte of the next request's head came
    /// (0: none came yet). A new connection's first head counts from its opening.
    head_at: AtomicU64,
    /// Closed to make room for a new connection.
    evicted: AtomicBool,
    /// Told when the state changes in a way that moves the connection's deadline.
    wake: Notify,
}

impl Connections {
    pub fn new(limits: Limits) -> Arc<Self> {
        Arc::new(Connections {
            limits,
            epoch: Instant::now(),
            by_id: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            emptied: Notify::new(),
            closing: CancellationToken::new(),
        })
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn by_id(&self) -> MutexGuard<'_, HashMap<u64, Arc<Connection>>> {
        self.by_id.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Serves `stream`, a connection just accepted. At the bound on connections, the
    /// one idle the longest is closed to make room; when none is idle, the new one is
    /// told the server is busy.
    pub fn admit(self: &Arc<Self>, stream: TcpStream, exchange: Arc<Exchange>) {
        tune(&stream);
        let now = self.now();
        let conn = Arc::new(Connection {
            busy: AtomicUsize::new(0),
            quiet_since: AtomicU64::new(now),
            head_at: AtomicU64::new(now + 1),
            evicted: AtomicBool::new(false),
            wake: Notify::new(),
        });
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        {
            let mut by_id = self.by_id();
            let open = by_id.values().filter(|s| !s.is_evicted()).count();
            if open >= self.limits.max_connections {
                let idlest = by_id
                    .values()
                    .filter(|s| !s.is_evicted() && s.is_idle())
                    .min_by_key(|s| s.quiet_since.load(Ordering::Relaxed));
                match idlest {
                    Some(idlest) => idlest.evict(),
                    None => {
                        drop(by_id);
                        tokio::spawn(refuse(stream, self.limits.max_connections));
                        return;
                    }
                }
            }
            by_id.insert(id, Arc::clone(&conn));
        }
        let connections = Arc::clone(self);
        tokio::spawn(async move {
            connections.serve(&conn, stream, exchange).await;
            let mut by_id = connections.by_id();
            by_id.remove(&id);
            if by_id.is_empty() {
                connections.emptied.notify_waiters();
            }
        });
    }

    async fn serve(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        stream: TcpStream,
        exchange: Arc<Exchange>,
    ) {
        let io = TokioIo::new(Watched {
            stream,
            conn: Arc::clone(conn),
            connections: Arc::clone(self),
        });
        let requests = {
            let conn = Arc::clone(conn);
            let connections = Arc::clone(self);
            hyper::service::service_fn(move |request| {
                let busy = Busy::new(&conn, &connections);
                let exchange = Arc::clone(&exchange);
                async move {
                    let response = exchange.respond(request).await;
                    Ok::<_, Infallible>(response.map(|body| Tracked { body, _busy: busy }))
                }
            })
        };
        // The head timeout is this module's own: hyper's starts again as soon as a
        // response is sent, which would make it the idle timeout too.
        let connection = http1::Builder::new()
            .header_read_timeout(None)
            .serve_connection(io, requests);
        let mut connection = pin!(connection);
        let mut ending = false;
        loop {
            if conn.is_evicted() && conn.is_idle() {
                return;
            }
            let deadline = conn.deadline(&self.limits);
            let sleep = async {
                match deadline {
                    Some(at) => {
                        tokio::time::sleep_until(self.epoch + Duration::from_millis(at)).await
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = connection.as_mut() => return,
                () = sleep => {
                    // The deadline may have moved since it was read.
                    if conn.deadline(&self.limits).is_some_and(|at| at <= self.now()) {
                        return;
                    }
                }
                () = conn.wake.notified() => {}
                () = self.closing.cancelled(), if !ending => {
                    ending = true;
                    connection.as_mut().graceful_shutdown();
                }
            }
        }
    }

    /// Stops every connection once it has answered what it is answering.
    pub fn close(&self) {
        self.closing.cancel();
    }

    /// Waits for the last connection to close.
    pub async fn emptied(&self) {
        loop {
            let emptied = self.emptied.notified();
            if self.by_id().is_empty() {
                return;
            }
            emptied.await;
        }
    }
}

impl Connection {
    fn is_idle(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0
    }

    fn is_evicted(&self) -> bool {
        self.evicted.load(Ordering::Acquire)
    }

    fn evict(&self) {
        self.evicted.store(true, Ordering::Release);
        self.wake.notify_one();
    }

    /// When the connection closes unless something happens: none while a request is
    /// under way; else the head's timeout from its first byte, or the idle timeout
    /// from the last response.
    fn deadline(&self, limits: &Limits) -> Option<u64> {
        if !self.is_idle() {
            return None;
        }
        let ms = |d: Duration| d.as_millis() as u64;
        match self.head_at.load(Ordering::Acquire) {
            0 => Some(self.quiet_since.load(Ordering::Acquire) + ms(limits.idle_timeout)),
            at => Some(at - 1 + ms(limits.header_timeout)),
        }
    }

    /// Bytes came: if no request is under way, they begin the next one's head.
    fn heard(&self, now: u64) {
        if self.is_idle()
            && self
                .head_at
                .compare_exchange(0, now + 1, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            self.wake.notify_one();
        }
    }
}

/// A request under way on a connection: the connection is busy until this is dropped,
/// with the response's body (sent whole, or abandoned).
struct Busy {
    conn: Arc<Connection>,
    connections: Arc<Connections>,
}

impl Busy {
    fn new(conn: &Arc<Connection>, connections: &Arc<Connections>) -> Self {
        conn.busy.fetch_add(1, Ordering::AcqRel);
        conn.head_at.store(0, Ordering::Release);
        Busy {
            conn: Arc::clone(conn),
            connections: Arc::clone(connections),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let conn = &self.conn;
        conn.quiet_since
            .store(self.connections.now(), Ordering::Release);
        if conn.busy.fetch_sub(1, Ordering::AcqRel) == 1 {
            conn.wake.notify_one();
        }
    }
}

/// A response's body, which keeps its request under way until it is sent whole or
/// dropped: an open event stream keeps its connection busy, never idle.
struct Tracked {
    body: BoxBody<Bytes, Infallible>,
    _busy: Busy,
}

impl Body for Tracked {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The connection's stream, telling its conn when bytes come.
struct Watched {
    stream: TcpStream,
    conn: Arc<Connection>,
    connections: Arc<Connections>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.conn.heard(self.connections.now());
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// The answer to a connection past the bound when none can make room: 503, with a
/// JSON-RPC error a client can show, and the connection closed.
async fn refuse(mut stream: TcpStream, max: usize) {
    let body = super::super::jsonrpc::error(
        serde_json::Value::Null,
        super::BUSY,
        &format!(
            "Server busy: it serves at most {max} connections at once, and every one is \
             answering a request. Try again in a moment."
        ),
    )
    .to_string();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_accepted_connection_sends_without_delay() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let _client = TcpStream::connect(addr).await.unwrap();
        let (accepted, _) = listener.accept().await.unwrap();
        assert!(!accepted.nodelay().unwrap(), "the system's default");
        tune(&accepted);
        assert!(accepted.nodelay().unwrap());
    }
}
