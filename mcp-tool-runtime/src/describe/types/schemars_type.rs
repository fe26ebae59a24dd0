//! A field whose type only has `Deserialize` and `schemars::JsonSchema` (a foreign type no
//! feature covers), marked `#[mcp_tool(schemars)]`: its schemars schema is made portable
//! (as every advertised schema here, then `const` and `oneOf` rewritten and objects
//! closed to unknown names), that portable schema is
//! advertised, and the same schema is what the runtime checks a value against, keyword by
//! keyword: what the model is told and what the server enforces are one value.

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, OnceLock, RwLock};

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

use crate::check::{Checker, Report};
use crate::describe::extend::Extend;
use crate::describe::spec::{ArgType, ToolSpec};
use crate::describe::walk::Walk;
use crate::rules::{self, JsonType, Rules};

/// The portable schema of `T`, made once per type.
pub(crate) fn portable_schema<T: JsonSchema + 'static>() -> Arc<Value> {
    static SCHEMAS: LazyLock<RwLock<HashMap<TypeId, Arc<Value>>>> =
        LazyLock::new(|| RwLock::new(HashMap::new()));
    let id = TypeId::of::<T>();
    if let Some(schema) = SCHEMAS.read().ok().and_then(|m| m.get(&id).cloned()) {
        return schema;
    }
    let root = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    // What every schema advertised here gets (references inlined, type arrays split,
    // private formats as bounds), then what a value's own schema needs besides.
    let mut schema = crate::describe::output::portable(root);
    closed(&mut schema);
    let schema = Arc::new(schema);
    if let Ok(mut map) = SCHEMAS.write() {
        map.insert(id, schema.clone());
    }
    schema
}

/// `schema` in the form every client reads and this interpreter enforces as advertised:
/// no boolean subschemas, `enum` for `const`, `anyOf` for `oneOf` (the same where the
/// forms do not overlap, and every client reads it), and every object of named
/// properties closed to other names, as everywhere in this crate (a misspelt name is no
/// silent default).
fn closed(schema: &mut Value) {
    let map = match schema {
        Value::Bool(true) => return *schema = json!({}),
        Value::Bool(false) => return *schema = json!({"not": {}}),
        Value::Object(map) => map,
        _ => return,
    };
    map.remove("$id");
    if let Some(value) = map.remove("const") {
        map.insert("enum".into(), json!([value]));
    }
    if let Some(forms) = map.remove("oneOf") {
        map.insert("anyOf".into(), forms);
    }
    if map.contains_key("properties") && !map.contains_key("additionalProperties") {
        map.insert("additionalProperties".into(), false.into());
    }
    for (key, value) in map.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(named)) => named.values_mut().for_each(closed),
            ("anyOf" | "allOf" | "prefixItems", Value::Array(branches)) => {
                branches.iter_mut().for_each(closed)
            }
            ("items" | "not", value) => closed(value),
            ("additionalProperties", value @ Value::Object(_)) => closed(value),
            _ => {}
        }
    }
}

/// The keywords [`judge`] enforces, and those that say nothing to enforce.
const ENFORCED: &[&str] = &[
    "type",
    "enum",
    "anyOf",
    "allOf",
    "not",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "prefixItems",
    "items",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
];
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "examples",
    "example",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$comment",
    "nullable",
];
/// The formats [`judge`] checks.
const FORMATS: &[&str] = &["email", "uri", "uuid", "ipv4", "ipv6", "date"];

/// `schema` made portable and closed, as [`judge`] reads it, for the field `field`; a
/// keyword (or format) it would advertise and [`judge`] cannot enforce stops the
/// server at its start, naming it: what the model is told is what is enforced.
pub(crate) fn enforceable(schema: Value, field: &str) -> Value {
    let mut schema = crate::describe::output::portable(schema);
    closed(&mut schema);
    let mut found = Vec::new();
    unenforced(&schema, &mut found);
    assert!(
        found.is_empty(),
        "mcp-tool: the schema of field `{field}` (from #[schemars(schema_with, with, extend, transform)]) says {}, which this server cannot enforce, so the model would be told a rule that is not kept: leave it out, or state the rule with #[validate(...)] (a `custom` rule with a `description` for one no keyword says)",
        found.join(", ")
    );
    schema
}

/// [`enforceable`] for a field's reshaped schema as it is advertised: run where the
/// schema is first built, so that a server stops at its start, whatever the depth of
/// the field.
pub(crate) fn vet(schema: &Map<String, Value>, field: &str) {
    enforceable(Value::Object(schema.clone()), field);
}

/// The keywords and formats of `schema` that [`judge`] does not enforce.
fn unenforced(schema: &Value, found: &mut Vec<String>) {
    let Value::Object(map) = schema else {
        return;
    };
    for (key, value) in map {
        match key.as_str() {
            "format" if value.as_str().is_some_and(|f| !FORMATS.contains(&f)) => {
                found.push(format!("format {value}"));
            }
            "pattern" => {
                if let Some(why) = value.as_str().and_then(unreadable_pattern) {
                    found.push(format!("pattern {value} ({why})"));
                }
            }
            "properties" => {
                if let Value::Object(named) = value {
                    named.values().for_each(|v| unenforced(v, found));
                }
            }
            "anyOf" | "allOf" | "prefixItems" => {
                if let Value::Array(branches) = value {
                    branches.iter().for_each(|v| unenforced(v, found));
                }
            }
            "items" | "not" | "additionalProperties" | "propertyNames" => unenforced(value, found),
            k if ENFORCED.contains(&k) || ANNOTATIONS.contains(&k) => {}
            // A vendor's keyword (`x-mcp-header`, SEP-2243): JSON Schema gives an unknown
            // keyword no say over the value, so no validator enforces it and nothing is
            // promised to the model that is not kept.
            k if k.starts_with("x-") => {}
            k => found.push(format!("`{k}`")),
        }
    }
}

impl ArgType {
    /// A field marked `#[mcp_tool(schemars)]`: `T`'s schemars schema, made portable,
    /// advertised and enforced as it is.
    pub const fn schemars<T: JsonSchema + 'static>() -> Self {
        ArgType {
            schema: schema::<T>,
            check: check::<T>,
            optional: false,
            object: no_object,
        }
    }
}

/// No struct description: the `object` of a type that is not a derived struct.
fn no_object() -> Option<&'static ToolSpec> {
    None
}

impl Extend {
    /// The keywords `apply` adds.
    pub const fn new(apply: fn(&mut Map<String, Value>)) -> Self {
        Extend {
            apply,
            judged: OnceLock::new(),
            enforceable,
            judge,
        }
    }
}

/// The schema of a `#[mcp_tool(schemars)]` field: its type's, portable, with `rules`.
pub(crate) fn schema<T: JsonSchema + 'static>(rules: Rules, _: &mut Walk) -> Map<String, Value> {
    let mut schema = match &*portable_schema::<T>() {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    rules::apply_schema(rules.own, JsonType::Other, &mut schema);
    schema
}

/// Checks `value` against the portable schema of `T`, then `rules`.
pub(crate) fn check<T: JsonSchema + 'static>(
    value: &Value,
    rules: Rules,
    cx: &mut Checker<'_>,
) -> bool {
    let schema = portable_schema::<T>();
    let before = cx.count();
    judge(&schema, value, cx);
    if cx.count() == before {
        rules::check(rules.own, value, cx);
        return true;
    }
    false
}

fn fail(
    cx: &mut Checker<'_>,
    rule: &'static str,
    expectation: String,
    expected: Value,
    value: &Value,
) {
    cx.report(Report {
        rule: Cow::Borrowed(rule),
        expectation: Cow::Owned(expectation),
        expected,
        received: Some(value),
        detail: None,
        hint: None,
    });
}

fn type_matches(ty: &str, value: &Value) -> bool {
    match ty {
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        "integer" => {
            value.as_f64().is_some_and(|f| f.fract() == 0.0) || value.is_i64() || value.is_u64()
        }
        _ => true,
    }
}

/// Checks `value` against `schema`, reporting each keyword it fails at its path.
pub(crate) fn judge(schema: &Value, value: &Value, cx: &mut Checker<'_>) {
    let Value::Object(s) = schema else {
        return;
    };
    if let Some(Value::String(ty)) = s.get("type") {
        if !type_matches(ty, value) {
            let article = if ty.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            cx.type_mismatch(&format!("{article} {ty}"), value);
            return;
        }
        if ty == "integer" && value.is_f64() {
            cx.integral_float();
        }
    }
    if let Some(Value::Array(allowed)) = s.get("enum")
        && !allowed.contains(value)
    {
        let listed: Vec<String> = allowed.iter().map(Value::to_string).collect();
        fail(
            cx,
            "enum",
            format!("must be one of {}", listed.join(", ")),
            Value::Array(allowed.clone()),
            value,
        );
    }
    for key in ["anyOf", "allOf"] {
        if let Some(Value::Array(options)) = s.get(key) {
            if key == "allOf" {
                options.iter().for_each(|o| judge(o, value, cx));
            } else if !options
                .iter()
                .any(|o| cx.trial(|cx| judge(o, value, cx)) == 0)
            {
                // None fits: the first's problems, which the judge would list too.
                let closest = options
                    .iter()
                    .min_by_key(|o| cx.trial(|cx| judge(o, value, cx)))
                    .cloned()
                    .unwrap_or_default();
                judge(&closest, value, cx);
            }
        }
    }
    if let Some(not) = s.get("not")
        && cx.trial(|cx| judge(not, value, cx)) == 0
    {
        fail(
            cx,
            "not",
            "must not match this schema".into(),
            not.clone(),
            value,
        );
    }
    match value {
        Value::String(text) => judge_string(s, text, value, cx),
        Value::Number(_) => judge_number(s, value, cx),
        Value::Array(items) => judge_array(s, items, value, cx),
        Value::Object(map) => judge_object(s, map, value, cx),
        _ => {}
    }
}

fn judge_string(s: &Map<String, Value>, text: &str, value: &Value, cx: &mut Checker<'_>) {
    let chars = text.chars().count() as u64;
    if let Some(min) = s.get("minLength").and_then(Value::as_u64)
        && chars < min
    {
        fail(
            cx,
            "length",
            format!("must have at least {min} characters"),
            json!(min),
            value,
        );
    }
    if let Some(max) = s.get("maxLength").and_then(Value::as_u64)
        && chars > max
    {
        fail(
            cx,
            "length",
            format!("must have at most {max} characters"),
            json!(max),
            value,
        );
    }
    if let Some(Value::String(pattern)) = s.get("pattern")
        && !matches(pattern, text)
    {
        fail(
            cx,
            "regex",
            format!("must match the pattern {pattern}"),
            json!(pattern),
            value,
        );
    }
    if let Some(Value::String(format)) = s.get("format") {
        let ok = match format.as_str() {
            "email" => crate::rules::formats::is_email(text),
            "uri" => crate::rules::formats::is_uri(text),
            "uuid" => crate::rules::formats::is_uuid(text),
            "ipv4" => text.parse::<std::net::Ipv4Addr>().is_ok(),
            "ipv6" => text.parse::<std::net::Ipv6Addr>().is_ok(),
            "date" => crate::calendar::is_full_date(text),
            _ => true,
        };
        if !ok {
            fail(
                cx,
                "format",
                format!("must be written as JSON Schema's format {format:?}"),
                json!(format),
                value,
            );
        }
    }
}

/// Why `pattern` cannot be enforced as JSON Schema's `pattern` means it, if it cannot:
/// it has what ECMA-262 reads only with a flag (a Unicode class, `(?i)`), or it does
/// not compile.
fn unreadable_pattern(pattern: &str) -> Option<String> {
    crate::pattern::ecma::to_rust(pattern)
        .and_then(|rust| {
            regex::Regex::new(&rust)
                .map(drop)
                .map_err(|e| e.to_string())
        })
        .err()
}

/// Whether `text` matches `pattern` (compiled once per pattern). Every pattern here was
/// read at the server's start ([`enforceable`]); one that could not be would match
/// everything rather than fail every call.
fn matches(pattern: &str, text: &str) -> bool {
    static COMPILED: LazyLock<RwLock<HashMap<String, Option<regex::Regex>>>> =
        LazyLock::new(|| RwLock::new(HashMap::new()));
    if let Some(Some(re)) = COMPILED.read().ok().and_then(|m| m.get(pattern).cloned()) {
        return re.is_match(text);
    }
    // As ECMA-262 reads it: `\d` is 0-9 and `.` stops at `\r`, as the model was told.
    let re = crate::pattern::ecma::to_rust(pattern)
        .ok()
        .and_then(|rust| regex::Regex::new(&rust).ok());
    let found = re.as_ref().is_none_or(|re| re.is_match(text));
    if let Ok(mut map) = COMPILED.write() {
        map.insert(pattern.to_owned(), re);
    }
    found
}

fn judge_number(s: &Map<String, Value>, value: &Value, cx: &mut Checker<'_>) {
    let Some(n) = value.as_f64() else {
        return;
    };
    let bound = |key: &str| s.get(key).and_then(Value::as_f64);
    /// A bound's keyword, whether a number keeps it, and how a failure says it.
    type Bound = (&'static str, fn(f64, f64) -> bool, &'static str);
    let checks: [Bound; 4] = [
        ("minimum", |n, b| n >= b, "at least"),
        ("maximum", |n, b| n <= b, "at most"),
        ("exclusiveMinimum", |n, b| n > b, "more than"),
        ("exclusiveMaximum", |n, b| n < b, "less than"),
    ];
    for (key, holds, words) in checks {
        if let Some(b) = bound(key)
            && !holds(n, b)
        {
            fail(
                cx,
                "range",
                format!("must be {words} {}", s[key]),
                s[key].clone(),
                value,
            );
        }
    }
    if let Some(m) = bound("multipleOf")
        && m > 0.0
        && ((n / m) - (n / m).round()).abs() > 1e-9
    {
        fail(
            cx,
            "multiple_of",
            format!("must be a multiple of {}", s["multipleOf"]),
            s["multipleOf"].clone(),
            value,
        );
    }
}

fn judge_array(s: &Map<String, Value>, items: &[Value], value: &Value, cx: &mut Checker<'_>) {
    let count = items.len() as u64;
    if let Some(min) = s.get("minItems").and_then(Value::as_u64)
        && count < min
    {
        fail(
            cx,
            "length",
            format!("must have at least {min} items"),
            json!(min),
            value,
        );
    }
    if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
        && count > max
    {
        fail(
            cx,
            "length",
            format!("must have at most {max} items"),
            json!(max),
            value,
        );
    }
    let prefix = s.get("prefixItems").and_then(Value::as_array);
    for (i, item) in items.iter().enumerate() {
        let schema = match prefix.and_then(|p| p.get(i)) {
            Some(schema) => Some(schema),
            None => s.get("items"),
        };
        if let Some(schema) = schema {
            let mark = cx.enter_index(i);
            judge(schema, item, cx);
            cx.leave(mark);
        }
    }
    if s.get("uniqueItems") == Some(&Value::Bool(true)) {
        crate::rules::report_repeats(items, None, None, cx);
    }
}

fn judge_object(
    s: &Map<String, Value>,
    map: &Map<String, Value>,
    value: &Value,
    cx: &mut Checker<'_>,
) {
    let properties = s.get("properties").and_then(Value::as_object);
    let count = map.len() as u64;
    if let Some(min) = s.get("minProperties").and_then(Value::as_u64)
        && count < min
    {
        fail(
            cx,
            "length",
            format!("must have at least {min} properties"),
            json!(min),
            value,
        );
    }
    if let Some(max) = s.get("maxProperties").and_then(Value::as_u64)
        && count > max
    {
        fail(
            cx,
            "length",
            format!("must have at most {max} properties"),
            json!(max),
            value,
        );
    }
    if let Some(names) = s.get("propertyNames") {
        for key in map.keys() {
            let mark = cx.enter_key(key);
            judge(names, &Value::from(key.as_str()), cx);
            cx.leave(mark);
        }
    }
    if let Some(Value::Array(required)) = s.get("required") {
        for name in required.iter().filter_map(Value::as_str) {
            if !map.contains_key(name) {
                let mark = cx.enter_key(name);
                cx.report(Report {
                    rule: Cow::Borrowed("required"),
                    expectation: Cow::Borrowed("is required but was not sent"),
                    expected: properties
                        .and_then(|p| p.get(name))
                        .cloned()
                        .unwrap_or(Value::Null),
                    received: None,
                    detail: None,
                    hint: None,
                });
                cx.leave(mark);
            }
        }
    }
    for (key, item) in map {
        let mark = cx.enter_key(key);
        match (
            properties.and_then(|p| p.get(key)),
            s.get("additionalProperties"),
        ) {
            (Some(schema), _) => judge(schema, item, cx),
            (None, Some(Value::Bool(false))) => fail(
                cx,
                "unknown",
                "is not a property of this object".into(),
                properties.map_or(json!([]), |p| p.keys().map(|k| json!(k)).collect()),
                item,
            ),
            (None, Some(schema @ Value::Object(_))) => judge(schema, item, cx),
            _ => {}
        }
        cx.leave(mark);
    }
}
