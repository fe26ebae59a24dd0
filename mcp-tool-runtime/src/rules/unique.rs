//! `unique`: an array in which no item repeats another, JSON Schema's `uniqueItems`.
//! Items are equal as that keyword says: numbers by value (`1` is `1.0`), objects
//! whatever the order of their keys. Each repeat is reported at its own index, naming
//! the item it repeats. A set (`HashSet`, `BTreeSet`) is checked the same way without
//! the rule, since serde would silently fold its repeats into one.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Failure, JsonType, Rule, RuleKind};
use crate::check::Checker;

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

/// For each item equal to an earlier one: its index and the earlier one's.
pub(crate) fn repeats(items: &[Value]) -> Vec<(usize, usize)> {
    let mut first: HashMap<String, usize> = HashMap::with_capacity(items.len());
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let mut key = String::new();
        canonical(item, &mut key);
        match first.get(&key) {
            Some(&earlier) => out.push((i, earlier)),
            None => {
                first.insert(key, i);
            }
        }
    }
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

/// One text per value that JSON Schema's equality makes equal.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => out.push_str(&i.to_string()),
            (_, Some(u), _) => out.push_str(&u.to_string()),
            // An integral float is that integer: 3.0 is 3.
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1e19 => {
                out.push_str(&(f as i128).to_string());
            }
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => {
            out.push('"');
            out.push_str(&s.replace('\\', "\\\\").replace('"', "\\\""));
            out.push('"');
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_unstable();
            out.push('{');
            for key in keys {
                canonical(&Value::String(key.clone()), out);
                out.push(':');
                canonical(&map[key], out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
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
}
