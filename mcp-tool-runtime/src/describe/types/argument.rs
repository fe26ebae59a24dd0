//! [`Argument`]: what a field's Rust type means in JSON, for the schema and the checks.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use crate::check::Checker;
use crate::describe::spec::Judge;
use crate::describe::spec::{ArgType, ToolSpec};
use crate::describe::walk::Walk;
use crate::rules::{self, JsonType, Rules};

/// A type that can be a tool argument: it knows its JSON Schema and checks a JSON
/// value against it, applying the field's rules.
///
/// Implemented for strings, numbers, booleans, `Option`, `Box`, `Vec`, sets (`HashSet`,
/// `BTreeSet`: `uniqueItems`, a repeated item reported), fixed-size arrays `[T; N]`,
/// tuples of up to six items, string-keyed maps (`HashMap`, `BTreeMap`,
/// `serde_json::Map`), `serde_json::Value`, and by `#[derive(McpTool)]` and
/// `#[derive(Argument)]` (structs, newtypes, enums with data) and `#[derive(McpEnum)]`
/// (enums of unit variants). The schema a type gives and the values it accepts agree:
/// every value it accepts is valid against its schema, and every value its schema
/// rejects, it rejects.
///
/// Its schema and check are written by the derives, in terms of this crate's private
/// description of rules, so the trait is not implemented by hand: see
/// [`mcp_tool::argument`](crate::argument) for the ways to make a type of your own an
/// argument.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument: it does not implement `mcp_tool::Argument`",
    label = "the type of a field of a tool's arguments",
    note = "derive `mcp_tool::Argument` on a struct used inside a tool's arguments (and `Deserialize`), or `mcp_tool::McpEnum` on an enum of unit variants"
)]
pub trait Argument {
    /// The type rules and custom functions see: `T` for `Option<T>`, `Self` otherwise.
    type Target;

    /// Whether the argument may be left out: true for `Option<T>`.
    const OPTIONAL: bool = false;

    /// The JSON Schema of this type with `rules` applied.
    #[doc(hidden)]
    fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value>;

    /// Checks `value`: its type, then `rules`. Reports each problem to `cx`; returns
    /// whether the value had the right JSON type.
    #[doc(hidden)]
    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool;

    /// Whether `value` is of this type and passes `rules` with nothing for the checker
    /// to record (no violation, no repair, nothing hidden or read later): the fast path
    /// of valid arguments, which [`Argument::check`] would pass in silence. `false`
    /// means only "not sure": the full check then runs and says what it finds. The
    /// default is `false`, for the types without a fast path.
    #[doc(hidden)]
    fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        let _ = (value, rules, judge);
        false
    }

    /// The description of a derived struct: its fields can stand in an object beside
    /// others (`#[serde(flatten)]`, a union's tag). `None` for every other type.
    #[doc(hidden)]
    fn object() -> Option<&'static ToolSpec> {
        None
    }

    /// A Rust value of this type as JSON, for the schema's `default`; `None` where the
    /// type cannot say (a derived struct or enum), and the schema then has none.
    fn to_json(value: &Self) -> Option<Value>
    where
        Self: Sized,
    {
        let _ = value;
        None
    }
}

/// Checks `value` with `check`; or, where a client sent the array (`array`) or object as
/// a string of its JSON and the checker repairs that mistake, checks the parsed value and
/// records the repair.
pub(crate) fn repairable(
    value: &Value,
    array: bool,
    cx: &mut Checker<'_>,
    check: impl FnOnce(&Value, &mut Checker<'_>) -> bool,
) -> bool {
    match cx.unstringify(value, array) {
        Some(parsed) => cx.repairing(parsed, check),
        None => check(value, cx),
    }
}

/// `to_json` for the types whose JSON is what serde_json makes of them.
macro_rules! as_json {
    () => {
        fn to_json(value: &Self) -> Option<Value> {
            Some(Value::from(value.clone()))
        }
    };
}

/// `schema` or `null`, in the portable form: `anyOf` the two, with the description and
/// title outside, where every client reads them (no type array: several clients refuse
/// them). A schema that accepts `null` already is kept as it is.
pub(crate) fn nullable(mut schema: Map<String, Value>) -> Map<String, Value> {
    if schema.is_empty() || is_nullable(&schema) {
        return schema;
    }
    let mut out = Map::new();
    for key in ["title", "description"] {
        if let Some(value) = schema.remove(key) {
            out.insert(key.into(), value);
        }
    }
    out.insert(
        "anyOf".into(),
        Value::Array(vec![Value::Object(schema), json!({"type": "null"})]),
    );
    out
}

/// Whether `schema` is `nullable`'s form, or otherwise says `null` is fine.
pub(crate) fn is_nullable(schema: &Map<String, Value>) -> bool {
    let null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
    match (schema.get("anyOf"), schema.get("type")) {
        (Some(Value::Array(branches)), _) => branches.iter().any(null),
        (_, Some(Value::Array(types))) => types.iter().any(|t| t == "null"),
        _ => false,
    }
}

pub(super) fn typed(ty: &str) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), ty.into());
    map
}

impl Argument for String {
    type Target = String;
    as_json!();

    fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
        let mut schema = typed("string");
        rules::apply_schema(rules.own, JsonType::String, &mut schema);
        schema
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        if !value.is_string() {
            cx.type_mismatch("a string", value);
            return false;
        }
        rules::check(rules.own, value, cx);
        true
    }

    #[inline]
    fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        value.is_string() && rules::pass(rules.own, value, judge.context)
    }
}

impl Argument for char {
    type Target = char;

    fn to_json(value: &Self) -> Option<Value> {
        Some(Value::from(value.to_string()))
    }

    fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
        let mut schema = typed("string");
        schema.insert("minLength".into(), 1.into());
        schema.insert("maxLength".into(), 1.into());
        rules::apply_schema(rules.own, JsonType::String, &mut schema);
        schema
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        match value.as_str() {
            Some(s) if s.chars().count() == 1 => {
                rules::check(rules.own, value, cx);
                true
            }
            _ => {
                cx.type_mismatch("a string of exactly one character", value);
                false
            }
        }
    }

    #[inline]
    fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        value.as_str().is_some_and(|s| s.chars().count() == 1)
            && rules::pass(rules.own, value, judge.context)
    }
}

impl Argument for bool {
    type Target = bool;
    as_json!();

    fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
        let mut schema = typed("boolean");
        rules::apply_schema(rules.own, JsonType::Other, &mut schema);
        schema
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        if !value.is_boolean() {
            if let Some(parsed) = cx.unstringify_scalar(value, false) {
                return cx.repairing(parsed, |parsed, cx| Self::check(parsed, rules, cx));
            }
            cx.type_mismatch("true or false", value);
            return false;
        }
        rules::check(rules.own, value, cx);
        true
    }

    #[inline]
    fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        value.is_boolean() && rules::pass(rules.own, value, judge.context)
    }
}

impl Argument for Value {
    type Target = Value;
    as_json!();

    fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
        let mut schema = Map::new();
        rules::apply_schema(rules.own, JsonType::Other, &mut schema);
        schema
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        rules::check(rules.own, value, cx);
        true
    }

    #[inline]
    fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        rules::pass(rules.own, value, judge.context)
    }
}

impl<T: Argument> Argument for Option<T> {
    type Target = T::Target;
    const OPTIONAL: bool = true;

    /// The schema of `T` or `null`, which serde reads as `None`; a field of this type
    /// is left out of `required`.
    fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        nullable(T::schema(rules, walk))
    }

    /// `null` is `None`, as serde reads it: no rule applies to it.
    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        value.is_null() || T::check(value, rules, cx)
    }

    fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        value.is_null() || T::passes(value, rules, judge)
    }

    /// `None` has no default to show: the field is simply left out.
    fn to_json(value: &Self) -> Option<Value> {
        value.as_ref().and_then(T::to_json)
    }
}

impl<T: Argument> Argument for Box<T> {
    type Target = T::Target;
    const OPTIONAL: bool = T::OPTIONAL;

    fn object() -> Option<&'static ToolSpec> {
        T::object()
    }

    fn to_json(value: &Self) -> Option<Value> {
        T::to_json(value)
    }

    fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        T::schema(rules, walk)
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        T::check(value, rules, cx)
    }

    fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        T::passes(value, rules, judge)
    }
}

impl<T: Argument> Argument for Vec<T> {
    type Target = Vec<T>;

    fn to_json(value: &Self) -> Option<Value> {
        value.iter().map(T::to_json).collect()
    }

    fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        let mut schema = typed("array");
        let (items, cut) = walk.reaches_cut(|walk| T::schema(rules.for_items(), walk));
        schema.insert("items".into(), Value::Object(items));
        rules::apply_schema(rules.own, JsonType::Array, &mut schema);
        if cut {
            // An item here would nest a recursive struct too deep: the list stays empty.
            schema.insert("items".into(), Value::Object(typed("object")));
            schema.insert("maxItems".into(), 0.into());
        }
        schema
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        repairable(value, true, cx, |value, cx| {
            let Value::Array(items) = value else {
                cx.type_mismatch("an array", value);
                return false;
            };
            for (i, item) in items.iter().enumerate() {
                let mark = cx.enter_index(i);
                T::check(item, rules.for_items(), cx);
                cx.leave(mark);
            }
            rules::check(rules.own, value, cx);
            true
        })
    }

    fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        let Value::Array(items) = value else {
            return false;
        };
        items
            .iter()
            .all(|item| T::passes(item, rules.for_items(), judge))
            && rules::pass(rules.own, value, judge.context)
    }
}

impl ArgType {
    /// The functions of `T`.
    pub const fn of<T: Argument>() -> Self {
        ArgType {
            schema: T::schema,
            check: T::check,
            optional: T::OPTIONAL,
            object: T::object,
        }
    }
}

/// Types `#[serde(flatten)]` takes: a derived struct, whose fields stand in the object
/// that holds it, or a map, which takes the names no field does.
#[diagnostic::on_unimplemented(
    message = "`#[serde(flatten)]` takes a struct that derives `Argument` (its fields join these) or a map (it takes the other names), and `{Self}` is neither",
    label = "a flattened field"
)]
pub trait Flatten {
    /// Names the trait in a constant, for the derive's check that a field may be
    /// flattened.
    #[doc(hidden)]
    const APPLIES: () = ();
}

impl<T, S> Flatten for HashMap<String, T, S> {}
impl<T> Flatten for BTreeMap<String, T> {}
impl Flatten for Map<String, Value> {}
