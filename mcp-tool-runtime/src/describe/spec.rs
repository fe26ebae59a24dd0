//! What the derive emits for a struct, and what is built from it once: the
//! [`ToolSpec`] and its [`Field`]s (each with its type's functions, [`ArgType`], and
//! the changes to its schema, [`Reshape`]), a union at the root ([`RootUnion`]), the
//! step of the walk of valid arguments the derive writes ([`FieldStep`], judged by a
//! [`Judge`]), the [`Plan`] built on first use, and the [`Tool`] that `tools/list`
//! lists. Data only, at the bottom of the folder: what builds and reads it stands above
//! (the constructors beside the functions they point to: `ArgType::of` in
//! `types/argument.rs`, `ArgType::schemars` in `types/schemars_type.rs`,
//! `Reshape::new` in `schema.rs`).

use std::sync::OnceLock;

use serde::Serialize;
use serde_json::{Map, Value};

use super::asking;
use super::extend::Extend;
use super::walk::Walk;
use crate::annotations::Annotations;
use crate::check::{Checker, SpecId};
use crate::context::Context;
use crate::rules::Rules;

/// A derived struct: its tool metadata and its fields, in declaration order.
#[derive(Debug)]
pub struct ToolSpec {
    /// The tool's name (`#[mcp_tool(name)]`, else the snake_case type name).
    pub name: &'static str,
    /// A human-readable title.
    pub title: Option<&'static str>,
    /// The doc comment, or `#[mcp_tool(description)]`.
    pub description: Option<&'static str>,
    /// Hints about the tool's behaviour.
    pub annotations: Annotations,
    /// The fields serde reads, with their wire names.
    pub fields: &'static [Field],
    /// `#[mcp_tool(allow_unknown_fields)]`: unknown argument names are ignored, not
    /// reported, and the schema leaves out `additionalProperties: false`.
    pub allow_unknown_fields: bool,
    /// `#[mcp_tool(require(...))]`: the rules across fields, in declaration order.
    pub across: &'static [crate::check::across::Requirement],
    /// For an enum with data: its forms (and no `fields`).
    pub union: Option<&'static dyn RootUnion>,
    /// What the tool asks of its user: a confirmation, fields (`McpTool` only).
    pub asking: Option<&'static asking::Asking>,
    /// `#[schemars(extend(...))]` on the struct: keywords added to its schema, and
    /// enforced.
    pub extend: Option<&'static Extend>,
    /// `#[mcp_tool(scopes(...))]`: the OAuth scopes a caller needs, every one of them
    /// (empty: any caller the server lets in).
    pub scopes: &'static [&'static str],
    /// `#[mcp_tool(task_support = "...")]`: whether a call may be answered with a task.
    pub task_support: crate::task_support::TaskSupport,
    /// The derive-written step of the walk of valid arguments (`valid_walk.rs`): the
    /// index in `fields` of the field named `key` when `value` passes it with nothing
    /// to record; `None` for a key of no field's, or a doubt.
    pub walk: FieldStep,
    /// Built once per process.
    pub cache: SpecCache,
}

/// A union at the root of a tool's arguments, as the tool's description reaches it: a
/// trait object, made only where the derive writes a union tool, so that a server whose
/// tools have no union builds none of a union's code.
#[doc(hidden)]
pub trait RootUnion: Sync + std::fmt::Debug {
    /// The union's identity, for recursion.
    fn id(&'static self) -> SpecId;
    /// See [`UnionSpec::check_root`](super::UnionSpec::check_root).
    fn check_root(
        &'static self,
        value: &Value,
        names: &[&'static str],
        cx: &mut Checker<'_>,
    ) -> bool;
    /// See [`UnionSpec::root_names`](super::UnionSpec::root_names).
    fn root_names(&'static self, root: &Value) -> Box<[&'static str]>;
    /// See [`UnionSpec::root_schema`](super::UnionSpec::root_schema).
    fn root_schema(&'static self, walk: &mut Walk) -> Map<String, Value>;
}

/// What the walk of valid arguments judges by. Only this crate's code makes one.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct Judge<'a> {
    /// The clock of the date rules; past the first key of the arguments that fails, one
    /// that knows no date (`Context::UNDATED`), so that a date is left to the full check.
    pub(crate) context: &'a Context,
    /// `null` for an optional property means "left out" (OpenAI's profile): a value
    /// to take out before serde reads the arguments, which the full check records.
    pub(crate) nulls_are_absent: bool,
}

/// A struct's step of the walk: for a key of its arguments and the value sent under
/// it, the index of the field named `key` when the value passes it with nothing to
/// record. The derive writes one for each struct, reading the fields from the static
/// the `ToolSpec` points to: the fields' rules are then constants where the step is
/// compiled, and each rule's check is called directly.
#[doc(hidden)]
pub type FieldStep = fn(key: &str, value: &Value, judge: &Judge<'_>) -> Option<usize>;

/// The step of a struct the walk does not take, or with no fields: every key is a doubt.
#[doc(hidden)]
pub fn no_field(_: &str, _: &Value, _: &Judge<'_>) -> Option<usize> {
    None
}

/// What a [`ToolSpec`] is, built once, on first use: its plan (schema, profiles, tool
/// entry, field lookup, recursion).
#[derive(Debug)]
pub struct SpecCache {
    pub(super) plan: OnceLock<Plan>,
}

impl SpecCache {
    /// An empty cache.
    pub const fn new() -> Self {
        SpecCache {
            plan: OnceLock::new(),
        }
    }
}

/// Everything a struct's schema and checks read about it, from one build of its schema
/// (`schema.rs`): no part is computed apart, or on the side of another.
#[derive(Debug)]
pub(crate) struct Plan {
    /// The object schema, portable: the tool's `inputSchema`.
    pub(super) schema: Value,
    /// The schema in each profile but the portable one, in `SchemaProfile::ALL` order.
    pub(super) profiles: [Value; 3],
    /// The tool as `tools/list` lists it.
    pub(super) tool: Tool,
    /// The fields' indices in the order of their names, the order of a JSON map's keys.
    pub(super) by_name: Box<[usize]>,
    /// Each field's schema in a few words, for "is required but was not sent".
    pub(super) summaries: Box<[String]>,
    /// What a field not sent is told to do: "Send a string (Departure airport).", and
    /// the author's hint.
    pub(super) advice: Box<[String]>,
    /// Every name a field takes, flattened structs' included, in declaration order.
    pub(super) names: Box<[&'static str]>,
    /// The names the object lists, when it is an enum's root: every form's properties.
    pub(super) root_names: Box<[&'static str]>,
    /// The struct holds itself, directly or through others: found by the build.
    pub(super) recursive: bool,
    /// Valid arguments may take the fast path of `valid_walk.rs`.
    pub(super) valid_walk: bool,
    /// How many of the struct's own fields are required.
    pub(super) required: usize,
    /// The bits of the required fields (`Checker::field_bit`): the walk takes only
    /// structs whose fields all have one.
    pub(super) required_bits: u64,
}

impl Default for SpecCache {
    fn default() -> Self {
        SpecCache::new()
    }
}

/// One field as the client sees it.
#[derive(Debug)]
pub struct Field {
    /// The name on the wire, after serde's renames.
    pub name: &'static str,
    /// The doc comment, or `#[schemars(description)]`.
    pub description: Option<&'static str>,
    /// `#[schemars(title)]`.
    pub title: Option<&'static str>,
    /// `#[schemars(example = ...)]`, as JSON: the schema's `examples`.
    pub examples: Option<fn() -> Vec<Value>>,
    /// `#[deprecated]`: the schema's `deprecated`.
    pub deprecated: bool,
    /// Must be sent: not an `Option`, no `#[serde(default)]`; or `#[schemars(required)]`.
    pub required: bool,
    /// Never echoed back.
    pub sensitive: bool,
    /// The value serde takes when the field is not sent (`#[serde(default)]`), as
    /// JSON: the schema's `default`.
    pub default: Option<fn() -> Option<Value>>,
    /// The field type's schema and check.
    pub ty: ArgType,
    /// `#[validate(...)]`.
    pub rules: Rules,
    /// `#[serde(flatten)]`: a struct's fields stand in this object (its `name` is not
    /// on the wire), or a map takes the names no field does.
    pub flatten: bool,
    /// `#[validate(like = Type)]`: the rules of a newtype, before the field's own.
    pub like: Like,
    /// `#[schemars(extend(...), transform = ...)]`: changes to the field's schema,
    /// advertised, and enforced by the same schema.
    pub reshape: Option<Reshape>,
    /// `#[serde(alias)]`: former names serde reads too; the schema lists `name` only,
    /// and a value sent under one is read, and the answer says so.
    pub aliases: &'static [&'static str],
    /// `#[serde(deserialize_with)]` (or `#[mcp_tool(lenient)]`, the type's own
    /// `Deserialize`): the function serde reads the value with. A value the checks of
    /// the declared type pass is read by it once they do; a value they refuse is the
    /// function's to take, and its refusal is reported at the field: the one place the
    /// runtime takes more than the schema says, where the author wrote the reading.
    pub reads: Option<crate::check::Convert>,
}

/// The rules a field takes from a newtype (`#[validate(like = Type)]`), joined with its
/// own once, on first use, in a cell of the field's own (a field stands in a constant
/// array, which holds no cell).
#[derive(Debug, Clone, Copy)]
pub struct Like {
    source: Option<Source>,
}

/// Changes to a field's schema from `#[schemars(extend(...))]` and
/// `#[schemars(transform = ...)]`: what they make of the field's schema is advertised,
/// and a value that passes the field's own checks is judged against it too (the
/// interpreter of `#[mcp_tool(schemars)]` fields), so that a keyword they add is
/// enforced. The schema judged is made once, in a cell of the field's own.
#[derive(Debug, Clone, Copy)]
pub struct Reshape {
    pub(super) apply: fn(&mut Map<String, Value>),
    pub(super) judged: &'static OnceLock<Value>,
    /// The schema judged, built on first use ([`Field::reshaped`]), its judge (the
    /// interpreter of schemars-typed fields) and the check that it asks nothing the
    /// judge cannot enforce: reached through these, which only a reshaped field holds,
    /// so that a server with none builds none of them.
    pub(super) schema: fn(&Field, &Reshape) -> &'static Value,
    pub(super) judge: fn(&Value, &Value, &mut crate::check::Checker<'_>),
    pub(super) vet: fn(&Map<String, Value>, &str),
}

impl Reshape {
    /// Stops the server if the field `name`'s reshaped `schema` says what the judge
    /// cannot enforce (see `types/schemars_type.rs`, `enforceable`).
    pub(crate) fn vet(&self, schema: &Map<String, Value>, name: &str) {
        (self.vet)(schema, name);
    }

    /// The schema a value of `field` (whose reshape this is) is judged against.
    pub(crate) fn schema_of(&self, field: &Field) -> &'static Value {
        (self.schema)(field, self)
    }

    /// Judges `value` of `field` against [`Reshape::schema_of`].
    pub(crate) fn judge(&self, field: &Field, value: &Value, cx: &mut crate::check::Checker<'_>) {
        (self.judge)(self.schema_of(field), value, cx);
    }
}

/// Where a field's shared rules come from, and where they are joined with its own.
type Source = (fn() -> Rules, &'static OnceLock<Rules>);

impl Like {
    /// No rules of another type.
    pub const NONE: Like = Like { source: None };

    /// The rules `source` gives (a newtype's), before the field's own, joined in
    /// `joined`.
    pub const fn of(source: fn() -> Rules, joined: &'static OnceLock<Rules>) -> Like {
        Like {
            source: Some((source, joined)),
        }
    }
}

/// The [`Argument`](crate::Argument) functions of a field's type: made by `ArgType::of`
/// (`types/argument.rs`) or `ArgType::schemars` (`types/schemars_type.rs`).
#[derive(Debug, Clone, Copy)]
pub struct ArgType {
    pub(super) schema: fn(Rules, &mut Walk) -> Map<String, Value>,
    pub(super) check: fn(&Value, Rules, &mut Checker<'_>) -> bool,
    /// An `Option`: `null` is its `None`.
    pub(super) optional: bool,
    /// The description of a derived struct, whose fields can stand beside others (a
    /// union's tag, a flattening struct's fields).
    pub(crate) object: fn() -> Option<&'static ToolSpec>,
}

/// A tool as `tools/list` lists it.
///
/// ```
/// use mcp_tool::McpTool;
/// use serde::Deserialize;
///
/// /// Look up the weather.
/// #[derive(McpTool, Deserialize)]
/// #[mcp_tool(read_only)]
/// struct Weather {
///     /// City name.
///     city: String,
/// }
///
/// let tool = serde_json::to_value(Weather::tool()).unwrap();
/// assert_eq!(tool["name"], "weather");
/// assert_eq!(tool["description"], "Look up the weather.");
/// assert_eq!(tool["inputSchema"]["properties"]["city"]["type"], "string");
/// assert_eq!(tool["annotations"]["readOnlyHint"], true);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// The name `tools/call` uses.
    pub name: String,
    /// A human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments' JSON Schema.
    pub input_schema: Value,
    /// The JSON Schema of `structuredContent` on success, when the handler's output is
    /// an object. [`Toolbox`](crate::Toolbox) fills it in from the handler's type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints.
    #[serde(skip_serializing_if = "Annotations::is_empty")]
    pub annotations: Annotations,
    /// How the tool runs: `{"taskSupport": ...}` for a tool that supports tasks
    /// (absent: every call is answered within its request).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution: Option<crate::task_support::Execution>,
}

impl Field {
    /// The author's hint for this field: the first its rules give.
    pub(crate) fn hint(&self) -> Option<&'static str> {
        self.rules().own.iter().find_map(|r| r.hint)
    }

    /// The field's rules: a newtype's (`like`), then its own, exactly as if all were
    /// written on the field. Inlined: every check of a field reads them, and nearly every
    /// field has no newtype's.
    #[inline]
    pub(crate) fn rules(&self) -> Rules {
        match self.like.source {
            None => self.rules,
            Some((source, joined)) => *joined.get_or_init(|| self.joined(source())),
        }
    }

    /// A newtype's rules `shared`, then the field's own: made once per field for the life
    /// of the process, as static as the field's own.
    #[cold]
    fn joined(&self, shared: Rules) -> Rules {
        let join =
            |a: &[crate::rules::Rule], b: &[crate::rules::Rule]| -> &'static [crate::rules::Rule] {
                Box::leak([a, b].concat().into_boxed_slice())
            };
        Rules {
            own: join(shared.own, self.rules.own),
            items: join(shared.items, self.rules.items),
        }
    }
}

impl ToolSpec {
    /// This struct's identity for the checker: the address of its description.
    pub(crate) fn id(&'static self) -> SpecId {
        std::ptr::from_ref(self) as SpecId
    }

    /// Whether this struct holds itself, directly or through others.
    pub(crate) fn is_recursive(&'static self) -> bool {
        self.plan().recursive
    }
}

/// Whether `serde_json::Map` iterates in key order: it does unless some crate in the
/// build turns on serde_json's `preserve_order`, which keeps insertion order instead.
/// Asked once per process.
pub(super) fn maps_are_sorted() -> bool {
    static SORTED: OnceLock<bool> = OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut probe = Map::new();
        probe.insert("b".into(), Value::Null);
        probe.insert("a".into(), Value::Null);
        probe.keys().next().map(String::as_str) == Some("a")
    })
}
