//! Maps as arguments: string-keyed objects (`HashMap`, `BTreeMap`), whose keys are a
//! [`MapKey`] (any name, an integer written as a name, an enum's value), advertised as
//! the object's `propertyNames` and checked, each value at its key's path.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::argument::{Argument, repairable, typed};
use crate::check::Checker;
use crate::describe::walk::Walk;
use crate::rules::{self, JsonType, Rules};

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
