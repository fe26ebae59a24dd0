//! The transports: MCP over stdio, over Streamable HTTP, and the JSON-RPC envelope
//! both write their own answers in. Each serves a [`Toolbox`](crate::Toolbox) or an
//! rmcp server through the [`rmcp`](crate::rmcp) adapters below it.

#[cfg(feature = "http")]
pub mod http;
mod jsonrpc;
pub mod stdio;
mod stdio_shared;
