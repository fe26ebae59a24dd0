//! Serving over MCP stdio (feature `rmcp`), every request answered: the transport that
//! reads the client's lines and writes the server's, in place of rmcp's.
//!
//! rmcp's own stdio transport drops what it cannot read without a word: a line that is
//! not JSON (invalid UTF-8, a lone surrogate, nesting past serde's limit) or one longer
//! than its limit, and the client waits for an answer that never comes. At the end of
//! the input it stops at once, with requests read and not yet answered, and it reads on
//! however many answers are pending, so that memory grows with a pipelining client.
//! Here:
//!
//! - a line that is not JSON gets a JSON-RPC parse error (-32700, `id` null); JSON that
//!   is no JSON-RPC message, an invalid request (-32600) with its `id` when it has one;
//!   JSON whose values serde_json will not read (`1e400`, `"\ud800"`, a string that is
//!   not UTF-8, nesting past 128 levels) is answered at its `id` wherever the `id` and
//!   `method` read: a `tools/call`, with a tool execution error at each argument that
//!   could not be read; another request, with invalid params (-32602);
//!   a line longer than [`Stdio::max_line`] (16 MiB unless set), an invalid request
//!   with the `id` found at its start;
//! - a request whose `id` is that of one still being answered gets an invalid request:
//!   JSON-RPC ids tell a client's requests apart;
//! - reading pauses while [`Stdio::max_pending`] requests (128 unless set) wait for
//!   their answers, so memory stays bounded whatever the client sends;
//! - at the end of the input, every request read is answered before serving ends,
//!   except a call waiting for the client's answer to a question of the server's (an
//!   elicitation within the call): no answer can come, so the call is abandoned as a
//!   cancelled one is, and nothing is written for it;
//! - answers that finish while another is being written go out together, in one write
//!   and one flush: each write to tokio's stdout is a trip through its blocking pool,
//!   and writing each answer alone holds a pipelining client to that pool's pace.
//!
//! ```no_run
//! use mcp_tool::{McpTool, ToolError, Toolbox};
//! use serde::Deserialize;
//!
//! /// Say hello.
//! #[derive(McpTool, Deserialize)]
//! struct Greet { name: String }
//!
//! async fn greet(args: Greet) -> Result<String, ToolError> {
//!     Ok(format!("Hello, {}!", args.name))
//! }
//!
//! # async fn run() -> std::io::Result<()> {
//! mcp_tool::stdio::serve(Toolbox::new().tool(greet)).await
//! # }
//! ```

use std::io;
use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, GetExtensions, JsonRpcMessage, ServerJsonRpcMessage,
};
use rmcp::service::{OriginatingRequestId, RoleServer};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, BufReader};
use tokio::sync::mpsc;

use super::jsonrpc;
use super::stdio_shared::Shared;

/// The longest line read, unless set: rmcp's own limit.
const MAX_LINE: usize = 16 * 1024 * 1024;
/// How many requests may wait for their answers before reading pauses, unless set.
const MAX_PENDING: usize = 128;
/// How much of a line too long to read is kept, to find its `id`.
const KEPT_OF_TOO_LONG: usize = 64 * 1024;

/// Serves `handler` (a [`Toolbox`](crate::Toolbox), or an rmcp `#[tool_router]` server)
/// over this process's stdin and stdout until the client closes stdin, with the
/// default limits; every request read is answered before it returns.
pub async fn serve<H: rmcp::ServerHandler>(handler: H) -> io::Result<()> {
    Stdio::new(tokio::io::stdin(), tokio::io::stdout())
        .serve(handler)
        .await
}

/// MCP's stdio transport over a reader and a writer (see [the module](self)): give it to
/// rmcp's `serve` (`handler.serve(Stdio::new(stdin, stdout))`), or call
/// [`Stdio::serve`].
pub struct Stdio<R, W> {
    reader: Option<R>,
    max_line: usize,
    max_pending: usize,
    shared: Arc<Shared<W>>,
    incoming: Option<mpsc::Receiver<ClientJsonRpcMessage>>,
    reading: Option<tokio::task::JoinHandle<()>>,
}

impl<R, W> Stdio<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// The transport reading requests from `reader` and writing answers to `writer`.
    pub fn new(reader: R, writer: W) -> Self {
        Stdio {
            reader: Some(reader),
            max_line: MAX_LINE,
            max_pending: MAX_PENDING,
            shared: Arc::new(Shared::new(writer)),
            incoming: None,
            reading: None,
        }
    }

    /// The longest line read, in bytes (default 16 MiB); a longer one is answered with
    /// an error and not read.
    pub fn max_line(mut self, bytes: usize) -> Self {
        self.max_line = bytes;
        self
    }

    /// How many requests may wait for their answers before reading pauses (default
    /// 128; at least 1).
    pub fn max_pending(mut self, requests: usize) -> Self {
        self.max_pending = requests.max(1);
        self
    }

    /// Serves `handler` until the input ends and every request read is answered.
    pub async fn serve<H: rmcp::ServerHandler>(self, handler: H) -> io::Result<()> {
        let handler = crate::serve::rmcp::guarded::Guarded(std::sync::Arc::new(handler));
        let running = handler.serve(self).await.map_err(io::Error::other)?;
        running.waiting().await.map_err(io::Error::other)?;
        Ok(())
    }

    fn start_reading(&mut self) {
        let Some(reader) = self.reader.take() else {
            return;
        };
        let (sender, receiver) = mpsc::channel(16);
        let reading = Reading {
            reader: BufReader::new(reader),
            sender,
            shared: Arc::clone(&self.shared),
            max_line: self.max_line,
            max_pending: self.max_pending,
        };
        self.incoming = Some(receiver);
        self.reading = Some(tokio::spawn(reading.run()));
    }
}

/// The task that reads the client's lines, one at a time.
struct Reading<R, W> {
    reader: BufReader<R>,
    sender: mpsc::Sender<ClientJsonRpcMessage>,
    shared: Arc<Shared<W>>,
    max_line: usize,
    max_pending: usize,
}

/// A line as read.
enum Line {
    /// The input ended.
    End,
    /// A line, whole (its newline removed).
    Whole,
    /// A line of at least `length` bytes, past the limit: only its start was kept.
    TooLong { length: usize },
}

impl<R, W> Reading<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    async fn run(mut self) {
        let mut line = Vec::new();
        loop {
            self.shared.pending_at_most(self.max_pending - 1).await;
            line.clear();
            let read = match read_line(&mut self.reader, &mut line, self.max_line).await {
                Ok(read) => read,
                Err(_e) => {
                    #[cfg(feature = "tracing")]
                    tracing::error!(target: "mcp_tool", error = %_e, "reading stdin failed; no more requests are read");
                    Line::End
                }
            };
            let answer = match read {
                Line::End => break,
                Line::TooLong { length } => jsonrpc::too_long(&line, length, self.max_line),
                Line::Whole => match self.take(&line) {
                    Ok(None) => continue,
                    Ok(Some(message)) => {
                        if self.sender.send(message).await.is_err() {
                            // The server stopped: nothing more is read.
                            return;
                        }
                        continue;
                    }
                    Err(answer) => answer,
                },
            };
            if let Err(_e) = self.shared.write(answer.to_string().as_bytes()).await {
                #[cfg(feature = "tracing")]
                tracing::error!(target: "mcp_tool", error = %_e, "writing stdout failed");
            }
        }
        // The input ended: every request read is answered before the server is told,
        // but those that wait on the client, which will say nothing more.
        self.abandon_at_end().await;
    }

    /// Waits for the requests read to be answered, and abandons those waiting on an
    /// answer of the client's: each is cancelled (rmcp drops a cancelled request's
    /// answer) and its question told that the client is gone, so that its handler
    /// returns and serving ends at once, with nothing written for it.
    async fn abandon_at_end(self) {
        let (waiting, asked) = self.shared.drain_at_end().await;
        for id in waiting {
            let cancelled = serde_json::json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "the client closed its input"},
            });
            hand_over(&self.sender, cancelled).await;
        }
        for id in asked {
            let gone = serde_json::json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {"code": -32000, "message": "the client closed its input; no answer will come"},
            });
            hand_over(&self.sender, gone).await;
        }
    }

    /// The message of a line, to hand to the server; `None` for a blank line; the
    /// answer to a line that is not one.
    fn take(&self, line: &[u8]) -> Result<Option<ClientJsonRpcMessage>, Value> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        let message = serde_json::from_slice::<ClientJsonRpcMessage>(line)
            .map_err(|e| jsonrpc::unreadable_request(line, &e.to_string()))?;
        match &message {
            JsonRpcMessage::Request(request) => {
                let mut pending = self.shared.pending();
                if pending.contains_key(&request.id) {
                    let id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
                    return Err(jsonrpc::error(
                        id,
                        jsonrpc::INVALID_REQUEST,
                        "Invalid Request: a request with this id is still being answered; each request in flight needs an id of its own.",
                    ));
                }
                pending.insert(request.id.clone(), 1);
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.shared.done(id);
                }
            }
            // The client's answer to a question of the server's.
            JsonRpcMessage::Response(response) => self.shared.answered_by_client(&response.id),
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    self.shared.answered_by_client(id);
                }
            }
        }
        Ok(Some(message))
    }
}

/// Hands a message the transport made to the server, as if the client sent it.
async fn hand_over(sender: &mpsc::Sender<ClientJsonRpcMessage>, message: Value) {
    if let Ok(message) = serde_json::from_value::<ClientJsonRpcMessage>(message) {
        let _ = sender.send(message).await;
    }
}

/// Reads one line into `line` (without its newline or carriage return), keeping at most
/// `max` bytes of it: past that, only its start is kept and the rest is skipped.
async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Line> {
    let mut length = 0usize;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match length {
                0 => Line::End,
                _ if length > max => Line::TooLong { length },
                _ => Line::Whole,
            });
        }
        let (piece, end) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        length += piece.len();
        let room = if length > max { KEPT_OF_TOO_LONG } else { max };
        let keep = piece.len().min(room.saturating_sub(line.len()));
        line.extend_from_slice(&piece[..keep]);
        let used = end.unwrap_or(available.len());
        reader.consume(used);
        if end.is_some() {
            if line.last() == Some(&b'\r') && length <= max {
                line.pop();
            }
            return Ok(if length > max {
                Line::TooLong { length }
            } else {
                Line::Whole
            });
        }
    }
}

impl<R, W> Transport<RoleServer> for Stdio<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let shared = Arc::clone(&self.shared);
        async move {
            let answers = match &item {
                JsonRpcMessage::Response(response) => Some(response.id.clone()),
                JsonRpcMessage::Error(error) => error.id.clone(),
                JsonRpcMessage::Request(request) => {
                    let within = request.request.extensions().get::<OriginatingRequestId>();
                    shared.asked(&request.id, within.map(|w| w.0.clone()));
                    None
                }
                JsonRpcMessage::Notification(_) => None,
            };
            if answers.as_ref().is_some_and(|id| shared.is_abandoned(id)) {
                return Ok(());
            }
            let written = match to_line(&item) {
                Ok(line) => shared.write(&line).await,
                Err(e) => Err(io::Error::other(e)),
            };
            // Answered, or never to be: either way the client is not waited for.
            if let Some(id) = answers {
                shared.done(&id);
            }
            written
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<ClientJsonRpcMessage>> + Send {
        self.start_reading();
        let incoming = self.incoming.as_mut();
        async move {
            match incoming {
                Some(incoming) => incoming.recv().await,
                None => None,
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), io::Error>> + Send {
        if let Some(reading) = self.reading.take() {
            reading.abort();
        }
        self.incoming = None;
        let shared = Arc::clone(&self.shared);
        async move { shared.write_queued().await }
    }
}

impl<R, W> Drop for Stdio<R, W> {
    fn drop(&mut self) {
        if let Some(reading) = self.reading.take() {
            reading.abort();
        }
    }
}

/// The line of `item`; a tool list's with each tool's `execution` where clients read
/// it (see `tasked::executions_onto`).
fn to_line(item: &ServerJsonRpcMessage) -> serde_json::Result<Vec<u8>> {
    let JsonRpcMessage::Response(rmcp::model::JsonRpcResponse {
        result: rmcp::model::ServerResult::ListToolsResult(_),
        ..
    }) = item
    else {
        return serde_json::to_vec(item);
    };
    let mut value = serde_json::to_value(item)?;
    crate::serve::rmcp::tasked::executions_onto(&mut value);
    serde_json::to_vec(&value)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> Vec<(String, Option<usize>)> {
        let mut reader = BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            let mut line = Vec::new();
            match read_line(&mut reader, &mut line, max).await.unwrap() {
                Line::End => return out,
                Line::Whole => out.push((String::from_utf8(line).unwrap(), None)),
                Line::TooLong { length } => {
                    out.push((String::from_utf8(line).unwrap(), Some(length)))
                }
            }
        }
    }

    #[tokio::test]
    async fn lines_are_read_whole_or_cut_past_the_limit() {
        let read = lines(b"short\r\nexactly10!\nmuch too long a line\nlast", 10).await;
        let expected = [
            ("short".to_owned(), None),
            ("exactly10!".to_owned(), None),
            ("much too long a line".to_owned(), Some(20)),
            ("last".to_owned(), None),
        ];
        assert_eq!(read, expected);
        // Past the limit, only the start is kept to find the id.
        let long = format!("{}\n", "x".repeat(200_000));
        let read = lines(long.as_bytes(), 10).await;
        assert_eq!(read[0].0.len(), KEPT_OF_TOO_LONG);
        assert_eq!(read[0].1, Some(200_000));
    }
}
