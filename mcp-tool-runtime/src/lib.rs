//! One annotated struct gives an MCP tool's advertised `inputSchema` and the runtime
//! checks of exactly that schema, plus the rules a schema cannot express; every failure
//! becomes a tool execution error (`isError: true`) that tells the model which field,
//! what was expected, what came and what to do.
//!
//! ```
//! use mcp_tool_runtime::{Context, McpTool};
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
//! let err = BookFlight::from_arguments_in(&args, &today).unwrap_err();
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
//! See the [`McpTool`](macro@McpTool) derive for the attribute language.

#![warn(missing_docs)]

pub mod agent;
mod argument;
mod check;
mod context;
mod date;
mod echo;
mod error;
mod formats;
mod number;
#[cfg(feature = "rmcp")]
pub mod rmcp;
mod rules;
mod spec;
mod suggest;
mod toolbox;
mod walk;

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use argument::{Argument, ItemsRule, LengthRule, NumberRule, TextRule};
pub use check::{Checker, MAX_LISTED, Report};
pub use context::{Context, ContextError};
pub use error::{CallToolResult, Content, ErrorCategory, ToolError, Violation};
pub use rules::Invalid;
pub use spec::{Annotations, Tool};
pub use toolbox::{CallError, Handler, Toolbox};

/// Re-exported so that a [`Context`] can be built from `jiff` dates and zones.
pub use jiff;

#[doc = include_str!("../derive.md")]
pub use mcp_tool_derive::McpTool;

/// Derives [`Argument`] for an enum of unit variants, so that it can be the type of a
/// tool's field: its serde names become the schema's `enum`, and a value outside them
/// is a violation that lists them and suggests the nearest.
///
/// ```
/// use mcp_tool_runtime::{McpEnum, McpTool};
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
/// assert_eq!(<Cabin as mcp_tool_runtime::McpEnum>::VALUES.len(), 4);
/// ```
pub use mcp_tool_derive::McpEnum;

/// A tool whose arguments are this struct. Implemented by `#[derive(McpTool)]`.
pub trait McpTool: Argument + DeserializeOwned {
    /// The tool's name in `tools/list` and `tools/call`.
    const NAME: &'static str;

    /// The generated description of this struct.
    #[doc(hidden)]
    fn spec() -> &'static spec::ToolSpec;

    /// The tool's `inputSchema`: built on first call, then the same value.
    fn input_schema() -> &'static Value {
        Self::spec().input_schema()
    }

    /// The tool as `tools/list` lists it: name, title, description, `inputSchema`,
    /// annotations. Built on first call, then the same value.
    fn tool() -> &'static Tool {
        Self::spec().tool()
    }

    /// Checks `arguments` (type, presence, unknown names, every rule) and reads them.
    /// Dates are judged by the system clock in the system's zone; see
    /// [`McpTool::from_arguments_in`].
    ///
    /// `arguments` absent (`null`) counts as `{}`; any other non-object is a malformed
    /// request ([`ToolError::is_malformed_request`]). All problems are reported at once,
    /// in declaration order.
    fn from_arguments(arguments: &Value) -> Result<Self, ToolError> {
        Self::from_arguments_in(arguments, &Context::now())
    }

    /// [`McpTool::from_arguments`] with the date rules judged in `context`.
    fn from_arguments_in(arguments: &Value, context: &Context) -> Result<Self, ToolError> {
        Self::spec().from_arguments(arguments, context)
    }
}

/// An enum usable as a field's type. Implemented by `#[derive(McpEnum)]`.
pub trait McpEnum: Argument {
    /// The values on the wire, in declaration order: what the schema's `enum` lists.
    const VALUES: &'static [&'static str];
}

/// What the derives expand to. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::argument::{Argument, ItemsRule, LengthRule, NumberRule, TextRule};
    pub use crate::check::Checker;
    pub use crate::echo::Limits;
    pub use crate::number::Num;
    pub use crate::rules::{Invalid, Pattern, Rule, Rules};
    pub use crate::spec::{Annotations, ArgType, EnumSpec, Field, SpecCache, ToolSpec};
    pub use schemars;
    pub use serde_json::{Map, Value};

    /// Runs a custom rule: reads the value as `T` and passes it to the author's
    /// function, which may take any borrowed form of `T` (`&str` for a `String`). A
    /// value `T` cannot read was reported by the type check already.
    pub fn custom<T, U, E>(value: &Value, check: fn(&U) -> Result<(), E>) -> Result<(), Invalid>
    where
        T: serde::de::DeserializeOwned + std::borrow::Borrow<U>,
        U: ?Sized,
        E: Into<Invalid>,
    {
        match T::deserialize(value) {
            Ok(typed) => check(typed.borrow()).map_err(Into::into),
            Err(_) => Ok(()),
        }
    }

    /// Asserts at compile time that a rule applies to `T`; the derive spans the call
    /// at the rule, so a mismatch points there.
    pub const fn text_rule<T: TextRule + ?Sized>() {}
    /// See [`text_rule`].
    pub const fn number_rule<T: NumberRule + ?Sized>() {}
    /// See [`text_rule`].
    pub const fn length_rule<T: LengthRule + ?Sized>() {}
    /// See [`text_rule`].
    pub const fn items_rule<T: ItemsRule + ?Sized>() {}

    /// The `schemars` schema of a derived struct: the same object as its input schema.
    pub fn json_schema(spec: &'static ToolSpec) -> schemars::Schema {
        to_schemars(spec.field_schema(Rules::NONE))
    }

    /// The `schemars` schema of a derived enum.
    pub fn enum_json_schema(spec: &'static EnumSpec) -> schemars::Schema {
        to_schemars(spec.schema(Rules::NONE))
    }

    fn to_schemars(map: Map<String, Value>) -> schemars::Schema {
        schemars::Schema::from(map)
    }
}
