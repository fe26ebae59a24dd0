//! The rules across fields of a derived struct ([`Requirement`]): which value each of
//! its fields has for them (sent, repaired, or its default), the check that reports
//! the fields they require, the walk of valid arguments that declines a call they
//! refuse, and their advertisement in the schema.
//!
//! The schema says each rule twice: as keywords, in the portable profile, and in words,
//! in the description of each field it requires, in every profile. The keywords:
//! `dependentRequired` for a field sent, where neither side takes `null`; else one
//! `if`/`then` at the root for the struct's one such rule, and for several,
//! `dependentSchemas` under the condition's field, since no client takes a root `allOf`
//! (DESIGN.md section 4). A condition that holds by the field's default (the field not
//! sent) cannot stand under the field's name: it takes the root's `if`/`then`, and a
//! second such rule is said in words only. The strict profiles and Gemini take none of
//! these keywords (`profile/mod.rs` takes them out); their clients read the words.

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::spec::{Field, ToolSpec};
use super::types::argument::is_nullable;
use super::walk::Walk;
use crate::check::Checker;
use crate::check::across::Requirement;
use crate::text::push_sentence;

/// What a field's type lets `when(field = value)` compare it with. Implemented for
/// strings, integers, `bool`, enums of `#[derive(McpEnum)]` (their values only), and
/// `Option` and `Box` of those; the derive checks each value written against it when
/// the struct is compiled.
#[diagnostic::on_unimplemented(
    message = "a rule across fields compares the value of a field of type `{Self}`, which it cannot",
    label = "the field named in `when(field = value)`",
    note = "`when(field = value)` compares a field of a string, an integer, `bool` or an enum of `#[derive(McpEnum)]`; `when(field)` (the field sent) takes a field of any type"
)]
pub trait Compared {
    /// The values the type takes.
    const TAKES: Takes;
}

/// The values of a field's type, as [`Compared`] says them.
#[derive(Debug, Clone, Copy)]
pub enum Takes {
    /// Strings: any (`None`), or only these (an enum's values on the wire).
    Text(Option<&'static [&'static str]>),
    /// Integers from the first to the second, both included.
    Integer(i128, i128),
    /// `true` and `false`.
    Bool,
}

impl Compared for String {
    const TAKES: Takes = Takes::Text(None);
}

impl Compared for bool {
    const TAKES: Takes = Takes::Bool;
}

macro_rules! compared_integers {
    ($($t:ty)*) => {$(
        impl Compared for $t {
            const TAKES: Takes = Takes::Integer(<$t>::MIN as i128, <$t>::MAX as i128);
        }
    )*};
}

compared_integers!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

impl<T: Compared> Compared for Option<T> {
    const TAKES: Takes = T::TAKES;
}

impl<T: Compared> Compared for Box<T> {
    const TAKES: Takes = T::TAKES;
}

impl ToolSpec {
    /// The rules across fields of this struct and of the structs flattened into it,
    /// which read the same object.
    fn requirements(&'static self) -> impl Iterator<Item = &'static Requirement> {
        let flattened = self
            .fields
            .iter()
            .filter(|f| f.flatten)
            .filter_map(|f| (f.ty.object)())
            .flat_map(|spec| spec.requirements().collect::<Vec<_>>());
        self.across.iter().chain(flattened)
    }

    /// Reports each field a rule across fields requires and that was not sent: after
    /// the fields' own checks, at the missing field's path.
    pub(super) fn check_across(&'static self, map: &Map<String, Value>, cx: &mut Checker<'_>) {
        if self.across.is_empty() && !self.fields.iter().any(|f| f.flatten) {
            return;
        }
        for rule in self.requirements() {
            let Some(when) = self.field_named(rule.when) else {
                continue;
            };
            let (applies, default) = match self.value_of(when, map, cx) {
                Some(value) => (rule.applies(&value), None),
                // Not sent: serde takes the default, which a condition on a value reads.
                None if rule.values.is_empty() => (false, None),
                None => match when.default.and_then(|default| default()) {
                    Some(value) => (rule.applies(&value), Some(value)),
                    None => (false, None),
                },
            };
            if !applies {
                continue;
            }
            for name in rule.fields {
                let Some(field) = self.field_named(name) else {
                    continue;
                };
                // A required field not sent is reported as such already.
                let sent = self.value_of(field, map, cx).is_some_and(|v| !v.is_null());
                if field.required || sent {
                    continue;
                }
                rule.missing(field.name, &Self::summary_of(field), default.as_ref(), cx);
            }
        }
    }

    /// The value sent for `field` as serde reads it; `None` for none, or for a `null`
    /// that means "left out" (OpenAI's profile): under its name, or where repairs are
    /// made, under a former name or in another case style, and as repaired.
    fn value_of<'v>(
        &'static self,
        field: &'static Field,
        map: &'v Map<String, Value>,
        cx: &mut Checker<'_>,
    ) -> Option<Cow<'v, Value>> {
        let (key, sent) = match map.get_key_value(field.name) {
            Some((key, value)) => (key.as_str(), value),
            None if cx.repairs_on() => field
                .aliases
                .iter()
                .find_map(|alias| Some((*alias, map.get(*alias)?)))
                .or_else(|| self.restyled_key(field, map))?,
            None => return None,
        };
        if sent.is_null() && !field.required && cx.nulls_are_absent() {
            return None;
        }
        match cx.repaired_field(field.name, key) {
            Some(repaired) => Some(Cow::Owned(repaired.clone())),
            None => Some(Cow::Borrowed(sent)),
        }
    }

    /// A field's schema in a few words, for "Send ...": built again, the words of the
    /// rules across fields left out (a message about one says it).
    fn summary_of(field: &'static Field) -> String {
        let mut schema = field.schema(&mut Walk::new());
        // An `Option`'s: its value's, `null` being no value.
        if let Some(Value::Array(branches)) = schema.get("anyOf")
            && let [Value::Object(value), null] = branches.as_slice()
            && *null == json!({"type": "null"})
        {
            let mut value = value.clone();
            if let Some(description) = schema.remove("description") {
                value.insert("description".into(), description);
            }
            schema = value;
        }
        super::schema::summarize(&schema, field.hint().is_none())
    }
}

impl ToolSpec {
    /// Whether every rule across fields of this struct holds of `map` as sent: for the
    /// walk of valid arguments, which sees no repair, no other name and no `null` read as
    /// left out (those it leaves to the full check), so that a call a rule refuses is
    /// never taken. (A struct with a flattened field, whose rules would hold here too,
    /// is never walked.)
    pub(super) fn across_holds(&'static self, map: &Map<String, Value>) -> bool {
        self.across.iter().all(|rule| {
            let Some(when) = self.field_named(rule.when) else {
                return true;
            };
            let applies = match map.get(when.name) {
                Some(value) => rule.applies(value),
                None if rule.values.is_empty() => false,
                None => when
                    .default
                    .and_then(|default| default())
                    .is_some_and(|value| rule.applies(&value)),
            };
            !applies
                || rule
                    .fields
                    .iter()
                    .all(|name| map.get(*name).is_some_and(|v| !v.is_null()))
        })
    }

    /// Whether `rule`'s condition holds when its field is not sent: by the field's
    /// default.
    fn holds_by_default(&'static self, rule: &Requirement) -> bool {
        !rule.values.is_empty()
            && self
                .field_named(rule.when)
                .and_then(|f| f.default)
                .and_then(|default| default())
                .is_some_and(|value| rule.applies(&value))
    }

    /// Says the rules across fields in `schema`, this struct's object schema: in words
    /// in each required field's description, and as keywords (see the module's doc).
    pub(super) fn advertise_across(&'static self, schema: &mut Map<String, Value>) {
        let rules: Vec<&'static Requirement> = self.requirements().collect();
        if rules.is_empty() {
            return;
        }
        let Some(Value::Object(properties)) = schema.get_mut("properties") else {
            return;
        };
        for rule in &rules {
            let by_default = if self.holds_by_default(rule) {
                " (its default)"
            } else {
                ""
            };
            let words = format!("Required when {}{by_default}.", rule.condition());
            for name in rule.fields {
                if let Some(Value::Object(property)) = properties.get_mut(*name) {
                    let mut text = match property.remove("description") {
                        Some(Value::String(text)) => text,
                        _ => String::new(),
                    };
                    // A flattened struct's property says its rules already.
                    if !text.contains(&words) {
                        push_sentence(&mut text, &words);
                    }
                    property.insert("description".into(), text.into());
                }
            }
        }
        let nullable = |name: &str| {
            properties
                .get(name)
                .and_then(Value::as_object)
                .is_some_and(is_nullable)
        };
        let not_null = || json!({"not": {"type": "null"}});
        let mut dependent_required = Map::new();
        // Each rule that needs an `if`: whether its condition holds by default, the
        // field it reads, and the `if`/`then`.
        let mut conditional: Vec<(bool, &str, Map<String, Value>)> = Vec::new();
        for rule in rules {
            let nullable_fields: Vec<&str> = rule
                .fields
                .iter()
                .copied()
                .filter(|f| nullable(f))
                .collect();
            if rule.values.is_empty() && !nullable(rule.when) && nullable_fields.is_empty() {
                let names = dependent_required
                    .entry(rule.when)
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(names) = names {
                    names.extend(rule.fields.iter().map(|f| Value::from(*f)));
                }
                continue;
            }
            let by_default = self.holds_by_default(rule);
            let mut condition = Map::new();
            if !rule.values.is_empty() {
                let values: Vec<Value> = rule.values.iter().map(|v| v.to_json()).collect();
                condition.insert(rule.when.into(), json!({ "enum": values }));
            } else if nullable(rule.when) {
                condition.insert(rule.when.into(), not_null());
            }
            let mut when = Map::new();
            if !condition.is_empty() {
                when.insert("properties".into(), Value::Object(condition));
            }
            if !by_default {
                when.insert("required".into(), json!([rule.when]));
            }
            let mut then = Map::new();
            then.insert("required".into(), json!(rule.fields));
            if !nullable_fields.is_empty() {
                let sent: Map<String, Value> = nullable_fields
                    .iter()
                    .map(|f| ((*f).to_owned(), not_null()))
                    .collect();
                then.insert("properties".into(), Value::Object(sent));
            }
            let mut both = Map::new();
            both.insert("if".into(), Value::Object(when));
            both.insert("then".into(), Value::Object(then));
            conditional.push((by_default, rule.when, both));
        }
        if !dependent_required.is_empty() {
            schema.insert(
                "dependentRequired".into(),
                Value::Object(dependent_required),
            );
        }
        if let [(_, _, only)] = conditional.as_slice() {
            schema.extend(only.clone());
            return;
        }
        let mut under: Map<String, Value> = Map::new();
        let mut root_taken = false;
        for (by_default, when, both) in conditional {
            if by_default {
                // Only the root can say a condition that holds when its field is not
                // sent; a second one is said in words only.
                if !root_taken {
                    schema.extend(both);
                    root_taken = true;
                }
                continue;
            }
            match under.remove(when) {
                None => under.insert(when.to_owned(), Value::Object(both)),
                Some(Value::Object(mut first)) => {
                    let mut all = match first.remove("allOf") {
                        Some(Value::Array(all)) => all,
                        _ => vec![Value::Object(first)],
                    };
                    all.push(Value::Object(both));
                    under.insert(when.to_owned(), json!({ "allOf": all }))
                }
                Some(other) => under.insert(when.to_owned(), other),
            };
        }
        if !under.is_empty() {
            schema.insert("dependentSchemas".into(), Value::Object(under));
        }
    }
}
