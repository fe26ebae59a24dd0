//! What the derive generates is data: one [`ToolSpec`] per struct and one
//! [`EnumSpec`] per enum. The functions here turn that data into the schema, the checks
//! and the error results, so that both come from one description of each field.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::McpTool;
use crate::argument::Argument;
use crate::check::{Checker, Report, SpecId};
use crate::context::Context;
use crate::profile::SchemaProfile;
use crate::result::echo::{self, Limits};
use crate::result::{ToolError, Violation};
use crate::rules::{self, Rules};
use crate::text::suggest;

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
    /// Built once per process.
    pub cache: SpecCache,
}

/// The schema and tool description of a [`ToolSpec`], each built on first use.
#[derive(Debug)]
pub struct SpecCache {
    schema: OnceLock<Value>,
    tool: OnceLock<Tool>,
    /// The fields' indices in the order of their names, the order of a JSON map's keys.
    by_name: OnceLock<Box<[usize]>>,
    /// Each field's schema in a few words, for "is required but was not sent".
    summaries: OnceLock<Box<[String]>>,
    /// The struct holds itself, directly or through others: set while the schema is
    /// built.
    recursive: AtomicBool,
    /// The schema in each profile but the portable one, in `SchemaProfile::ALL` order.
    profiles: [OnceLock<Value>; 3],
}

impl SpecCache {
    /// An empty cache.
    pub const fn new() -> Self {
        SpecCache {
            schema: OnceLock::new(),
            tool: OnceLock::new(),
            by_name: OnceLock::new(),
            summaries: OnceLock::new(),
            recursive: AtomicBool::new(false),
            profiles: [OnceLock::new(), OnceLock::new(), OnceLock::new()],
        }
    }
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
    /// The doc comment.
    pub description: Option<&'static str>,
    /// Must be sent: not an `Option`, no `#[serde(default)]`.
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
}

/// The [`Argument`] functions of a field's type.
#[derive(Debug, Clone, Copy)]
pub struct ArgType {
    schema: fn(Rules) -> Map<String, Value>,
    check: fn(&Value, Rules, &mut Checker<'_>) -> bool,
    echo: fn(&Value, Limits) -> Value,
}

impl ArgType {
    /// The functions of `T`.
    pub const fn of<T: Argument>() -> Self {
        ArgType {
            schema: T::schema,
            check: T::check,
            echo: T::echo,
        }
    }
}

/// MCP tool annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
/// `openWorldHint`), set with `#[mcp_tool(read_only, destructive, idempotent,
/// open_world)]`. Unset hints are left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// The tool does not change its environment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy or overwrite data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool reaches outside the server (the web, other systems).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl Annotations {
    /// No hints.
    pub const NONE: Annotations = Annotations {
        read_only_hint: None,
        destructive_hint: None,
        idempotent_hint: None,
        open_world_hint: None,
    };

    /// True when no hint is set.
    pub fn is_empty(&self) -> bool {
        *self == Annotations::NONE
    }
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
}

/// How many times one struct may hold itself, counting itself: a recursive argument
/// type (a filter of filters) is inlined to this many levels, and the runtime accepts
/// exactly those levels. Portable schemas have no `$ref` to say "and so on".
pub const MAX_RECURSION: usize = 4;

thread_local! {
    /// The structs whose schema is being built on this thread, outermost first.
    static BUILDING: RefCell<Vec<&'static ToolSpec>> = const { RefCell::new(Vec::new()) };
    /// Set when a struct was asked for beyond [`MAX_RECURSION`]: the container that
    /// asked (a field, a list, a map) then allows no such value.
    static CUT: Cell<bool> = const { Cell::new(false) };
}

/// Runs `build` and says whether it reached past [`MAX_RECURSION`] (see `CUT`).
pub(crate) fn reaches_cut<R>(build: impl FnOnce() -> R) -> (R, bool) {
    let outer = CUT.with(|c| c.replace(false));
    let out = build();
    let cut = CUT.with(|c| c.replace(outer));
    (out, cut)
}

/// Structs of up to this many fields find their values in one walk of the map (the
/// walk of `from_arguments` keeps the fields sent as the bits of a `u64`); bigger ones
/// look each one up.
pub(crate) const FIELDS_BY_NAME: usize = u64::BITS as usize;

/// Whether `serde_json::Map` iterates in key order: it does unless some crate in the
/// build turns on serde_json's `preserve_order`, which keeps insertion order instead.
/// Asked once per process.
fn maps_are_sorted() -> bool {
    static SORTED: OnceLock<bool> = OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut probe = Map::new();
        probe.insert("b".into(), Value::Null);
        probe.insert("a".into(), Value::Null);
        probe.keys().next().map(String::as_str) == Some("a")
    })
}

/// A struct's fields found by the keys of a map, which come in name order: the names
/// are walked in step with the keys, so a whole map costs one pass over both.
pub(crate) struct Names {
    spec: &'static ToolSpec,
    /// The fields' indices in name order.
    by_name: &'static [usize],
    /// Where the next key's field is looked for in `by_name`.
    cursor: usize,
}

impl Names {
    /// The index of the field named `key`; keys must come in increasing order.
    pub(crate) fn field(&mut self, key: &str) -> Option<usize> {
        let fields = self.spec.fields;
        // Most calls send every field, or most: the next name is the likeliest.
        if let Some(&i) = self.by_name.get(self.cursor)
            && fields[i].name == key
        {
            self.cursor += 1;
            return Some(i);
        }
        while let Some(&i) = self.by_name.get(self.cursor) {
            match fields[i].name.cmp(key) {
                std::cmp::Ordering::Less => self.cursor += 1,
                std::cmp::Ordering::Equal => {
                    self.cursor += 1;
                    return Some(i);
                }
                std::cmp::Ordering::Greater => return None,
            }
        }
        None
    }
}

impl ToolSpec {
    /// The object schema of this struct: `type`, `properties`, `required`,
    /// `additionalProperties`. Built once.
    pub fn object_schema(&'static self) -> &'static Value {
        self.cache
            .schema
            .get_or_init(|| Value::Object(self.build_schema()))
    }

    /// The object schema of this struct where it stands inside the structs being built:
    /// a struct that holds itself is inlined again, level by level, and past
    /// [`MAX_RECURSION`] levels it is cut (`None`).
    fn nested_schema(&'static self) -> Option<Map<String, Value>> {
        let levels = BUILDING.with(|b| {
            let building = b.borrow();
            let first = building.iter().position(|s| std::ptr::eq(*s, self));
            // Every struct from its first appearance on holds itself, by way of the others.
            if let Some(first) = first {
                for spec in &building[first..] {
                    spec.cache.recursive.store(true, Ordering::Relaxed);
                }
            }
            let levels = building.iter().filter(|s| std::ptr::eq(**s, self)).count();
            (levels, building.is_empty())
        });
        match levels {
            // Standing alone: built once. Inside other structs, built where it stands:
            // what lies below may count levels of the structs above.
            (0, true) => match self.object_schema() {
                Value::Object(map) => Some(map.clone()),
                _ => None,
            },
            (n, _) if n < MAX_RECURSION => Some(self.build_schema()),
            _ => {
                CUT.with(|c| c.set(true));
                None
            }
        }
    }

    fn build_schema(&'static self) -> Map<String, Value> {
        BUILDING.with(|b| b.borrow_mut().push(self));
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        let mut properties = Map::new();
        let mut required = Vec::new();
        for field in self.fields {
            // A field whose value would nest past the limit is left out: with
            // `additionalProperties: false`, sending it is invalid, as the runtime says.
            let (property, cut) = reaches_cut(|| field.schema());
            if !cut {
                properties.insert(field.name.into(), Value::Object(property));
            }
            if field.required {
                required.push(Value::from(field.name));
            }
        }
        schema.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        if !self.allow_unknown_fields {
            schema.insert("additionalProperties".into(), false.into());
        }
        BUILDING.with(|b| b.borrow_mut().pop());
        schema
    }

    /// This struct's identity for the checker: the address of its description.
    fn id(&'static self) -> SpecId {
        std::ptr::from_ref(self) as SpecId
    }

    /// Whether this struct holds itself, directly or through others.
    pub(crate) fn is_recursive(&'static self) -> bool {
        // Building the schema finds out.
        self.object_schema();
        self.cache.recursive.load(Ordering::Relaxed)
    }

    /// The tool's `inputSchema`. Built once; later calls return the same value.
    pub fn input_schema(&'static self) -> &'static Value {
        self.object_schema()
    }

    /// The tool's `inputSchema` in `profile`'s form. Built once per profile.
    pub fn input_schema_for(&'static self, profile: SchemaProfile) -> &'static Value {
        match profile.index().checked_sub(1) {
            None => self.object_schema(),
            Some(i) => self.cache.profiles[i].get_or_init(|| profile.adapt(self.object_schema())),
        }
    }

    /// The tool as `tools/list` lists it. Built once.
    pub fn tool(&'static self) -> &'static Tool {
        self.cache.tool.get_or_init(|| Tool {
            name: self.name.into(),
            title: self.title.map(Into::into),
            description: self.description.map(Into::into),
            input_schema: self.input_schema().clone(),
            output_schema: None,
            annotations: self.annotations,
        })
    }

    /// The schema of this struct as a field's type: the object schema with the
    /// struct's doc comment as description, and the notes of custom `rules`.
    pub fn field_schema(&'static self, rules: Rules) -> Map<String, Value> {
        let Some(mut schema) = self.nested_schema() else {
            return Map::new();
        };
        if let Some(description) = self.description {
            schema.insert("description".into(), description.into());
        }
        rules::apply_schema(rules.own, rules::Kind::Other, &mut schema);
        schema
    }

    fn property(&'static self, name: &str) -> Option<&'static Map<String, Value>> {
        self.object_schema()
            .get("properties")?
            .get(name)?
            .as_object()
    }

    /// Checks this struct as a field's value: its fields, then the field's custom
    /// `rules` if the fields passed. Returns whether `value` was an object.
    pub fn check_field(&'static self, value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        let recursive = self.is_recursive();
        if recursive {
            if cx.levels_of(self.id()) >= MAX_RECURSION {
                self.too_deep(value, cx);
                return value.is_object();
            }
            cx.enter_spec(self.id());
        }
        let before = cx.count();
        let is_object = self.check(value, cx);
        if is_object && cx.count() == before {
            rules::check(rules.own, value, cx);
        }
        if recursive {
            cx.leave_spec();
        }
        is_object
    }

    /// Reports a value that nests this struct past [`MAX_RECURSION`] levels: the schema
    /// inlines that many and no more.
    fn too_deep(&'static self, value: &Value, cx: &mut Checker<'_>) {
        let mut levels = String::new();
        crate::number::push_int(&mut levels, MAX_RECURSION as i128);
        let expectation = crate::text::concat(&[
            "is nested too deep: a ",
            self.name,
            " may hold others to ",
            &levels,
            " levels, counting the outermost",
        ]);
        cx.report(Report {
            rule: Cow::Borrowed("depth"),
            expected: Value::String(crate::text::concat(&[
                "at most ",
                &levels,
                " levels of ",
                self.name,
            ])),
            expectation: Cow::Owned(expectation),
            received: Some(value),
            detail: Some(Cow::Borrowed(
                "Flatten this part, or split the request into several calls.",
            )),
            hint: None,
        });
    }

    /// Checks an arguments object: every field in declaration order, then the names
    /// no field has. Returns whether `value` was an object.
    pub fn check(&'static self, value: &Value, cx: &mut Checker<'_>) -> bool {
        let Value::Object(map) = value else {
            cx.type_mismatch("an object", value);
            return false;
        };
        let mut present = 0;
        let mut slots = [None; FIELDS_BY_NAME];
        let matched = self.match_fields(map, &mut slots);
        for (i, field) in self.fields.iter().enumerate() {
            let value = if matched {
                slots[i]
            } else {
                map.get(field.name)
            };
            match value {
                // What a nullable optional property's `null` means: left out.
                Some(Value::Null) if !field.required && cx.nulls_are_absent() => {
                    present += 1;
                    let mark = cx.enter_field(field.name);
                    cx.absent_null();
                    cx.leave(mark);
                }
                Some(v) => {
                    present += 1;
                    self.check_value(field, v, cx);
                }
                None if field.required => {
                    let mark = cx.enter_field(field.name);
                    self.missing(i, map, cx);
                    cx.leave(mark);
                }
                None => {}
            }
        }
        if !self.allow_unknown_fields && map.len() > present {
            for (key, v) in map {
                if !self.fields.iter().any(|f| f.name == key) {
                    self.unknown(key, v, cx);
                }
            }
        }
        true
    }

    /// Checks the value sent for `field`, at its path.
    pub(crate) fn check_value(&self, field: &Field, value: &Value, cx: &mut Checker<'_>) {
        let mark = cx.enter_field(field.name);
        if field.sensitive {
            cx.sensitive(|cx| (field.ty.check)(value, field.rules, cx));
        } else {
            (field.ty.check)(value, field.rules, cx);
        }
        cx.leave(mark);
    }

    /// Finds each field's value in one walk of the map's keys against the field names,
    /// both sorted: fewer string comparisons than a search per field. False when the
    /// fields cannot be walked by name (see [`ToolSpec::names`]).
    fn match_fields<'v>(
        &'static self,
        map: &'v Map<String, Value>,
        slots: &mut [Option<&'v Value>; FIELDS_BY_NAME],
    ) -> bool {
        let Some(mut names) = self.names() else {
            return false;
        };
        for (key, value) in map {
            if let Some(i) = names.field(key) {
                slots[i] = Some(value);
            }
        }
        true
    }

    /// The fields, to be found by the keys of a map in their order; `None` for structs of
    /// more than [`FIELDS_BY_NAME`] fields, or if maps keep insertion order in this build.
    pub(crate) fn names(&'static self) -> Option<Names> {
        if self.fields.len() > FIELDS_BY_NAME {
            return None;
        }
        Some(Names {
            spec: self,
            by_name: self.by_name()?,
            cursor: 0,
        })
    }

    /// The fields' indices in the order of their names, which is the order of a JSON
    /// map's keys; `None` if maps keep insertion order in this build.
    fn by_name(&'static self) -> Option<&'static [usize]> {
        if !maps_are_sorted() {
            return None;
        }
        let order = self.cache.by_name.get_or_init(|| {
            let mut order: Vec<usize> = (0..self.fields.len()).collect();
            order.sort_by_key(|&i| self.fields[i].name);
            order.into_boxed_slice()
        });
        Some(order)
    }

    /// Reports the field at `index` as required but not sent.
    pub(crate) fn missing(
        &'static self,
        index: usize,
        map: &Map<String, Value>,
        cx: &mut Checker<'_>,
    ) {
        let field = &self.fields[index];
        let summaries = self.cache.summaries.get_or_init(|| {
            self.fields
                .iter()
                .map(|f| {
                    self.property(f.name)
                        .map_or_else(|| "a value".to_owned(), summarize)
                })
                .collect()
        });
        let summary = summaries[index].as_str();
        let mut detail = crate::text::concat(&["Send ", summary, "."]);
        // `departureDate` for `departure_date`: say where the value went.
        // A slip is among the first names sent, not behind thousands of others.
        let sent_as = map.keys().take(64).find(|key| {
            !self.fields.iter().any(|f| f.name == key.as_str())
                && suggest::nearest(key, self.fields.iter().map(|f| f.name)) == Some(field.name)
        });
        if let Some(key) = sent_as {
            detail.push_str(&format!(
                " It seems to have been sent as {key:?}: rename it."
            ));
        }
        cx.report(Report {
            rule: Cow::Borrowed("required"),
            expectation: Cow::Borrowed("is required but was not sent"),
            expected: Value::String(summary.to_owned()),
            received: None,
            detail: Some(Cow::Owned(detail)),
            hint: None,
        });
    }

    pub(crate) fn unknown(&'static self, key: &str, value: &Value, cx: &mut Checker<'_>) {
        if cx.is_full() {
            // Counted only: no suggestion to compute for the 100 000th unknown name.
            return cx.report(Report {
                rule: Cow::Borrowed("unknown"),
                expectation: Cow::Borrowed(""),
                expected: Value::Null,
                received: None,
                detail: None,
                hint: None,
            });
        }
        let known = || self.fields.iter().map(|f| f.name);
        let near = suggest::nearest(key, known());
        // The names are listed with the first unknown name that is not a slip of one.
        let first = near.is_some() || cx.first_listing(self.name);
        let detail = match near {
            Some(near) => {
                let mut detail = String::new();
                suggest::push_did_you_mean(&mut detail, near);
                detail.push_str(" Send the value under that name.");
                detail
            }
            None if first => {
                let mut detail = String::from("Remove it; the arguments are ");
                crate::text::push_quoted_list(&mut detail, known());
                detail.push('.');
                detail
            }
            None => "Remove it.".to_owned(),
        };
        // The names, as data, once per object (and with each slip): 50 copies say
        // nothing more.
        let expected = if first {
            Value::Array(known().map(Value::from).collect())
        } else {
            Value::from("a name listed in an earlier violation")
        };
        let expectation = if cx.is_root() {
            format!("is not an argument of {}", cx.tool().unwrap_or(self.name))
        } else {
            "is not a property of this object".to_owned()
        };
        let mark = cx.enter_key(key);
        let report = Report {
            rule: Cow::Borrowed("unknown"),
            expectation: Cow::Owned(expectation),
            expected,
            received: Some(value),
            detail: Some(Cow::Owned(detail)),
            hint: None,
        };
        // A misspelt sensitive field carries a sensitive value.
        if near.is_some_and(|n| self.is_sensitive(n)) {
            cx.sensitive(|cx| cx.report(report));
        } else {
            cx.report(report);
        }
        cx.leave(mark);
    }

    fn is_sensitive(&self, name: &str) -> bool {
        self.fields.iter().any(|f| f.name == name && f.sensitive)
    }

    /// A copy of an arguments object safe to echo: sensitive fields (and names close
    /// to them) redacted, everything cut to `limits`.
    pub fn echo(&'static self, value: &Value, limits: Limits) -> Value {
        let Value::Object(map) = value else {
            return echo::truncate(value, limits);
        };
        // Small, flat and nothing to hide: the echo is the value itself.
        if !self.fields.iter().any(|f| f.sensitive) && echo::is_flat_within(map, limits) {
            return value.clone();
        }
        echo::object(map, limits, |key, v, inner| {
            match self.fields.iter().find(|f| f.name == key) {
                Some(field) if field.sensitive => Value::from(echo::REDACTED),
                Some(field) => (field.ty.echo)(v, inner),
                None => match suggest::nearest(key, self.fields.iter().map(|f| f.name)) {
                    Some(near) if self.is_sensitive(near) => Value::from(echo::REDACTED),
                    _ => echo::truncate(v, inner),
                },
            }
        })
    }

    /// Checks `arguments` and reads them into `T`. See
    /// [`McpTool::from_arguments`](crate::McpTool::from_arguments).
    pub fn from_arguments<T: McpTool>(
        &'static self,
        arguments: Value,
        context: &Context,
        profile: SchemaProfile,
    ) -> Result<T, ToolError> {
        self.from_arguments_as(self.name, arguments, context, profile)
    }

    /// [`ToolSpec::from_arguments`] for a tool the client knows as `tool`: an rmcp
    /// `#[tool]` method is named after the method, not the struct.
    ///
    /// The arguments are checked in place, then moved into `T`: serde takes each string
    /// as it is, copying nothing. A failed check keeps them, as they came, in the error
    /// (for `attempted_query`, redacted and cut when written out).
    pub fn from_arguments_as<T: McpTool>(
        &'static self,
        tool: &str,
        arguments: Value,
        context: &Context,
        profile: SchemaProfile,
    ) -> Result<T, ToolError> {
        let mut arguments = match arguments {
            Value::Object(_) => arguments,
            Value::Null => Value::Object(Map::new()),
            other => {
                let message = format!(
                    "{}: `arguments` must be a JSON object; got {}.",
                    tool,
                    echo::json_type(&other)
                );
                // Kept by the error, so that a value of any depth is dropped safely.
                return Err(ToolError::malformed_request(message).for_call(tool.to_owned(), other));
            }
        };
        let mut cx = if tool == self.name {
            Checker::new(context)
        } else {
            Checker::for_tool(context, tool)
        };
        if self.is_recursive() {
            cx.enter_spec(self.id());
        }
        if profile == SchemaProfile::OpenAi {
            cx.read_nulls_as_absent();
        }
        self.check(&arguments, &mut cx);
        let checked = cx.finish();
        if !checked.violations.is_empty() || checked.omitted > 0 {
            return Err(self.invalid::<T>(tool, checked.violations, checked.omitted, arguments));
        }
        for path in &checked.integral_floats {
            integer_in_place(&mut arguments, path);
        }
        for path in &checked.absent_nulls {
            remove_in_place(&mut arguments, path);
        }
        T::deserialize(arguments).map_err(|e| {
            // The checks passed and serde still refused: a type whose Deserialize does
            // more than its schema says. Say what serde said. The arguments went to
            // serde and are not kept.
            let violation = Violation {
                path: String::new(),
                rule: Cow::Borrowed("type"),
                message: format!("could not be read: {e}."),
                expected: Value::String("arguments matching the input schema".into()),
                received: None,
            };
            self.invalid::<T>(tool, vec![violation], 0, Value::Null)
        })
    }

    fn invalid<T: McpTool>(
        &'static self,
        tool: &str,
        violations: Vec<Violation>,
        omitted: usize,
        arguments: Value,
    ) -> ToolError {
        let tool = if tool == self.name {
            Cow::Borrowed(self.name)
        } else {
            Cow::Owned(tool.to_owned())
        };
        ToolError::invalid_arguments(tool, violations, omitted, arguments, T::echo)
    }
}

/// Takes out the property at `path`: a `null` that means "left out", which serde
/// would not read into a field with a default.
fn remove_in_place(arguments: &mut Value, path: &str) {
    let Some((parent, key)) = path.rsplit_once('/') else {
        return;
    };
    let key = key.replace("~1", "/").replace("~0", "~");
    if let Some(Value::Object(map)) = arguments.pointer_mut(parent) {
        map.remove(&key);
    }
}

/// The integral float at `path` (`3.0`) written as an integer (`3`), which is what
/// serde reads into an integer type; the checks found it integral and in range.
fn integer_in_place(arguments: &mut Value, path: &str) {
    if let Some(slot) = arguments.pointer_mut(path)
        && let Some(f) = slot.as_f64()
    {
        *slot = if f < 0.0 {
            Value::from(f as i64)
        } else {
            Value::from(f as u64)
        };
    }
}

/// A property schema in a few words: "a string (Departure airport, IATA code.)".
fn summarize(schema: &Map<String, Value>) -> String {
    let mut out = match schema.get("enum").and_then(Value::as_array) {
        Some(values) => format!(
            "one of {}",
            values
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => match schema.get("type").and_then(Value::as_str) {
            Some("string") => "a string".to_owned(),
            Some("integer") => "an integer".to_owned(),
            Some("number") => "a number".to_owned(),
            Some("boolean") => "true or false".to_owned(),
            Some("array") => "an array".to_owned(),
            Some("object") => "an object".to_owned(),
            _ => "a value".to_owned(),
        },
    };
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
        out.push_str(&format!(" matching {pattern}"));
    }
    if let Some(description) = schema.get("description").and_then(Value::as_str) {
        let mut chars = description.trim_end_matches('.').chars();
        if let Some(first) = chars.next() {
            out.push_str(" (");
            out.extend(first.to_lowercase());
            out.push_str(chars.as_str());
            out.push(')');
        }
    }
    out
}

impl Field {
    /// The property schema: the type's, with the rules applied and the doc comment
    /// before any rule notes.
    pub fn schema(&self) -> Map<String, Value> {
        let mut schema = (self.ty.schema)(self.rules);
        if let Some(doc) = self.description {
            let mut text = doc.to_owned();
            if let Some(notes) = schema.get("description").and_then(Value::as_str) {
                crate::text::push_sentence(&mut text, notes);
            }
            schema.insert("description".into(), text.into());
        }
        if let Some(value) = self.default.and_then(|default| default()) {
            schema.insert("default".into(), value);
        }
        schema
    }
}

/// A derived enum of unit variants: a string with a fixed set of values.
#[derive(Debug)]
pub struct EnumSpec {
    /// The doc comment.
    pub description: Option<&'static str>,
    /// The variants' names on the wire, after serde's renames.
    pub values: &'static [&'static str],
}

impl EnumSpec {
    /// `{"type": "string", "enum": [...]}`.
    pub fn schema(&self, rules: Rules) -> Map<String, Value> {
        let mut schema = Map::new();
        schema.insert("type".into(), "string".into());
        schema.insert("enum".into(), self.values.into());
        if let Some(description) = self.description {
            schema.insert("description".into(), description.into());
        }
        rules::apply_schema(rules.own, rules::Kind::String, &mut schema);
        schema
    }

    /// Checks that `value` is one of the values; suggests the nearest when not.
    pub fn check(&self, value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        let Value::String(s) = value else {
            let expected = self
                .values
                .iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(", ");
            cx.type_mismatch(&format!("one of {expected}"), value);
            return false;
        };
        if !self.values.contains(&s.as_str()) {
            rules::one_of_failure(self.values, s).report(cx, value, None, None);
            return false;
        }
        rules::check(rules.own, value, cx);
        true
    }
}
