//! rmcp, the official Rust SDK (feature `rmcp`): serve a [`Toolbox`] over rmcp's
//! transports, or keep an rmcp `#[tool_router]` server and swap its `Parameters` type.
//!
//! # A toolbox as an rmcp server
//!
//! [`Toolbox`] implements [`rmcp::ServerHandler`]:
//!
//! ```no_run
//! use mcp_tool::{McpTool, Toolbox, ToolError};
//! use rmcp::ServiceExt;
//! use serde::Deserialize;
//!
//! /// Say hello.
//! #[derive(McpTool, Deserialize)]
//! struct Greet {
//!     #[validate(length(min = 1, max = 40))]
//!     name: String,
//! }
//!
//! async fn greet(args: Greet) -> Result<String, ToolError> {
//!     Ok(format!("Hello, {}!", args.name))
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let server = Toolbox::new().tool(greet).serve(mcp_tool::stdio::Stdio::new(
//!     tokio::io::stdin(),
//!     tokio::io::stdout(),
//! )).await?;
//! server.waiting().await?;
//! # Ok(()) }
//! ```
//!
//! # An rmcp `#[tool]` method, one type changed
//!
//! Take [`Parameters`] from here instead of rmcp: rmcp's `#[tool]` macro recognizes the
//! type by its name, and advertises the derived `inputSchema`. Arguments are checked
//! before the method runs; the method may return `Result<T, ToolError>`.
//!
//! ```no_run
//! use mcp_tool::rmcp::Parameters; // was rmcp::handler::server::wrapper::Parameters
//! use mcp_tool::{McpTool, ToolError};
//! use rmcp::handler::server::wrapper::Json;
//! use rmcp::{tool, tool_router};
//! use serde::{Deserialize, Serialize};
//!
//! /// Say hello.
//! #[derive(McpTool, Deserialize)]
//! struct Greet {
//!     #[validate(length(min = 1, max = 40))]
//!     name: String,
//! }
//!
//! #[derive(Serialize, schemars::JsonSchema)]
//! struct Greeting { text: String }
//!
//! struct Desk;
//!
//! #[tool_router(server_handler)]
//! impl Desk {
//!     #[tool(description = "Say hello")]
//!     async fn greet(&self, Parameters(args): Parameters<Greet>) -> Result<Json<Greeting>, ToolError> {
//!         Ok(Json(Greeting { text: format!("Hello, {}!", args.name) }))
//!     }
//! }
//! ```
//!
//! Keep the name: `use mcp_tool::rmcp::Parameters as Checked` would hide the
//! type from rmcp's macro, which then advertises an empty schema. Where both types are
//! needed in one module, write the path instead: `mcp_tool::rmcp::Parameters<T>`
//! (the macro looks only at the last segment).
//!
//! What rmcp's router does with a failed extraction limits what reaches the client: it
//! turns it into an `isError` result with the text only, prefixed by rmcp's "failed to
//! deserialize parameters: ". The text carries every violation; the `structuredContent`
//! is lost on that path. To keep it, give `#[tool_handler]` the router through
//! [`structured`](fn@structured): `#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router))]`.
//!
//! [`Toolbox`]: crate::Toolbox

mod convert;
mod extractor;
pub(crate) mod guarded;
mod handler;
mod mailbox;
pub(crate) mod peer;
pub(crate) mod per_caller;
#[cfg(feature = "ask")]
mod rounds;
mod scoped;
mod structured;
mod structured_answer;
mod structured_tasks;
pub(crate) mod tasked;
#[cfg(feature = "http")]
pub(crate) mod waiting;

pub use convert::{reject_malformed_call, to_rmcp_error, to_rmcp_result, to_rmcp_tool};
pub use extractor::Parameters;
pub use structured::{Structured, structured};
