//! `unique`: an array in which no item repeats another, JSON Schema's `uniqueItems`.
//! Items are equal as that keyword says: numbers by value (`1` is `1.0`), objects
//! whatever the order of their keys. Each repeat is reported at its own index, naming
//! the item it repeats. A set (`HashSet`, `BTreeSet`) is checked the same way without
//! the rule, since serde would silently fold its repeats into one.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::{Failure, JsonType, Rule, RuleKind};
use crate::check::Checker;
use crate::number::Num;

/// `unique`.
#[derive(Debug)]
pub struct Unique;

impl RuleKind for Unique {
    fn schema(
        &self,
        kind: JsonType,
        schema: &mut Map<String, Value>,
        _: &mut Vec<String>,
        _: Option<&'static str>,
    ) {
        if kind == JsonType::Array {
            schema.insert("uniqueItems".into(), true.into());
        }
    }

    fn holds(&self, value: &Value, _: &crate::context::Context) -> bool {
        !matches!(value, Value::Array(items) if !repeats(items).is_empty())
    }

    fn check(&self, value: &Value, _: &Checker<'_>) -> Option<Failure> {
        let Value::Array(items) = value else {
            return None;
        };
        repeats(items).first().map(|&(_, earlier)| repeat(earlier))
    }

    /// Each repeated item at its own index: the model learns every one to remove.
    fn report(&self, value: &Value, rule: &Rule, cx: &mut Checker<'_>) {
        if let Value::Array(items) = value {
            report_repeats(items, rule.message, rule.hint, cx);
        }
    }
}

/// Types `unique` applies to: lists, whose repeats serde keeps.
#[diagnostic::on_unimplemented(
    message = "`unique` applies to lists, and `{Self}` is not one",
    label = "needs a `Vec<T>` or an array (or an `Option` of one); a set keeps no repeated item already"
)]
pub trait UniqueRule {
    /// Names the trait in a constant, for the derive's check that a rule fits a field.
    #[doc(hidden)]
    const APPLIES: () = ();
}

impl<T> UniqueRule for Vec<T> {}
impl<T, const N: usize> UniqueRule for [T; N] {}
impl<T: UniqueRule> UniqueRule for Option<T> {}
impl<T: UniqueRule> UniqueRule for Box<T> {}

fn repeat(earlier: usize) -> Failure {
    Failure::new(
        "unique",
        format!("must not repeat item {earlier}"),
        Value::from("no item repeated"),
    )
    .with_detail("Remove the repeated item.")
}

/// For each item equal to an earlier one: its index and the earlier one's, by index.
/// The items are sorted (their indices) by an order in which JSON Schema's equal values
/// are next to one another: each run of equal items repeats its first. No item is
/// copied or written out.
pub(crate) fn repeats(items: &[Value]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_unstable_by(|&a, &b| compare(&items[a], &items[b]).then(a.cmp(&b)));
    let mut out = Vec::new();
    for run in order.chunk_by(|&a, &b| compare(&items[a], &items[b]).is_eq()) {
        out.extend(run[1..].iter().map(|&i| (i, run[0])));
    }
    out.sort_unstable();
    out
}

/// Reports each item of `items` that repeats an earlier one, at its own index.
pub(crate) fn report_repeats(
    items: &[Value],
    message: Option<&'static str>,
    hint: Option<&'static str>,
    cx: &mut Checker<'_>,
) {
    for (i, earlier) in repeats(items) {
        let mark = cx.enter_index(i);
        repeat(earlier).report(cx, &items[i], message, hint);
        cx.leave(mark);
    }
}

/// A total order of JSON values in which the values JSON Schema's equality makes equal
/// (numbers by value, objects whatever the order of their keys) compare equal.
fn compare(a: &Value, b: &Value) -> Ordering {
    fn rank(value: &Value) -> u8 {
        match value {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Number(_) => 2,
            Value::String(_) => 3,
            Value::Array(_) => 4,
            Value::Object(_) => 5,
        }
    }
    match (a, b) {
        (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
        // A number no f64 holds (serde_json's `arbitrary_precision`: 1e400) is not
        // compared by value: it comes after every other, and by its text among them.
        (Value::Number(a), Value::Number(b)) => match (number(a), number(b)) {
            (Some(x), Some(y)) => x.cmp_num(y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => a.to_string().cmp(&b.to_string()),
        },
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Array(a), Value::Array(b)) => a
            .iter()
            .zip(b)
            .map(|(a, b)| compare(a, b))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.len().cmp(&b.len())),
        (Value::Object(a), Value::Object(b)) => {
            // Maps iterate in key order, unless serde_json's `preserve_order` keeps the
            // order their keys came in: then they are sorted first.
            let found = if a.keys().is_sorted() && b.keys().is_sorted() {
                first_difference(a.iter(), b.iter())
            } else {
                first_difference(sorted(a).into_iter(), sorted(b).into_iter())
            };
            found.unwrap_or_else(|| a.len().cmp(&b.len()))
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

/// How the first members that differ compare, key then value, if any do.
fn first_difference<'a>(
    a: impl Iterator<Item = (&'a String, &'a Value)>,
    b: impl Iterator<Item = (&'a String, &'a Value)>,
) -> Option<Ordering> {
    a.zip(b)
        .map(|((ka, va), (kb, vb))| ka.cmp(kb).then_with(|| compare(va, vb)))
        .find(|o| o.is_ne())
}

/// The members of `map` in key order.
fn sorted(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut members: Vec<(&String, &Value)> = map.iter().collect();
    members.sort_unstable_by_key(|(key, _)| *key);
    members
}

/// A JSON number to compare exactly: an integral float is that integer (`3.0` is `3`,
/// `-0.0` is `0`). `None` for a number no finite f64 holds.
fn number(n: &Number) -> Option<Num> {
    if let Some(i) = n.as_i64() {
        Some(Num::Int(i128::from(i)))
    } else if let Some(u) = n.as_u64() {
        Some(Num::Int(i128::from(u)))
    } else {
        match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e38 => Some(Num::Int(f as i128)),
            Some(f) if f.is_finite() => Some(Num::Float(f)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_as_json_schema_says() {
        let items = [
            json!(1),
            json!(1.0),
            json!("1"),
            json!({"a": 1, "b": [2]}),
            json!({"b": [2.0], "a": 1}),
            json!(null),
            json!("a\"b"),
            json!("a\\\"b"),
            json!(-0.0),
            json!(0),
        ];
        assert_eq!(repeats(&items), [(1, 0), (4, 3), (9, 8)]);
    }

    #[test]
    fn near_values_are_not_equal() {
        let items = [
            json!([1, 2]),
            json!([1, 2, 3]),
            json!(9007199254740993u64),
            json!(9007199254740992.0),
            json!(true),
            json!(1),
            json!({"a": 1}),
            json!({"a": 1, "b": 2}),
            json!({"b": 1}),
            json!(""),
            json!([]),
            json!({}),
            json!(0.5),
            json!(false),
        ];
        assert_eq!(repeats(&items), []);
    }

    #[test]
    fn each_repeat_names_the_first_of_its_value() {
        let items: Vec<Value> = (0..100_000)
            .map(|i| json!(format!("id-{}", i % 50_000)))
            .collect();
        let found = repeats(&items);
        assert_eq!(found.len(), 50_000);
        assert!(found.iter().all(|&(i, earlier)| i == earlier + 50_000));
        let thrice = [json!("x"), json!(2), json!("x"), json!(2.0), json!("x")];
        assert_eq!(repeats(&thrice), [(2, 0), (3, 1), (4, 0)]);
    }

    #[test]
    fn the_order_is_total() {
        // Sorting with an order that is not total may panic: every pair is antisymmetric
        // and every triple transitive, across the representations of numbers too.
        let values = [
            json!(null),
            json!(false),
            json!(true),
            json!(0),
            json!(-0.0),
            json!(0.5),
            json!(-0.5),
            json!(1),
            json!(1.0),
            json!(i64::MIN),
            json!(i64::MAX),
            json!(u64::MAX),
            json!(18446744073709551615.0),
            json!(9007199254740993u64),
            json!(9007199254740992.0),
            json!(1e300),
            json!(-1e300),
            json!(""),
            json!("a"),
            json!("b"),
            json!([]),
            json!([1]),
            json!([1.0, 2]),
            json!([1, 2, 3]),
            json!({}),
            json!({"a": 1}),
            json!({"a": 1.0, "b": 2}),
            json!({"b": 0}),
        ];
        for a in &values {
            for b in &values {
                assert_eq!(compare(a, b), compare(b, a).reverse(), "{a} and {b}");
                for c in &values {
                    if compare(a, b).is_le() && compare(b, c).is_le() {
                        assert!(compare(a, c).is_le(), "{a} <= {b} <= {c}");
                    }
                }
            }
        }
    }
}
