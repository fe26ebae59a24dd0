//! The rules of `#[validate(...)]`. Each lives in a file of its own with everything it
//! is: its data, its schema keyword (or the sentence in the description where no keyword
//! can say it), its check, and what a failure says. This file gathers them: the rules of
//! a value, and what a failure becomes.

mod custom;
#[cfg(feature = "dates")]
mod date;
mod format;
pub(crate) mod formats;
mod length;
mod multiple_of;
mod one_of;
mod range;
mod regex;
#[cfg(feature = "dates")]
pub(crate) mod strftime;
mod unique;

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::check::{Checker, Report};
use crate::context::Context;
use crate::text::push_sentence;

pub use custom::{Custom, CustomCheck, Invalid, OwnVerdict, ShownVerdict, Verdict};
#[cfg(feature = "dates")]
pub use date::Date;
/// Without the `dates` feature, the data of a date rule names nothing to judge it: the
/// derive refuses the rule, naming the feature.
#[cfg(not(feature = "dates"))]
#[doc(hidden)]
#[derive(Debug)]
pub struct Date {
    /// As with the feature.
    pub future: bool,
    /// As with the feature.
    pub format: &'static str,
    /// As with the feature.
    pub at_start: bool,
}
pub use format::Format;
pub use length::Length;
pub use multiple_of::MultipleOf;
pub use one_of::OneOf;
pub(crate) use one_of::{case_repair, one_of_failure};
pub use range::{Bound, Range};
pub use regex::Regex;
pub(crate) use unique::report_repeats;
pub use unique::{Unique, UniqueRule};

/// Every rule of this folder, by the name of its data. The derive writes the data of
/// some of them; `every_rule_is_written` in the `mcp-tool` crate, where both are built,
/// holds the two lists to each other, so
/// that a rule in one crate and not in the other does not build.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum RuleName {
    /// [`Custom`].
    Custom,
    /// [`Date`].
    Date,
    /// [`Format`].
    Format,
    /// [`Length`].
    Length,
    /// [`MultipleOf`].
    MultipleOf,
    /// [`OneOf`].
    OneOf,
    /// [`Range`].
    Range,
    /// [`Regex`].
    Regex,
    /// [`Unique`].
    Unique,
}

/// Each rule's data, named, for [`RuleName`]: a variant without its rule does not
/// build.
const _: () = {
    let _ = [
        size_of::<Custom>(),
        size_of::<Date>(),
        size_of::<Format>(),
        size_of::<Length>(),
        size_of::<MultipleOf>(),
        size_of::<OneOf>(),
        size_of::<Range>(),
        size_of::<Regex>(),
        size_of::<Unique>(),
    ];
};

/// A rule on one value, with the author's own message and hint.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// What the rule checks: a rule of this folder (`Regex`, `Range`, ...), each in a
    /// file of its own, written by the derive as a reference to its data.
    pub kind: &'static dyn RuleKind,
    /// Replaces the rule's expectation ("must be ...") in messages.
    pub message: Option<&'static str>,
    /// What to do, appended to the message.
    pub hint: Option<&'static str>,
}

/// A kind of rule (`Regex`, `Range`, ...: the derive's `RuleKind` of the same name
/// writes its data). What every kind does: say itself in the schema, and judge a value.
/// A new rule is a
/// file of this folder with its data, this impl and its marker trait when it asks
/// something of its type, and its `mod` and `pub use` here; the derive's module of the
/// same name writes its data.
#[doc(hidden)]
pub trait RuleKind: std::fmt::Debug + Sync {
    /// Adds the rule's keywords to `schema` of a value of JSON type `ty`, and to `notes` the
    /// sentences for the description that no keyword can say. `message` is the author's.
    fn schema(
        &self,
        ty: JsonType,
        schema: &mut Map<String, Value>,
        notes: &mut Vec<String>,
        message: Option<&'static str>,
    );

    /// How `value`, already of the right JSON type, fails the rule, judged as a whole,
    /// if it does.
    fn check(&self, value: &Value, cx: &Checker<'_>) -> Option<Failure>;

    /// Reports how `value` fails `rule` (whose kind this is): the failure of
    /// [`RuleKind::check`], at the value's own path. A rule that judges the parts of a value
    /// reports each at its own (`unique`, every repeated item at its index).
    fn report(&self, value: &Value, rule: &Rule, cx: &mut Checker<'_>) {
        if let Some(failure) = self.check(value, cx) {
            failure.report(cx, value, rule.message, rule.hint);
        }
    }

    /// Whether `value`, already of the right JSON type, passes the rule, judged in
    /// `context`: [`RuleKind::check`] without the words of a failure, for the walk of
    /// valid arguments, which stops at the first rule that fails and leaves the saying
    /// to the full check. `false` means only "not sure": an author's function says so,
    /// to run once a call, in the full check.
    fn holds(&self, value: &Value, context: &Context) -> bool;
}

/// The rules on a value, and on its items when it is an array.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Rules on the value itself.
    pub own: &'static [Rule],
    /// Rules on each item of an array.
    pub items: &'static [Rule],
}

impl Rules {
    /// No rules.
    pub const NONE: Rules = Rules {
        own: &[],
        items: &[],
    };

    /// The rules of an array's items, as the rules of a value.
    pub fn for_items(self) -> Rules {
        Rules {
            own: self.items,
            items: &[],
        }
    }
}

/// The JSON type a value is checked as, which decides the keyword of `length`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// A string.
    String,
    /// A number or an integer.
    Number,
    /// An array.
    Array,
    /// Anything else.
    Other,
}

/// Adds the keywords of `rules` to a schema, and the rules no keyword can express to
/// its description.
pub fn apply_schema(rules: &[Rule], kind: JsonType, schema: &mut Map<String, Value>) {
    let mut notes: Vec<String> = Vec::new();
    for rule in rules {
        let mut own = Map::new();
        // What the type and the rules before wrote, for a rule that reads it.
        for key in ["format", "pattern", "type"] {
            if let Some(value) = schema.get(key) {
                own.insert(key.to_owned(), value.clone());
            }
        }
        let before = own.clone();
        rule.kind.schema(kind, &mut own, &mut notes, rule.message);
        for (key, value) in own {
            if before.get(&key) == Some(&value) {
                continue;
            }
            merge(schema, &key, value);
        }
    }
    if !notes.is_empty() {
        let mut text = match schema.remove("description") {
            Some(Value::String(s)) => s,
            _ => String::new(),
        };
        for note in notes {
            push_sentence(&mut text, &note);
        }
        schema.insert("description".into(), text.into());
    }
}

/// Writes a rule's `key` into `schema` so that what is advertised is what is enforced:
/// whatever wrote the key before (the type, a newtype's rules, another rule of the
/// field) is enforced too. Of two bounds, the stricter (both hold: it is their
/// conjunction); two different patterns, formats, whitelists or steps both, the later
/// in `allOf` (a `regex` beside a date's shape, `email` beside `url`, a field's pattern
/// beside its newtype's).
fn merge(schema: &mut Map<String, Value>, key: &str, value: Value) {
    let Some(existing) = schema.get(key) else {
        schema.insert(key.to_owned(), value);
        return;
    };
    if *existing == value {
        return;
    }
    let stricter = |pick_larger: bool| {
        let (a, b) = (existing.as_f64()?, value.as_f64()?);
        let larger = if a >= b { existing } else { &value };
        let smaller = if a >= b { &value } else { existing };
        Some(if pick_larger {
            larger.clone()
        } else {
            smaller.clone()
        })
    };
    let merged = match key {
        "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties" => {
            stricter(true)
        }
        "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties" => {
            stricter(false)
        }
        _ => None,
    };
    match merged {
        Some(merged) => {
            schema.insert(key.to_owned(), merged);
        }
        None => {
            let mut also = Map::new();
            also.insert(key.to_owned(), value);
            match schema.get_mut("allOf") {
                Some(Value::Array(all)) => all.push(Value::Object(also)),
                _ => {
                    schema.insert("allOf".into(), Value::Array(vec![Value::Object(also)]));
                }
            }
        }
    }
}

/// Checks `value`, already of the right JSON type, against each rule; reports every
/// rule that fails.
pub fn check(rules: &[Rule], value: &Value, cx: &mut Checker<'_>) {
    for rule in rules {
        rule.kind.report(value, rule, cx);
    }
}

/// Whether `value`, already of the right JSON type, passes every rule with nothing
/// reported: the fast path of valid arguments (see [`Argument::passes`]). `false` for
/// a rule that fails, and for an author's function, which runs once, in the full check.
///
/// [`Argument::passes`]: crate::Argument::passes
#[inline]
pub(crate) fn pass(rules: &[Rule], value: &Value, context: &Context) -> bool {
    rules.iter().all(|rule| rule.kind.holds(value, context))
}

/// A rule's failure on one value, before it becomes a violation.
#[doc(hidden)]
pub struct Failure {
    pub(crate) rule: Cow<'static, str>,
    pub(crate) expectation: Cow<'static, str>,
    expected: Value,
    pub(crate) detail: Option<Cow<'static, str>>,
}

impl Failure {
    fn new(rule: &'static str, expectation: impl Into<Cow<'static, str>>, expected: Value) -> Self {
        Failure {
            rule: Cow::Borrowed(rule),
            expectation: expectation.into(),
            expected,
            detail: None,
        }
    }

    /// More to say after what came: "Current date is 30/11/2026."
    fn with_detail(mut self, detail: impl Into<Cow<'static, str>>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    pub(crate) fn report(
        self,
        cx: &mut Checker<'_>,
        value: &Value,
        message: Option<&'static str>,
        hint: Option<&'static str>,
    ) {
        cx.report(Report {
            rule: self.rule,
            expectation: message.map_or(self.expectation, Cow::Borrowed),
            expected: self.expected,
            received: Some(value),
            detail: self.detail,
            // A rule without a hint of its own takes its field's.
            hint: hint.or(cx.field_hint()),
        });
    }
}
