//! The number policy: what an integer or float type means in JSON. A type's own bound is
//! a keyword where every reader holds it exactly (up to 2^53 - 1), else it is not told
//! (see [`EXACT`]) and only enforced; `3.0` is an integer, read as `3`; 128-bit integers
//! hold what serde_json reads exactly; `NonZero` types say "not 0".

use serde_json::{Map, Value, json};

use super::argument::{Argument, typed};
use super::fit::NumberRule;
use crate::check::Checker;
use crate::describe::spec::Judge;
use crate::describe::walk::Walk;
use crate::number::{self, EXACT};
use crate::rules::{self, JsonType, Rules};

// The line between a type's own bound that is told to the model and one that is
// only enforced is `number::EXACT`.
//
// Told, as `minimum` and `maximum`: the bounds within it, those of the 8-, 16- and
// 32-bit types and the 0 of every unsigned one (1 of an unsigned `NonZero`). A client
// that validates, or constrains its decoding to the schema, holds them exactly, and a
// model can reach them with a field's own meaning: 300 for a `u8` percentage, -1 for a
// count. (A profile that drops the keywords and says bounds in words leaves out the far
// ends of the 32-bit types there: read and not enforced, they are noise; see
// `profile::said::is_far_end`.)
//
// Not told, anywhere: the far ends of the 64- and 128-bit types (`u64`, `usize`,
// `i64`, `isize`, `u128`, `i128`), past 2^53 - 1. No quantity a model writes for a
// field's meaning comes near 9.2e18, so a sentence "At most 18446744073709551615."
// would tell a model nothing and cost tokens in every tool with an id or a count; as a
// number, llama.cpp's grammar converter reads `maximum: 18446744073709551615` as -1
// (the model may then write only 0 to 9) and throws on both bounds of an `i64`, and a
// JavaScript client cannot write it exactly. Such a bound is still enforced: a value
// past it is refused with the rule `integer_range`, whose text names the range.
// A bound the author wrote (a `range` rule) is a keyword as written.

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
/// `u64::MAX`, `i128` from `i64::MIN` to `u64::MAX` (past 2^53 - 1: enforced, untold).
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
/// reader holds it exactly, else untold (see [`EXACT`]); the author's rules tighten it.
fn integer_schema(rules: Rules, min: i128, max: i128) -> Map<String, Value> {
    let mut schema = typed("integer");
    for (key, bound) in [("minimum", min), ("maximum", max)] {
        if bound.abs() <= EXACT {
            schema.insert(key.into(), json!(bound as i64));
        }
    }
    rules::apply_schema(rules.own, JsonType::Number, &mut schema);
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
                // The side it is past: told by a keyword, or untold.
                let below = n.as_i64().map_or_else(
                    || n.as_f64().is_some_and(|f| f < 0.0),
                    |i| i128::from(i) < min,
                );
                let bound = if below { min } else { max };
                if bound.abs() <= EXACT {
                    cx.type_mismatch(&expected, value);
                } else {
                    // A bound no keyword tells (see `EXACT`).
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
