//! A rule across fields: some fields must be sent when another is sent, or when it has
//! one of some values (`#[mcp_tool(require(local_path, when(mode = "download")))]`).
//! This file holds the rule as the derive writes it, when it holds, and the violation
//! of a field it requires; which value a field has (sent, repaired, or its default) is
//! the struct's to say (`describe/across.rs`).

use std::borrow::Cow;

use serde_json::Value;

use super::{Checker, Report};

/// A value written in `when(field = value)`: what the field's value is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Literal {
    /// A string: the value on the wire (a derived enum's value after serde's renames).
    Str(&'static str),
    /// An integer: equal to a JSON number of the same value, `3.0` as `3`, as JSON
    /// Schema compares numbers.
    Int(i128),
    /// `true` or `false`.
    Bool(bool),
}

impl Literal {
    /// The value as JSON, for the schema.
    pub fn to_json(self) -> Value {
        match self {
            Literal::Str(s) => Value::from(s),
            Literal::Int(n) => match (i64::try_from(n), u64::try_from(n)) {
                (Ok(n), _) => Value::from(n),
                (_, Ok(n)) => Value::from(n),
                // Out of every JSON number's exact range: the derive refuses such a
                // literal for every field type that takes integers.
                _ => Value::from(n as f64),
            },
            Literal::Bool(b) => Value::from(b),
        }
    }

    /// Whether `value` is this literal, as JSON Schema's `enum` compares them.
    pub fn matches(self, value: &Value) -> bool {
        match (self, value) {
            (Literal::Str(s), Value::String(v)) => s == v,
            (Literal::Bool(b), Value::Bool(v)) => b == *v,
            (Literal::Int(n), Value::Number(v)) => {
                let exact = v
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| v.as_u64().map(i128::from));
                match exact {
                    Some(v) => v == n,
                    // A float equals an integer only when it is that integer.
                    None => v
                        .as_f64()
                        .is_some_and(|f| f.fract() == 0.0 && f == n as f64),
                }
            }
            _ => false,
        }
    }
}

/// `#[mcp_tool(require(a, b, when(c)))]` or `require(a, when(c = "x"))`: the fields
/// `fields` must be sent when `when` is sent (no `values`), or when its value, as sent
/// or else its default, is one of `values`. Names are the fields' names on the wire. A
/// field sent as `null` counts as not sent: serde reads it as `None`.
#[derive(Debug)]
pub struct Requirement {
    /// The fields the rule requires.
    pub fields: &'static [&'static str],
    /// The field the condition reads.
    pub when: &'static str,
    /// The values of `when` that require `fields`; none: `when` being sent does.
    pub values: &'static [Literal],
}

impl Requirement {
    /// The rule's name in a violation: `required_if` for a value, `required_with` for
    /// a field sent.
    pub fn rule(&self) -> &'static str {
        if self.values.is_empty() {
            "required_with"
        } else {
            "required_if"
        }
    }

    /// Whether the rule requires its fields, `when` having `value` (sent, or its
    /// default). `null` is no value: it is no field sent, and equals no literal.
    pub fn applies(&self, value: &Value) -> bool {
        if self.values.is_empty() {
            !value.is_null()
        } else {
            self.values.iter().any(|v| v.matches(value))
        }
    }

    /// The condition in words: `mode is "download"`, `mode is "a" or "b"`, `range_start
    /// is sent`.
    pub fn condition(&self) -> String {
        if self.values.is_empty() {
            return format!("{} is sent", self.when);
        }
        let values: Vec<String> = self
            .values
            .iter()
            .map(|v| v.to_json().to_string())
            .collect();
        format!("{} is {}", self.when, values.join(" or "))
    }

    /// Reports `field`, which the rule requires and was not sent; `summary` says what to
    /// send ("a string (Where to save it.)"); `default` is the value `when` took by its
    /// default, not being sent, where that is what requires `field`.
    pub(crate) fn missing(
        &self,
        field: &'static str,
        summary: &str,
        default: Option<&Value>,
        cx: &mut Checker<'_>,
    ) {
        let mut detail = format!("Send {summary}");
        if let Some(default) = default {
            // The model did not choose the value: say where it came from.
            detail.push_str(&format!(
                ", or send {} with another value: it is {default} by default",
                self.when
            ));
        }
        detail.push('.');
        let mark = cx.enter_field(field);
        cx.report(Report {
            rule: Cow::Borrowed(self.rule()),
            expectation: Cow::Owned(format!(
                "is required when {}, and was not sent",
                self.condition()
            )),
            expected: Value::from(summary),
            received: None,
            detail: Some(Cow::Owned(detail)),
            hint: None,
        });
        cx.leave(mark);
    }
}

impl Checker<'_> {
    /// The value put in place of the one sent under `key` in the object being checked,
    /// if it was repaired (`"DOWNLOAD"` read as `"download"`): what serde reads. `key`
    /// is the field `name`'s own, or another it was read under.
    pub(crate) fn repaired_field(&mut self, name: &'static str, key: &str) -> Option<&Value> {
        if !self.findings.has_repairs() {
            return None;
        }
        let mark = if key == name {
            self.enter_field(name)
        } else {
            self.enter_key(key)
        };
        let at = self.location();
        self.leave(mark);
        self.findings.repaired_at(&at)
    }
}
