//! One annotated struct gives an MCP tool's advertised `inputSchema` and the runtime
//! checks of exactly that schema, plus the rules a schema cannot express; every failure
//! becomes a tool execution error (`isError: true`) that tells the model which field,
//! what was expected, what came and what to do.
//!
//! ```
//! use mcp_tool::{Context, McpTool};
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! /// Book a flight.
//! #[derive(McpTool, Deserialize, Debug)]
//! struct BookFlight {
//!     /// Departure airport, IATA code.
//!     #[validate(regex = r"^[A-Z]{3}$")]
//!     origin: String,
//!     #[validate(future_date(format = "%d/%m/%Y"))]
//!     departure_date: String,
//!     #[validate(enum = ["economy", "premium_economy", "business", "first"])]
//!     cabin: String,
//! }
//!
//! // What the model is told:
//! let schema = BookFlight::input_schema();
//! assert_eq!(schema["properties"]["origin"]["pattern"], "^[A-Z]{3}$");
//! assert_eq!(schema["additionalProperties"], false);
//!
//! // What the server enforces, with "today" fixed for the example:
//! let today = Context::on(2026, 11, 30).unwrap();
//! let args = json!({"origin": "CDG", "departure_date": "12/12/2024", "cabin": "PROCESSING"});
//! let err = BookFlight::from_arguments_in(args, &today).unwrap_err();
//! let paths: Vec<&str> = err.violations().iter().map(|v| v.path.as_str()).collect();
//! assert_eq!(paths, ["/departure_date", "/cabin"]);
//! assert!(err.text().contains("Current date is 30/11/2026."));
//!
//! // What the client receives:
//! let result = err.to_call_result();
//! assert!(result.is_error);
//! assert_eq!(result.structured_content.unwrap()["errorCategory"], "validation");
//! ```
//!
//! See the [`McpTool`](macro@McpTool) derive for the attribute language,
//! [`Toolbox`] for serving tools, and the [`manual`] for each topic in full.

//! # Features
//!
//! Each module below exists with its feature (a link, where this build has it).
//!

#![cfg_attr(
    feature = "rmcp",
    doc = "- `rmcp`: [`Toolbox`] is an rmcp `ServerHandler`, and the [`rmcp`] module adapts rmcp's own `#[tool]` methods."
)]
#![cfg_attr(
    not(feature = "rmcp"),
    doc = "- `rmcp`: `Toolbox` is an rmcp `ServerHandler`, and the `rmcp` module adapts rmcp's own `#[tool]` methods."
)]
#![cfg_attr(
    feature = "http",
    doc = "- `http`: the [`http`] module serves a `Toolbox` (or an rmcp router) over MCP Streamable HTTP, `Host` and `Origin` limited to loopback unless allowed."
)]
#![cfg_attr(
    not(feature = "http"),
    doc = "- `http`: the `http` module serves a `Toolbox` (or an rmcp router) over MCP Streamable HTTP, `Host` and `Origin` limited to loopback unless allowed."
)]
#![cfg_attr(
    feature = "auth",
    doc = "- `auth`: [`http::auth`], the HTTP server as an OAuth 2.1 resource server: bearer tokens verified (JWT and JWKS built in), Protected Resource Metadata, each tool's scopes answered with 401 and 403 (implies `http`)."
)]
#![cfg_attr(
    not(feature = "auth"),
    doc = "- `auth`: `http::auth`, the HTTP server as an OAuth 2.1 resource server: bearer tokens verified (JWT and JWKS built in), Protected Resource Metadata, each tool's scopes answered with 401 and 403 (implies `http`)."
)]
//! - `https`: the JWT verifier reads an `https://` issuer itself, over TLS (rustls, the
//!   system's roots or `SSL_CERT_FILE`; implies `auth`).
#![cfg_attr(
    feature = "agent",
    doc = "- `agent`: the [`agent`] module, for the client side of a tool call."
)]
#![cfg_attr(
    not(feature = "agent"),
    doc = "- `agent`: the `agent` module, for the client side of a tool call."
)]
//! - `dates`: the date rules `future_date` and `past_date`, and the `Context` methods
//!   that set their clock and time zone (jiff, and the system's time zone database).
//!   Without it a date rule is a compile error that names the feature.
//! - `ask`: asking the user, `#[mcp_tool(confirm = "...")]`, `#[validate(ask = "...")]`
//!   and a handler's [`Ask`] (see [`ask`]): the sealed `requestState` of 2026-07-28's
//!   rounds (HMAC-SHA256, base64, the system's randomness) and `elicitation/create`
//!   within a 2025-11-25 call. Without it those are compile errors that name the
//!   feature, and a `requestState` a client sends is refused: nothing was sealed.
//! - `redis`: what the replicas of a server share in Redis (implies `ask`):
//!   `ask::RedisStates`, the record of confirmed rounds, so that a confirmed round runs
//!   once across all of them; with `http`, `http::Sessions::redis`, the sessions of
//!   2025-11-25 served by any replica; and the tasks of long-running tools.
//! - `tracing`: one event per `tools/call` for operators (tool, outcome, category,
//!   duration, the violated paths and rules; never an argument's value), see the
//!   operators page of the [`manual`].
//! - `chrono`, `jiff`, `uuid`, `url`, `semver`: those crates' types as argument types (see the
//!   [`McpTool`](macro@McpTool) derive).
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use mcp_tool_runtime::*;

pub mod manual;

/// The README's Rust blocks, run as doctests so that what it shows compiles.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

#[doc = include_str!("derive.md")]
pub use mcp_tool_derive::McpTool;

/// Derives [`Argument`](trait@Argument) and `schemars::JsonSchema` for a type used
/// *inside* a tool's arguments: a struct with named fields (a nested object, the items
/// of a list, or `#[serde(flatten)]`ed shared parameters), an enum with data, or a
/// newtype that carries rules of its own. It reads the same attributes as
/// [`McpTool`](macro@McpTool), and its rules are checked at their full path, but it is
/// not a tool: it has no name, is not listed, and refuses the tool settings.
///
/// ```
/// use mcp_tool::{Argument, McpTool};
/// use serde::Deserialize;
///
/// /// Hours during which nothing is sent.
/// #[derive(Argument, Deserialize)]
/// struct QuietHours {
///     #[validate(range(max = 23))]
///     from: u8,
///     #[validate(range(max = 23))]
///     to: u8,
/// }
///
/// /// Set the notification preferences.
/// #[derive(McpTool, Deserialize)]
/// struct SetPreferences {
///     quiet_hours: Option<QuietHours>,
/// }
///
/// let err = SetPreferences::from_arguments(serde_json::json!({
///     "quiet_hours": {"from": 22, "to": 31}
/// }))
/// .err()
/// .expect("31 is no hour");
/// assert_eq!(err.violations()[0].path, "/quiet_hours/to");
/// ```
pub use mcp_tool_derive::Argument;

/// Derives [`McpEnum`](trait@McpEnum), [`Argument`] and `schemars::JsonSchema` for an
/// enum of unit variants, so that it can be the type of a tool's field: its serde names
/// become the schema's `enum`, and a value outside them is a violation that lists them
/// and suggests the nearest. Do not also derive `JsonSchema`: this derive implements it,
/// from the same schema. serde's attributes (`rename`, `rename_all`) are read whatever
/// implements `Deserialize`; where that `Deserialize` is your own and reads a string
/// none of the names (`"full"` for `Full`), the string is taken, as your server took it
/// (serde's derived reading never does).
///
/// ```
/// use mcp_tool::{McpEnum, McpTool};
/// use serde::Deserialize;
///
/// /// Travel class.
/// #[derive(McpEnum, Deserialize)]
/// #[serde(rename_all = "snake_case")]
/// enum Cabin { Economy, PremiumEconomy, Business, First }
///
/// #[derive(McpTool, Deserialize)]
/// struct Upgrade { cabin: Cabin }
///
/// let schema = Upgrade::input_schema();
/// assert_eq!(
///     schema["properties"]["cabin"]["enum"],
///     serde_json::json!(["economy", "premium_economy", "business", "first"])
/// );
/// assert_eq!(<Cabin as mcp_tool::McpEnum>::VALUES.len(), 4);
/// ```
///
/// A field of the enum with `#[serde(default)]` advertises its `default`, and the
/// variants' doc comments (or `#[schemars(description)]`) say what each value means:
/// a `oneOf` of `const`s, each with its variant's description, beside the `enum`, as
/// schemars writes it; in each [`SchemaProfile`]'s form (`anyOf` for the strict modes,
/// which take no `oneOf`; the words in the field's description for Gemini, which takes
/// no `const`).
///
/// ```
/// use mcp_tool::{McpEnum, McpTool, SchemaProfile};
/// use serde::Deserialize;
///
/// #[derive(McpEnum, Deserialize, Default)]
/// #[serde(rename_all = "snake_case")]
/// enum Mode {
///     /// Read the object into the reply.
///     #[default]
///     Read,
///     /// Save the object on the server.
///     Download,
/// }
///
/// #[derive(McpTool, Deserialize)]
/// struct GetObject {
///     #[serde(default)]
///     mode: Mode,
/// }
///
/// let mode = &GetObject::input_schema()["properties"]["mode"];
/// assert_eq!(mode["default"], "read");
/// assert_eq!(
///     mode["oneOf"][1],
///     serde_json::json!({"type": "string", "const": "download", "description": "Save the object on the server."})
/// );
/// let gemini = &GetObject::input_schema_for(SchemaProfile::Gemini)["properties"]["mode"];
/// assert_eq!(
///     gemini["description"],
///     "\"read\": Read the object into the reply. \"download\": Save the object on the server."
/// );
/// ```
pub use mcp_tool_derive::McpEnum;

/// The derive's list of the rules it writes, matched against the runtime's
/// (`RuleName`): a rule the derive writes that the runtime lacks, or one the runtime
/// lists that the derive never writes, is a compile error. It stands here, where both
/// crates are built, so that neither waits for the other to compile.
#[allow(dead_code)]
const fn every_rule_is_written(name: mcp_tool_runtime::__private::RuleName) {
    mcp_tool_derive::__runtime_rules!(name, mcp_tool_runtime::__private::RuleName)
}
