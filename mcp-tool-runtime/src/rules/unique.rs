//! Repeated items: what JSON Schema's `uniqueItems` forbids, and what a set (`HashSet`,
//! `BTreeSet`) would silently fold into one. Items are equal as JSON Schema says: numbers
//! by value (`1` is `1.0`), objects whatever the order of their keys.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::Value;

use crate::check::{Checker, Report};

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
pub(crate) fn report_repeats(items: &[Value], cx: &mut Checker<'_>) {
    for (i, earlier) in repeats(items) {
        let mark = cx.enter_index(i);
        cx.report(Report {
            rule: Cow::Borrowed("unique"),
            expectation: Cow::Owned(format!("must not repeat item {earlier}")),
            expected: Value::from("no item repeated"),
            received: Some(&items[i]),
            detail: Some(Cow::Borrowed("Remove the repeated item.")),
            hint: None,
        });
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
