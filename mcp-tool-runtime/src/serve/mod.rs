//! Serving tools: the [`Toolbox`](toolbox::Toolbox) that answers `tools/list` and
//! `tools/call`, and the adapter that serves it, or an rmcp `#[tool_router]` server, over
//! rmcp's transports (feature `rmcp`). The adapter depends on the toolbox, not the other
//! way round.

#[cfg(feature = "rmcp")]
mod adapter;
pub(crate) mod call;
mod callers;
#[cfg(feature = "rmcp")]
mod guarded;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "rmcp")]
mod jsonrpc;
#[cfg(feature = "tracing")]
mod observe;
pub(crate) mod output;
#[cfg(feature = "rmcp")]
mod peer;
#[cfg(feature = "rmcp")]
pub mod rmcp;
#[cfg(all(feature = "rmcp", feature = "ask"))]
mod rounds;
#[cfg(feature = "rmcp")]
mod router;
#[cfg(feature = "rmcp")]
mod scoped;
#[cfg(feature = "rmcp")]
pub mod stdio;
pub(crate) mod toolbox;
