//! The runtime of [`mcp-tool`](https://docs.rs/mcp-tool): the description of a tool's
//! arguments that `#[derive(McpTool)]` emits, the schema and the checks built from it,
//! the error results, and the serving of tools. Depend on `mcp-tool`, which re-exports
//! this crate with its derives; the items here are documented there for users.

#![warn(missing_docs)]
// docs.rs builds with `--cfg docsrs` on nightly: each item says the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "agent")]
pub mod agent;
mod annotations;
pub mod ask;
mod calendar;
mod caller;
mod check;
mod context;
mod describe;
mod fast;
mod id;
mod number;
mod pattern;
mod result;
mod rules;
mod serve;
mod task_support;
mod text;

#[cfg(feature = "ask")]
pub use ask::StateKey;
pub use ask::{Ask, Unanswered};
pub use caller::{Caller, ScopeTable, ToolScopes, Unverified};
pub use context::{Context, ContextError};
pub use describe::output;
pub use describe::profile::{SchemaProfile, UnknownProfile};
pub use describe::types::argument::Argument;
pub use describe::{Annotations, MAX_RECURSION, McpEnum, McpTool, Tool};
pub use result::{
    CallToolResult, Content, ErrorCategory, REPAIRS_KEY, Repair, TOOL_FAILURE_KEY, ToolError,
    Violation,
};
pub use rules::Invalid;
pub use serve::handler::{CallParts, FromCall, Handler};
pub use serve::progress::Progress;
#[cfg(feature = "rmcp")]
pub use serve::rmcp;
#[cfg(feature = "rmcp")]
pub use serve::tasks;
#[cfg(feature = "rmcp")]
pub use serve::tasks::Cancelled;
pub use serve::toolbox::{CallError, Toolbox};
#[cfg(feature = "http")]
pub use serve::transport::http;
#[cfg(feature = "rmcp")]
pub use serve::transport::stdio;
pub use task_support::{Execution, TaskSupport};

/// The [`Argument`] trait, the marker traits that say which rules a type takes (the
/// compiler names them when a rule does not fit a field), and how many problems one
/// answer lists.
///
/// `Argument` is implemented by the derives and by this crate (for std's types and,
/// behind features, chrono's, jiff's, uuid's and url's), not by hand: a type of your
/// own becomes an argument by `#[derive(Argument)]` on it, on a
/// newtype with rules of its own (`#[serde(try_from = "String")]` for a type read from a
/// string), or by `#[mcp_tool(schemars)]` on the field for a type that only has a
/// schemars schema.
pub mod argument {
    pub use crate::check::MAX_LISTED;
    pub use crate::describe::types::argument::{Argument, Flatten};
    pub use crate::describe::types::fit::{
        DateRule, ItemsRule, LengthRule, NumberRule, RulesFor, TextRule,
    };
    pub use crate::describe::types::maps::MapKey;
    pub use crate::rules::UniqueRule;
}

/// Re-exported so that a [`Context`] can be built from `jiff` dates and zones.
#[cfg(any(feature = "dates", feature = "jiff"))]
pub use jiff;

/// What the derives expand to. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::check::Checker;
    pub use crate::check::across::{Literal, Requirement};
    pub use crate::describe::asking::{
        AskField, Askable, AskableItem, Asking, Confirm, Piece, Unconfirmed,
    };
    pub use crate::describe::spec::{FieldStep, Judge, no_field};
    pub use crate::describe::types::argument::{Argument, Flatten};
    pub use crate::describe::types::fit::{
        DateRule, ItemsRule, LengthRule, NumberRule, RulesFor, TextRule,
    };
    pub use crate::describe::types::maps::MapKey;
    pub use crate::describe::{
        Annotations, ArgType, BySchemars, Compared, EnumSpec, Extend, Field, FieldRead, Like,
        Newtype, NoOwnReading, OwnReading, Probe, Repr, Reshape, Shape, SpecCache, Takes, ToolSpec,
        UnionCache, UnionSpec, Variant, Walk,
    };
    pub use crate::fast::{FastPath, only_off};
    pub use crate::number::Num;
    pub use crate::pattern::{CompiledPattern, Pattern, Piece as PatternPiece};
    pub use crate::task_support::TaskSupport;
    // Every rule's data, by the name the derive writes: a new rule needs no line here.
    pub use crate::rules::*;
    pub use schemars;
    pub use serde;
    pub use serde_json::{Map, Value};

    /// An `#[schemars(example = ...)]` value as JSON; `null` for one that does not
    /// serialize (a map with non-string keys).
    pub fn example<T: serde::Serialize + ?Sized>(value: &T) -> Value {
        serde_json::to_value(value).unwrap_or(Value::Null)
    }

    /// Reads `value` as `T`'s own `Deserialize` does: a `#[mcp_tool(lenient)]` field's
    /// reading.
    pub fn reads_as<T: serde::de::DeserializeOwned>(value: &Value) -> Result<(), String> {
        T::deserialize(value).map(drop).map_err(|e| e.to_string())
    }

    /// The `propertyNames` of a map keyed by an enum of these `values`.
    pub fn enum_names(values: &[&str]) -> Map<String, Value> {
        let mut names = Map::new();
        names.insert(
            "enum".into(),
            values.iter().map(|v| Value::from(*v)).collect(),
        );
        names
    }

    /// What a map keyed by an enum of these `values` says of a `name` it does not take.
    pub fn refuse_enum_name(values: &[&str], name: &str) -> Option<String> {
        (!values.contains(&name)).then(|| {
            let listed: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
            format!("one of {}", listed.join(", "))
        })
    }

    /// Whether `value` converts into `T` (a newtype read through
    /// `#[serde(try_from = "...")]`): the conversion's refusal, in its own words.
    pub fn converts<T: serde::de::DeserializeOwned>(value: &Value) -> Result<(), String> {
        T::deserialize(value).map(drop).map_err(|e| e.to_string())
    }

    /// The value as `T`, for a custom rule's function: a string lent where it lies in
    /// the arguments, any other value read into one of its own; `None` for a value `T`
    /// cannot read, which the type check reported already.
    pub fn read_lent<T: serde::de::DeserializeOwned + 'static>(
        value: &Value,
    ) -> Option<Lent<'_, T>> {
        if let Value::String(s) = value
            && let Some(s) = (s as &dyn std::any::Any).downcast_ref::<T>()
        {
            return Some(Lent::Lent(s));
        }
        T::deserialize(value).ok().map(Lent::Read)
    }

    /// A value handed to a custom rule's function: see [`read_lent`].
    pub enum Lent<'v, T> {
        /// As it lies in the arguments.
        Lent(&'v T),
        /// Read into a value of its own.
        Read(T),
    }

    impl<T> Lent<'_, T> {
        /// The value.
        pub fn get(&self) -> &T {
            match self {
                Lent::Lent(value) => value,
                Lent::Read(value) => value,
            }
        }
    }

    /// The first value a shared `enum` whitelist repeats, if any: the schema would
    /// advertise it twice, which JSON Schema forbids. Called in a `const` by the derive,
    /// which fails the build with [`repeat_message`].
    pub const fn first_repeat(values: &[&'static str]) -> Option<&'static str> {
        let mut i = 0;
        while i < values.len() {
            let mut j = i + 1;
            while j < values.len() {
                if str_eq(values[i], values[j]) {
                    return Some(values[i]);
                }
                j += 1;
            }
            i += 1;
        }
        None
    }

    /// What the build says of a whitelist `name` that repeats `value`.
    pub const fn repeat_message(name: &str, value: &str) -> ConstText {
        let mut message = ConstText::new();
        message.push("the `enum` whitelist `");
        message.push(name);
        message.push("` repeats \"");
        message.push(value);
        message.push("\": each value must be listed once");
        message
    }

    /// What the build says of `when(field = value)` where the field's type (which
    /// `takes` these values) never has `value`; `None` where it may. Called in a `const`
    /// by the derive, spanned at the value.
    pub const fn refuse_when(
        takes: crate::describe::Takes,
        field: &str,
        value: Literal,
    ) -> Option<ConstText> {
        use crate::describe::Takes;
        let mut message = ConstText::new();
        message.push("`");
        message.push(field);
        match (takes, value) {
            (Takes::Text(None), Literal::Str(_)) | (Takes::Bool, Literal::Bool(_)) => return None,
            (Takes::Text(Some(values)), Literal::Str(s)) => {
                let mut i = 0;
                while i < values.len() {
                    if str_eq(values[i], s) {
                        return None;
                    }
                    i += 1;
                }
                message.push("` is never \"");
                message.push(s);
                message.push("\": its values are ");
                let mut i = 0;
                while i < values.len() {
                    if i > 0 {
                        message.push(", ");
                    }
                    message.push("\"");
                    message.push(values[i]);
                    message.push("\"");
                    i += 1;
                }
            }
            (Takes::Integer(min, max), Literal::Int(n)) => {
                if min <= n && n <= max {
                    return None;
                }
                message.push("` is never that number: it is out of the range of its type");
            }
            (Takes::Text(_), _) => {
                message.push("` is a string: compare it with a string, such as \"value\"");
            }
            (Takes::Integer(..), _) => {
                message.push("` is an integer: compare it with an integer, such as 1");
            }
            (Takes::Bool, _) => {
                message.push("` is true or false: compare it with `true` or `false`");
            }
        }
        Some(message)
    }

    const fn str_eq(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// A message written at compile time, cut short at a character boundary.
    pub struct ConstText {
        bytes: [u8; 256],
        len: usize,
    }

    impl ConstText {
        const fn new() -> Self {
            ConstText {
                bytes: [0; 256],
                len: 0,
            }
        }

        /// Appends `s`, whole characters only, as far as there is room.
        const fn push(&mut self, s: &str) {
            let s = s.as_bytes();
            let mut i = 0;
            while i < s.len() {
                let width = match s[i] {
                    b if b < 0x80 => 1,
                    b if b >= 0xF0 => 4,
                    b if b >= 0xE0 => 3,
                    _ => 2,
                };
                if self.len + width > self.bytes.len() {
                    return;
                }
                let mut k = 0;
                while k < width {
                    self.bytes[self.len + k] = s[i + k];
                    k += 1;
                }
                self.len += width;
                i += width;
            }
        }

        /// The message.
        pub const fn as_str(&self) -> &str {
            match core::str::from_utf8(self.bytes.split_at(self.len).0) {
                Ok(s) => s,
                Err(_) => "the `enum` whitelist repeats a value",
            }
        }
    }

    /// The `schemars` schema of a derived struct: the same object as its input schema.
    pub fn json_schema(spec: &'static ToolSpec) -> schemars::Schema {
        to_schemars(spec.field_schema(Rules::NONE, &mut Walk::new()))
    }

    /// The `schemars` schema of a derived newtype.
    pub fn newtype_json_schema(spec: &'static Newtype) -> schemars::Schema {
        to_schemars(spec.schema(Rules::NONE, &mut Walk::new()))
    }

    /// The `schemars` schema of a derived enum with data.
    pub fn union_json_schema(spec: &'static UnionSpec) -> schemars::Schema {
        to_schemars(spec.field_schema(Rules::NONE, &mut Walk::new()))
    }

    /// The `schemars` schema of a derived enum.
    pub fn enum_json_schema(spec: &'static EnumSpec) -> schemars::Schema {
        to_schemars(spec.schema(Rules::NONE))
    }

    /// A `schemars` schema as a map (an object; a boolean schema as its object form).
    pub fn from_schemars(schema: schemars::Schema) -> Map<String, Value> {
        match schema.to_value() {
            Value::Object(map) => map,
            Value::Bool(false) => {
                let mut map = Map::new();
                map.insert("not".into(), Value::Object(Map::new()));
                map
            }
            _ => Map::new(),
        }
    }

    /// A schema built here, as `schemars`' type.
    pub fn to_schemars(map: Map<String, Value>) -> schemars::Schema {
        schemars::Schema::from(map)
    }
}
