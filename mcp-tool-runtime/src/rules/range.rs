//! `range`: the number lies within bounds; JSON Schema's `minimum`, `maximum` and their
//! exclusive forms, compared exactly across integers and floats.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::{Failure, JsonType, RuleKind};
use crate::check::Checker;
use crate::number::Num;
use crate::text::expectation;

/// `range(min = 1, max = 9)`, `range(exclusive_min = 0)`, ...
#[derive(Debug)]
pub struct Range {
    /// The lower bound.
    pub min: Option<Bound>,
    /// The upper bound.
    pub max: Option<Bound>,
}

/// One bound of a [`Range`].
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    /// The bound.
    pub value: Num,
    /// Whether the bound itself is outside the range.
    pub exclusive: bool,
}

impl RuleKind for Range {
    fn schema(
        &self,
        _: JsonType,
        schema: &mut Map<String, Value>,
        _: &mut Vec<String>,
        _: Option<&'static str>,
    ) {
        if let Some(bound) = self.min {
            tighten(
                schema,
                "minimum",
                "exclusiveMinimum",
                bound,
                Ordering::Greater,
            );
        }
        if let Some(bound) = self.max {
            tighten(schema, "maximum", "exclusiveMaximum", bound, Ordering::Less);
        }
    }

    fn holds(&self, value: &Value, _: &crate::context::Context) -> bool {
        !matches!(value, Value::Number(n) if self.outside(n))
    }

    fn check(&self, value: &Value, _: &Checker<'_>) -> Option<Failure> {
        let Value::Number(n) = value else {
            return None;
        };
        self.outside(n).then(|| {
            let text = self.text();
            Failure::new("range", expectation(&["must be ", &text]), text.into())
        })
    }
}

impl Range {
    /// Below the lower bound or above the upper one.
    fn outside(&self, n: &serde_json::Number) -> bool {
        let low = self.min.is_some_and(|b| match b.value.cmp_to(n) {
            Ordering::Greater => true,
            Ordering::Equal => b.exclusive,
            Ordering::Less => false,
        });
        let high = self.max.is_some_and(|b| match b.value.cmp_to(n) {
            Ordering::Less => true,
            Ordering::Equal => b.exclusive,
            Ordering::Greater => false,
        });
        low || high
    }

    /// "at least 1 and at most 9", "more than 0".
    fn text(&self) -> String {
        let mut text = String::with_capacity(32);
        if let Some(b) = self.min {
            text.push_str(if b.exclusive {
                "more than "
            } else {
                "at least "
            });
            b.value.push_to(&mut text);
        }
        if let Some(b) = self.max {
            if !text.is_empty() {
                text.push_str(" and ");
            }
            text.push_str(if b.exclusive {
                "less than "
            } else {
                "at most "
            });
            b.value.push_to(&mut text);
        }
        if text.is_empty() {
            text.push_str("a number");
        }
        text
    }
}

/// Sets a bound unless the schema already has a tighter one (the limit of the type).
fn tighten(
    schema: &mut Map<String, Value>,
    inclusive_key: &str,
    exclusive_key: &str,
    bound: Bound,
    tighter: Ordering,
) {
    if let Some(Value::Number(existing)) = schema.get(inclusive_key) {
        let cmp = bound.value.cmp_to(existing);
        // The existing bound is tighter, or equal and the new one is inclusive.
        if cmp == tighter.reverse() || (cmp == Ordering::Equal && !bound.exclusive) {
            return;
        }
        schema.remove(inclusive_key);
    }
    let key = if bound.exclusive {
        exclusive_key
    } else {
        inclusive_key
    };
    schema.insert(key.into(), bound.value.to_json());
}
