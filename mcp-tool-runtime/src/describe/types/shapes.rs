//! [`Argument`] for the other shapes serde reads from JSON arrays and objects: sets
//! (`uniqueItems`, a repeat reported where serde would fold it away), fixed-size arrays
//! and tuples (exactly N items, each of its own type), and `serde_json::Map`.

use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value, json};

use super::argument::{Argument, repairable};
use super::fit::{ItemsRule, LengthRule};
use crate::check::Checker;
use crate::describe::walk::Walk;
use crate::rules::{self, JsonType, Rules};

/// The schema of a list of `T`, with `rules` applied.
fn list_schema<T: Argument>(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
    <Vec<T> as Argument>::schema(rules, walk)
}

/// Checks a set: a list of `T` in which no item repeats another.
fn check_set<T: Argument>(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
    repairable(value, true, cx, |value, cx| {
        if !<Vec<T> as Argument>::check(value, rules, cx) {
            return false;
        }
        if let Value::Array(items) = value {
            rules::report_repeats(items, None, None, cx);
        }
        true
    })
}

fn set_schema<T: Argument>(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
    let mut schema = list_schema::<T>(rules, walk);
    schema.insert("uniqueItems".into(), true.into());
    schema
}

macro_rules! sets {
    ($($set:ty => $($param:ident),*;)*) => {$(
        impl<T: Argument, $($param),*> Argument for $set {
            type Target = Self;

            fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
                set_schema::<T>(rules, walk)
            }

            fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
                check_set::<T>(value, rules, cx)
            }
        }

        impl<T, $($param),*> LengthRule for $set {}
        impl<T, $($param),*> ItemsRule for $set {
            type Item = T;
        }
    )*};
}

sets! {
    HashSet<T, S> => S;
    BTreeSet<T> => ;
}

/// Reports `value` unless it is an array of exactly `n` items; its items if it is.
pub(crate) fn exactly<'v>(value: &'v Value, n: usize, cx: &mut Checker<'_>) -> Option<&'v [Value]> {
    match value {
        Value::Array(items) if items.len() == n => Some(items),
        _ => {
            let expected = match n {
                1 => "an array of exactly 1 item".to_owned(),
                n => format!("an array of exactly {n} items"),
            };
            cx.type_mismatch(&expected, value);
            None
        }
    }
}

impl<T: Argument, const N: usize> Argument for [T; N] {
    type Target = Self;

    fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        let mut schema = list_schema::<T>(rules, walk);
        schema.insert("minItems".into(), N.into());
        schema.insert("maxItems".into(), N.into());
        schema
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        repairable(value, true, cx, |value, cx| {
            if exactly(value, N, cx).is_none() {
                return false;
            }
            <Vec<T> as Argument>::check(value, rules, cx)
        })
    }
}

impl<T, const N: usize> LengthRule for [T; N] {}
impl<T, const N: usize> ItemsRule for [T; N] {
    type Item = T;
}

/// A tuple's schema: exactly its items, in order. Where every item has the same schema it
/// is one `items`; otherwise `prefixItems` says each, and `items` lists them all, so that
/// a reader of an older draft (where `items` covers every item) still reads it right.
pub(crate) fn tuple_schema(items: Vec<Map<String, Value>>, rules: Rules) -> Map<String, Value> {
    let n = items.len();
    let mut schema = Map::new();
    schema.insert("type".into(), "array".into());
    let mut distinct: Vec<Value> = Vec::new();
    for item in &items {
        let item = Value::Object(item.clone());
        if !distinct.contains(&item) {
            distinct.push(item);
        }
    }
    if distinct.len() == 1 {
        schema.insert("items".into(), distinct.remove(0));
    } else {
        schema.insert(
            "prefixItems".into(),
            Value::Array(items.into_iter().map(Value::Object).collect()),
        );
        schema.insert("items".into(), json!({ "anyOf": distinct }));
    }
    schema.insert("minItems".into(), n.into());
    schema.insert("maxItems".into(), n.into());
    rules::apply_schema(rules.own, JsonType::Array, &mut schema);
    schema
}

macro_rules! tuples {
    ($($n:literal => ($($t:ident $i:tt),+);)*) => {$(
        impl<$($t: Argument),+> Argument for ($($t,)+) {
            type Target = Self;

            fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
                tuple_schema(vec![$($t::schema(Rules::NONE, walk)),+], rules)
            }

            fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
                repairable(value, true, cx, |value, cx| {
                    let Some(items) = exactly(value, $n, cx) else {
                        return false;
                    };
                    $(
                        let mark = cx.enter_index($i);
                        $t::check(&items[$i], Rules::NONE, cx);
                        cx.leave(mark);
                    )+
                    rules::check(rules.own, value, cx);
                    true
                })
            }
        }
    )*};
}

tuples! {
    1 => (A 0);
    2 => (A 0, B 1);
    3 => (A 0, B 1, C 2);
    4 => (A 0, B 1, C 2, D 3);
    5 => (A 0, B 1, C 2, D 3, E 4);
    6 => (A 0, B 1, C 2, D 3, E 4, F 5);
}

/// A JSON object of any values, as `serde_json` keeps it.
impl Argument for Map<String, Value> {
    type Target = Self;

    fn schema(rules: Rules, walk: &mut Walk) -> Map<String, Value> {
        <std::collections::BTreeMap<String, Value> as Argument>::schema(rules, walk)
    }

    fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        <std::collections::BTreeMap<String, Value> as Argument>::check(value, rules, cx)
    }
}

impl ItemsRule for Map<String, Value> {
    type Item = Value;
}
