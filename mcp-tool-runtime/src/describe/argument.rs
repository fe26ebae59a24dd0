//! [`Argument`]: what a field's Rust type means in JSON, for the schema and the checks.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use super::valid_walk::Judge;
use super::walk::Walk;
use crate::check::Checker;
use crate::number;
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
    fn object() -> Option<&'static super::ToolSpec> {
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

fn typed(ty: &str) -> Map<String, Value> {
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

/// The largest integer every JSON reader holds exactly (2^53 - 1, JavaScript's
/// `Number.MAX_SAFE_INTEGER`). A 64-bit type's full range is not advertised as a number
/// past it: llama.cpp's grammar converter reads `maximum: 18446744073709551615` as -1
/// (the model may then write only 0 to 9) and throws on both bounds of an `i64`, and a
/// JavaScript client cannot write such a number exactly. Such a bound is said in the
/// description instead, and enforced as said.
pub(crate) const EXACT: i128 = (1 << 53) - 1;

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Argument for $t {
            type Target = $t;

            fn to_json(value: &Self) -> Option<Value> {
                Some(json!(value))
            }

            fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
                integer_schema(rules, <$t>::MIN as i128, <$t>::MAX as i128)
            }

            fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
                check_integer(value, rules, cx, <$t>::MIN as i128, <$t>::MAX as i128)
            }

            #[inline]
            fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
                integer_passes(value, rules, judge, <$t>::MIN as i128, <$t>::MAX as i128)
            }
        }
    )*};
}

integers!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// 128-bit integers: JSON numbers as this server reads them (serde_json's) hold at most
/// 64 bits exactly, so the range read, advertised and checked is that: `u128` from 0 to
/// `u64::MAX`, `i128` from `i64::MIN` to `u64::MAX` (said in the description, past
/// 2^53 - 1).
macro_rules! wide_integers {
    ($($t:ty => $min:expr, $max:expr);*) => {$(
        impl Argument for $t {
            type Target = $t;

            fn to_json(value: &Self) -> Option<Value> {
                Some(json!(value))
            }

            fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
                integer_schema(rules, $min, $max)
            }

            fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
                check_integer(value, rules, cx, $min, $max)
            }
        }

        impl NumberRule for $t {}
    )*};
}

wide_integers!(
    u128 => 0, u64::MAX as i128;
    i128 => i64::MIN as i128, u64::MAX as i128
);

/// `NonZero` integers: an unsigned one from 1, a signed one its type's range but 0 (no
/// keyword every client reads says "not 0": the description does).
macro_rules! nonzero {
    ($($t:ident => $inner:ty),*) => {$(
        impl Argument for std::num::$t {
            type Target = Self;

            fn to_json(value: &Self) -> Option<Value> {
                Some(json!(value.get()))
            }

            fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
                let (min, max) = (<$inner>::MIN as i128, <$inner>::MAX as i128);
                if min == 0 {
                    return integer_schema(rules, 1, max);
                }
                let mut schema = integer_schema(rules, min, max);
                let mut text = match schema.remove("description") {
                    Some(Value::String(s)) => s,
                    _ => String::new(),
                };
                crate::text::push_sentence(&mut text, "Not 0.");
                schema.insert("description".into(), text.into());
                schema
            }

            fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
                let (min, max) = (<$inner>::MIN as i128, <$inner>::MAX as i128);
                if min == 0 {
                    return check_integer(value, rules, cx, 1, max);
                }
                if !check_integer(value, rules, cx, min, max) {
                    return false;
                }
                if value.as_f64() == Some(0.0) {
                    cx.report(crate::check::Report {
                        rule: std::borrow::Cow::Borrowed("not_zero"),
                        expectation: std::borrow::Cow::Borrowed("must not be 0"),
                        expected: Value::from("any integer but 0"),
                        received: Some(value),
                        detail: None,
                        hint: None,
                    });
                    return false;
                }
                true
            }
        }

        impl NumberRule for std::num::$t {}
    )*};
}

nonzero!(
    NonZeroU8 => u8, NonZeroU16 => u16, NonZeroU32 => u32, NonZeroU64 => u64,
    NonZeroUsize => usize, NonZeroI8 => i8, NonZeroI16 => i16, NonZeroI32 => i32,
    NonZeroI64 => i64, NonZeroIsize => isize
);

/// The schema of an integer type of range `min..=max`: each bound a keyword where every
/// reader holds it exactly, else a sentence of the description (unless a rule gave that
/// side a keyword of its own).
fn integer_schema(rules: Rules, min: i128, max: i128) -> Map<String, Value> {
    let mut schema = typed("integer");
    for (key, bound) in [("minimum", min), ("maximum", max)] {
        if bound.abs() <= EXACT {
            schema.insert(key.into(), json!(bound as i64));
        }
    }
    rules::apply_schema(rules.own, JsonType::Number, &mut schema);
    let said = |key: &str, bound: i128| bound.abs() <= EXACT || schema.contains_key(key);
    let (low, high) = (said("minimum", min), said("maximum", max));
    let note = match (low, high) {
        (true, true) => None,
        (false, false) => Some(format!("An integer from {min} to {max}.")),
        (true, false) => Some(format!("At most {max}.")),
        (false, true) => Some(format!("At least {min}.")),
    };
    if let Some(note) = note {
        let mut text = match schema.remove("description") {
            Some(Value::String(s)) => s,
            _ => String::new(),
        };
        crate::text::push_sentence(&mut text, &note);
        schema.insert("description".into(), text.into());
    }
    schema
}

/// [`Argument::passes`] for an integer type of the range `min..=max`: an integer
/// written as one (`3.0` is read as `3`, a repair to record, so not here) in range.
#[inline]
fn integer_passes(value: &Value, rules: Rules, judge: &Judge<'_>, min: i128, max: i128) -> bool {
    let Value::Number(n) = value else {
        return false;
    };
    number::integer_in(n, min, max) == Some(false) && rules::pass(rules.own, value, judge.context)
}

fn check_integer(value: &Value, rules: Rules, cx: &mut Checker<'_>, min: i128, max: i128) -> bool {
    let Value::Number(n) = value else {
        if let Some(parsed) = cx.unstringify_scalar(value, true) {
            return cx.repairing(parsed, |parsed, cx| {
                check_integer(parsed, rules, cx, min, max)
            });
        }
        cx.type_mismatch("an integer", value);
        return false;
    };
    match number::integer_in(n, min, max) {
        Some(as_float) => {
            if as_float {
                cx.integral_float();
            }
            rules::check(rules.own, value, cx);
            true
        }
        None if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() != 0.0) => {
            cx.type_mismatch("an integer (a whole number)", value);
            false
        }
        None => {
            // Out of the type's range: a range rule, if it fails, says it best.
            let before = cx.count();
            rules::check(rules.own, value, cx);
            if cx.count() == before {
                let expected = format!("an integer from {min} to {max}");
                // The side it is past: said by a keyword, or in the description.
                let below = n.as_i64().map_or_else(
                    || n.as_f64().is_some_and(|f| f < 0.0),
                    |i| i128::from(i) < min,
                );
                let bound = if below { min } else { max };
                if bound.abs() <= EXACT {
                    cx.type_mismatch(&expected, value);
                } else {
                    // The bound the description states, no keyword.
                    cx.report(crate::check::Report {
                        rule: std::borrow::Cow::Borrowed("integer_range"),
                        expectation: std::borrow::Cow::Owned(crate::text::expectation(&[
                            "must be ", &expected,
                        ])),
                        expected: Value::String(expected.clone()),
                        received: Some(value),
                        detail: None,
                        hint: None,
                    });
                }
            }
            false
        }
    }
}

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl Argument for $t {
            type Target = $t;

            fn to_json(value: &Self) -> Option<Value> {
                // NaN and the infinities have no JSON: no default is better than null.
                serde_json::Number::from_f64(f64::from(*value)).map(Value::Number)
            }

            fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
                let mut schema = typed("number");
                rules::apply_schema(rules.own, JsonType::Number, &mut schema);
                schema
            }

            fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
                if !value.is_number() {
                    if let Some(parsed) = cx.unstringify_scalar(value, true) {
                        return cx.repairing(parsed, |parsed, cx| Self::check(parsed, rules, cx));
                    }
                    cx.type_mismatch("a number", value);
                    return false;
                }
                rules::check(rules.own, value, cx);
                true
            }

            #[inline]
            fn passes(value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
                value.is_number() && rules::pass(rules.own, value, judge.context)
            }
        }
    )*};
}

floats!(f32, f64);

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

    fn object() -> Option<&'static super::ToolSpec> {
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

/// The type of a map's keys: the names of a JSON object. A `String` takes any name; an
/// integer type, its numbers written as names (`{"7": ...}`); an enum deriving
/// `McpEnum`, its values. Advertised as the object's `propertyNames`, and checked.
#[diagnostic::on_unimplemented(
    message = "a map keyed by `{Self}` cannot be a tool argument",
    label = "the keys of a JSON object are names",
    note = "a map argument is keyed by `String`, an integer type, or an enum that derives `mcp_tool::McpEnum`"
)]
pub trait MapKey {
    /// The schema of the names, if not any name.
    fn names() -> Option<Map<String, Value>>;

    /// What `name` should be, if it is not a key of this type.
    fn refuse(name: &str) -> Option<String>;

    /// What the description says of the names that their schema cannot (an integer
    /// type's range).
    fn said() -> Option<String> {
        None
    }
}

impl MapKey for String {
    fn names() -> Option<Map<String, Value>> {
        None
    }

    fn refuse(_: &str) -> Option<String> {
        None
    }
}

macro_rules! integer_keys {
    ($($t:ty),*) => {$(
        impl MapKey for $t {
            fn names() -> Option<Map<String, Value>> {
                let mut names = Map::new();
                let pattern = if <$t>::MIN == 0 { "^(0|[1-9][0-9]*)$" } else { "^(0|-?[1-9][0-9]*)$" };
                names.insert("pattern".into(), pattern.into());
                Some(names)
            }

            fn said() -> Option<String> {
                Some(format!("Its names are integers from {} to {}.", <$t>::MIN, <$t>::MAX))
            }

            fn refuse(name: &str) -> Option<String> {
                let plain = name == "0"
                    || (!name.starts_with('0') && !name.starts_with("-0") && !name.starts_with('+'));
                match name.parse::<$t>() {
                    Ok(_) if plain => None,
                    _ => Some(format!(
                        "an integer from {} to {}, written plainly as a name (such as \"7\")",
                        <$t>::MIN, <$t>::MAX
                    )),
                }
            }
        }
    )*};
}

integer_keys!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

fn check_map<K: MapKey, T: Argument>(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
    repairable(value, false, cx, |value, cx| {
        let Value::Object(map) = value else {
            cx.type_mismatch("an object", value);
            return false;
        };
        for (key, item) in map {
            let mark = cx.enter_key(key);
            if let Some(expected) = K::refuse(key) {
                let name = Value::from(key.as_str());
                cx.report(crate::check::Report {
                    rule: std::borrow::Cow::Borrowed("property_names"),
                    expectation: std::borrow::Cow::Owned(format!(
                        "is not a name this map takes: each must be {expected}"
                    )),
                    expected: Value::from(expected),
                    received: Some(&name),
                    detail: None,
                    hint: None,
                });
                cx.leave(mark);
                continue;
            }
            T::check(item, rules.for_items(), cx);
            cx.leave(mark);
        }
        rules::check(rules.own, value, cx);
        true
    })
}

fn map_schema<K: MapKey, T: Argument>(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
    let mut schema = typed("object");
    if let Some(names) = K::names() {
        schema.insert("propertyNames".into(), Value::Object(names));
    }
    if let Some(said) = K::said() {
        schema.insert("description".into(), said.into());
    }
    let (values, cut) = walk.reaches_cut(|walk| T::schema(rules.for_items(), walk));
    schema.insert("additionalProperties".into(), Value::Object(values));
    rules::apply_schema(rules.own, JsonType::Other, &mut schema);
    if cut {
        // A value here would nest a recursive struct too deep: the map stays empty.
        schema.insert(
            "additionalProperties".into(),
            Value::Object(typed("object")),
        );
        schema.insert("maxProperties".into(), 0.into());
    }
    schema
}

impl<K: MapKey, T: Argument, S> Argument for HashMap<K, T, S> {
    type Target = Self;

    fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        map_schema::<K, T>(rules, walk)
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        check_map::<K, T>(value, rules, cx)
    }
}

impl<K: MapKey, T: Argument> Argument for BTreeMap<K, T> {
    type Target = Self;

    fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        map_schema::<K, T>(rules, walk)
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        check_map::<K, T>(value, rules, cx)
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

/// Types `future_date` and `past_date` apply to with no format given: a string written
/// yyyy-mm-dd, or a date type of `chrono` or `jiff` (features of those names), whose
/// written form is fixed.
#[diagnostic::on_unimplemented(
    message = "`future_date` and `past_date` apply to dates, and `{Self}` is not one",
    label = "needs a `String` (give `format = \"...\"` for another shape than yyyy-mm-dd), or a date type of chrono or jiff"
)]
pub trait DateRule {
    /// The value is a date and time that starts with its date (yyyy-mm-dd): the rule
    /// judges that date.
    const AT_START: bool = false;

    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

impl DateRule for String {}
impl<T: DateRule> DateRule for Option<T> {
    const AT_START: bool = T::AT_START;
}
impl<T: DateRule> DateRule for Box<T> {
    const AT_START: bool = T::AT_START;
}

/// Types the string rules apply to: `regex`, `enum`, `email`, `url`, `uuid`,
/// `future_date` and `past_date`.
#[diagnostic::on_unimplemented(
    message = "this rule applies to strings, and `{Self}` is not a string",
    label = "needs a `String` field (or `Option<String>`, or `items(...)` of a `Vec<String>`)"
)]
pub trait TextRule {
    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

/// Types `range` applies to.
#[diagnostic::on_unimplemented(
    message = "this rule applies to numbers (`range`, `multiple_of`), and `{Self}` is not a number",
    label = "needs an integer or float field (or an `Option` of one)"
)]
pub trait NumberRule {
    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

/// Types `length` applies to: code points of a string, items of an array.
#[diagnostic::on_unimplemented(
    message = "`length` applies to strings and arrays, and `{Self}` is neither",
    label = "needs a `String` or `Vec<T>` field (or an `Option` of one)"
)]
pub trait LengthRule {
    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

/// Types whose items `items(...)` applies rules to.
#[diagnostic::on_unimplemented(
    message = "`items(...)` applies to arrays and maps, and `{Self}` is neither",
    label = "needs a `Vec<T>` field (or an `Option` of one)"
)]
pub trait ItemsRule {
    /// The type of one item.
    type Item;

    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

impl TextRule for String {}
impl<T: TextRule> TextRule for Option<T> {}
impl<T: TextRule> TextRule for Box<T> {}

macro_rules! numeric {
    ($($t:ty),*) => {$( impl NumberRule for $t {} )*};
}
numeric!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);
impl<T: NumberRule> NumberRule for Option<T> {}
impl<T: NumberRule> NumberRule for Box<T> {}

impl LengthRule for String {}
impl<T> LengthRule for Vec<T> {}
impl<T: LengthRule> LengthRule for Option<T> {}
impl<T: LengthRule> LengthRule for Box<T> {}

impl<T> ItemsRule for Vec<T> {
    type Item = T;
}
impl<K, T, S> ItemsRule for HashMap<K, T, S> {
    type Item = T;
}
impl<K, T> ItemsRule for BTreeMap<K, T> {
    type Item = T;
}
impl<T: ItemsRule> ItemsRule for Option<T> {
    type Item = T::Item;
}
impl<T: ItemsRule> ItemsRule for Box<T> {
    type Item = T::Item;
}

/// A type whose rules a field of type `T` takes with `#[validate(like = Type)]`: a
/// newtype over `T` that derives `Argument`, its rules written once for the whole
/// server, the field's type left as it is.
#[diagnostic::on_unimplemented(
    message = "a field of type `{T}` cannot take the rules of `{Self}` with `like`",
    label = "`like` takes a newtype over the field's own type",
    note = "`like = Type` takes the rules of a newtype that derives `mcp_tool::Argument` over the field's type (`struct Name(String)` for a `String` or `Option<String>` field), such as `#[derive(Argument, Deserialize)] #[validate(length(min = 1, max = 256))] struct Name(String);`"
)]
pub trait RulesFor<T> {
    /// The newtype's rules.
    fn rules() -> Rules;
}
