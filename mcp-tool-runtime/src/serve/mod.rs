//! Serving tools, in three layers that each look only down:
//!
//! - this folder: the [`Toolbox`](toolbox::Toolbox) that answers `tools/list` and
//!   `tools/call`, and one call's route through the checks, the asking and the handler
//!   (no feature);
//! - [`rmcp`]: the adapters to rmcp, the official Rust SDK: the `Toolbox` as an rmcp
//!   `ServerHandler`, the conversions, and the `Parameters` extractor and `structured`
//!   wrapper that give an rmcp `#[tool]` method this crate's checks (feature `rmcp`);
//! - [`tasks`]: calls that become tasks, polled and cancelled by their client (feature
//!   `rmcp`);
//! - [`transport`]: stdio, Streamable HTTP, and the JSON-RPC they write (feature `rmcp`,
//!   and `http` for HTTP).

pub(crate) mod call;
pub(crate) mod handler;
#[cfg(feature = "tracing")]
mod observe;
pub(crate) mod output;
pub(crate) mod progress;
#[cfg(feature = "rmcp")]
pub mod rmcp;
pub(crate) mod settings;
#[cfg(feature = "rmcp")]
pub mod tasks;
pub(crate) mod toolbox;
#[cfg(feature = "rmcp")]
pub mod transport;
