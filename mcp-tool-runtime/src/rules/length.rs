//! `length`: how many code points a string has (JSON Schema's unit, not bytes), or how
//! many items an array; `minLength`/`maxLength` or `minItems`/`maxItems`.

use serde_json::{Map, Value};

use super::{Failure, JsonType, RuleKind};
use crate::check::Checker;
use crate::number;
use crate::text::expectation;

/// `length(min = 1, max = 100)` or `length(equal = 3)`.
#[derive(Debug)]
pub struct Length {
    /// At least this many.
    pub min: Option<u64>,
    /// At most this many.
    pub max: Option<u64>,
}

impl RuleKind for Length {
    fn schema(
        &self,
        kind: JsonType,
        schema: &mut Map<String, Value>,
        _: &mut Vec<String>,
        _: Option<&'static str>,
    ) {
        let (lo, hi) = match kind {
            JsonType::Array => ("minItems", "maxItems"),
            _ => ("minLength", "maxLength"),
        };
        if let Some(n) = self.min {
            schema.insert(lo.into(), n.into());
        }
        if let Some(n) = self.max {
            schema.insert(hi.into(), n.into());
        }
    }

    fn holds(&self, value: &Value, _: &crate::context::Context) -> bool {
        let (min, max) = (self.min, self.max);
        let len = match value {
            // A string has at most as many code points as bytes, and at least a quarter
            // as many: most need no counting.
            Value::String(s)
                if max.is_none_or(|m| s.len() as u64 <= m)
                    && min.is_none_or(|m| (s.len() as u64).div_ceil(4) >= m) =>
            {
                return true;
            }
            Value::String(s) => s.chars().count() as u64,
            Value::Array(a) => a.len() as u64,
            _ => return true,
        };
        min.is_none_or(|m| len >= m) && max.is_none_or(|m| len <= m)
    }

    fn check(&self, value: &Value, cx: &Checker<'_>) -> Option<Failure> {
        if self.holds(value, cx.context()) {
            return None;
        }
        let (len, unit) = match value {
            Value::String(s) => (s.chars().count() as u64, "characters"),
            Value::Array(a) => (a.len() as u64, "items"),
            _ => return None,
        };
        let text = self.text(unit);
        let failure = Failure::new("length", expectation(&["must have ", &text]), text.into());
        // The length of a secret is a clue to it. An array's count is said already where
        // what came is described.
        Some(if !cx.is_sensitive() && value.is_string() {
            failure.with_detail(format!("It has {len} {}.", singular(unit, Some(len))))
        } else {
            failure
        })
    }
}

impl Length {
    /// "from 1 to 100 characters", "exactly 3 items".
    fn text(&self, unit: &str) -> String {
        let mut text = String::with_capacity(24 + unit.len());
        let n = |text: &mut String, n: u64| number::push_int(text, i128::from(n));
        match (self.min, self.max) {
            (Some(a), Some(b)) if a == b => {
                text.push_str("exactly ");
                n(&mut text, a);
            }
            (Some(a), Some(b)) => {
                text.push_str("from ");
                n(&mut text, a);
                text.push_str(" to ");
                n(&mut text, b);
            }
            (Some(a), None) => {
                text.push_str("at least ");
                n(&mut text, a);
            }
            (None, Some(b)) => {
                text.push_str("at most ");
                n(&mut text, b);
            }
            (None, None) => text.push_str("any number of"),
        }
        text.push(' ');
        // "1 character", "exactly 1 item": the bound that decides is the last one said.
        let last = self.max.or(self.min);
        text.push_str(singular(unit, last));
        text
    }
}

/// `unit` for a count of `n`: "characters" for 2, "character" for 1.
fn singular(unit: &str, n: Option<u64>) -> &str {
    match n {
        Some(1) => unit.strip_suffix('s').unwrap_or(unit),
        _ => unit,
    }
}
