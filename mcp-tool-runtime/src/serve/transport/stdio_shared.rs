//! What the stdio transport's reading task and the answers it sends share: the writer
//! of lines (answers finished together go out in one write), the requests read and not
//! yet answered, and the questions the server asked the client within them.

use std::collections::{HashMap, HashSet};
use std::io;
use std::sync::{Mutex, MutexGuard};

use rmcp::model::RequestId;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Notify;

/// What the reading task and the answers sent share.
pub(super) struct Shared<W> {
    writer: tokio::sync::Mutex<Writer<W>>,
    /// Lines waiting to be written: whoever holds the writer next writes them all, so
    /// that answers finished together go out in one write and one flush.
    queued: Mutex<Vec<u8>>,
    /// The requests read and not yet answered, by id (a count, for an id sent twice).
    pending: Mutex<HashMap<RequestId, usize>>,
    /// Told when a request is answered, or the server asks the client something.
    answered: Notify,
    /// The server's own requests to the client (an elicitation within a call) that the
    /// client has not answered yet, each with the client's request it was asked within.
    asked: Mutex<HashMap<RequestId, Option<RequestId>>>,
    /// The requests abandoned at the end of the input: nothing is written for them.
    abandoned: Mutex<HashSet<RequestId>>,
}

/// Where the answers go, and whether a write there has failed: then the client's end is
/// gone (or holds part of a line), and every later write fails too.
struct Writer<W> {
    out: W,
    broken: bool,
}

impl<W> Shared<W> {
    pub(super) fn new(out: W) -> Self {
        Shared {
            writer: tokio::sync::Mutex::new(Writer { out, broken: false }),
            queued: Mutex::new(Vec::new()),
            pending: Mutex::new(HashMap::new()),
            answered: Notify::new(),
            asked: Mutex::new(HashMap::new()),
            abandoned: Mutex::new(HashSet::new()),
        }
    }

    pub(super) fn pending(&self) -> MutexGuard<'_, HashMap<RequestId, usize>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn count_pending(&self) -> usize {
        self.pending().values().sum()
    }

    /// The request `id` answered (or cancelled: JSON-RPC answers no cancelled request).
    pub(super) fn done(&self, id: &RequestId) {
        let mut pending = self.pending();
        if let Some(count) = pending.get_mut(id) {
            *count -= 1;
            if *count == 0 {
                pending.remove(id);
            }
            drop(pending);
            self.answered.notify_waiters();
        }
    }

    /// The server asked the client `id`, within the client's request `within` (rmcp
    /// marks a request sent from a handler with the request it serves).
    pub(super) fn asked(&self, id: &RequestId, within: Option<RequestId>) {
        let mut asked = self.asked.lock().unwrap_or_else(|e| e.into_inner());
        asked.insert(id.clone(), within);
        drop(asked);
        self.answered.notify_waiters();
    }

    /// The client answered the server's request `id`.
    pub(super) fn answered_by_client(&self, id: &RequestId) {
        let mut asked = self.asked.lock().unwrap_or_else(|e| e.into_inner());
        asked.remove(id);
    }

    /// At the end of the input: waits until every request read is answered, or each
    /// one still pending waits for an answer of the client's, which cannot come any
    /// more. Returns those requests (abandoned: nothing is written for them from now
    /// on) and the questions they wait on.
    pub(super) async fn drain_at_end(&self) -> (Vec<RequestId>, Vec<RequestId>) {
        loop {
            let changed = self.answered.notified();
            {
                let pending = self.pending();
                if pending.is_empty() {
                    return (Vec::new(), Vec::new());
                }
                let asked = self.asked.lock().unwrap_or_else(|e| e.into_inner());
                let waits =
                    |id: &RequestId| asked.values().any(|within| within.as_ref() == Some(id));
                if pending.keys().all(waits) {
                    let waiting: Vec<RequestId> = pending.keys().cloned().collect();
                    let mut abandoned = self.abandoned.lock().unwrap_or_else(|e| e.into_inner());
                    abandoned.extend(waiting.iter().cloned());
                    return (waiting, asked.keys().cloned().collect());
                }
            }
            changed.await;
        }
    }

    /// Whether the answer to `id` is not to be written: its request was abandoned.
    pub(super) fn is_abandoned(&self, id: &RequestId) -> bool {
        let abandoned = self.abandoned.lock().unwrap_or_else(|e| e.into_inner());
        !abandoned.is_empty() && abandoned.contains(id)
    }

    /// Waits until at most `most` requests are pending.
    pub(super) async fn pending_at_most(&self, most: usize) {
        loop {
            let answered = self.answered.notified();
            if self.count_pending() <= most {
                return;
            }
            answered.await;
        }
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Shared<W> {
    /// Writes one message as a line. The line is queued, then whoever holds the writer
    /// writes every line queued so far: with many requests in flight, answers that
    /// finish while a write is under way go out together in the next one (each write
    /// to tokio's stdout is a trip through its blocking pool). Returns once the line
    /// is written and flushed.
    pub(super) async fn write(&self, line: &[u8]) -> io::Result<()> {
        {
            let mut queued = self.queued.lock().unwrap_or_else(|e| e.into_inner());
            queued.extend_from_slice(line);
            queued.push(b'\n');
        }
        self.write_queued().await
    }

    /// Writes and flushes the lines queued, if any; an error once a write has failed.
    pub(super) async fn write_queued(&self) -> io::Result<()> {
        let mut writer = self.writer.lock().await;
        if writer.broken {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "an earlier write to the client failed",
            ));
        }
        let lines = std::mem::take(&mut *self.queued.lock().unwrap_or_else(|e| e.into_inner()));
        if lines.is_empty() {
            // Written, with others, by the writer's previous holder.
            return Ok(());
        }
        let written = async {
            writer.out.write_all(&lines).await?;
            writer.out.flush().await
        }
        .await;
        writer.broken = written.is_err();
        written
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// A client's end of stdout: what each write brought, and how many flushes; each
    /// flush takes a turn of the runtime, as a real one takes a trip to the blocking
    /// pool; `fail` makes every write fail.
    #[derive(Default)]
    struct Recorded {
        writes: Vec<Vec<u8>>,
        flushes: usize,
        flushing: bool,
        fail: bool,
    }

    impl AsyncWrite for Recorded {
        fn poll_write(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &[u8],
        ) -> std::task::Poll<io::Result<usize>> {
            if self.fail {
                return std::task::Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
            }
            self.writes.push(buf.to_vec());
            std::task::Poll::Ready(Ok(buf.len()))
        }

        fn poll_flush(
            mut self: std::pin::Pin<&mut Self>,
            cx: &mut std::task::Context<'_>,
        ) -> std::task::Poll<io::Result<()>> {
            if !self.flushing {
                self.flushing = true;
                cx.waker().wake_by_ref();
                return std::task::Poll::Pending;
            }
            self.flushing = false;
            self.flushes += 1;
            std::task::Poll::Ready(Ok(()))
        }

        fn poll_shutdown(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn answers_finished_together_go_out_whole_in_fewer_writes() {
        let shared = Arc::new(Shared::new(Recorded::default()));
        let sent: Vec<String> = (0..50).map(|i| format!("{{\"id\":{i}}}")).collect();
        let writes: Vec<_> = sent
            .iter()
            .map(|line| {
                let shared = Arc::clone(&shared);
                let line = line.clone();
                tokio::spawn(async move { shared.write(line.as_bytes()).await })
            })
            .collect();
        for write in writes {
            write.await.unwrap().unwrap();
        }
        let writer = &shared.writer.lock().await.out;
        let out = String::from_utf8(writer.writes.concat()).unwrap();
        let mut lines: Vec<&str> = out.lines().collect();
        lines.sort_by_key(|l| l[6..l.len() - 1].parse::<u32>().unwrap());
        assert_eq!(lines, sent, "every answer once, each a whole line");
        // The first answer is flushed alone; the others, queued meanwhile, together.
        assert!(
            writer.flushes < 5,
            "{} flushes for 50 answers",
            writer.flushes
        );
        assert!(out.ends_with('\n'));
    }

    #[tokio::test]
    async fn once_a_write_fails_every_later_one_does() {
        let shared = Shared::new(Recorded {
            fail: true,
            ..Recorded::default()
        });
        assert!(shared.write(b"{}").await.is_err());
        shared.writer.lock().await.out.fail = false;
        let again = shared.write(b"{}").await.unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::BrokenPipe);
    }
}
