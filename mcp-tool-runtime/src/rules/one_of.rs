//! `enum`: the string is one of a list; JSON Schema's `enum`. A value outside it is told
//! the list, and the nearest value when it looks like a slip.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Failure, JsonType, RuleKind};
use crate::check::Checker;
use crate::text::{MESSAGE_ROOM, push_quoted_list, suggest};

/// `enum = ["a", "b"]` or `enum = CONSTANT`: the string is one of `values`.
#[derive(Debug)]
pub struct OneOf {
    /// The allowed values, in the order the schema lists them.
    pub values: &'static [&'static str],
}

impl RuleKind for OneOf {
    fn schema(
        &self,
        _: JsonType,
        schema: &mut Map<String, Value>,
        _: &mut Vec<String>,
        _: Option<&'static str>,
    ) {
        schema.insert("enum".into(), self.values.into());
    }

    fn check(&self, value: &Value, cx: &Checker<'_>) -> Option<Failure> {
        let Value::String(s) = value else {
            return None;
        };
        (!self.values.contains(&s.as_str()))
            .then(|| one_of_failure(self.values, s, !cx.is_sensitive()))
    }

    fn holds(&self, value: &Value, _: &crate::context::Context) -> bool {
        value.as_str().is_none_or(|s| self.values.contains(&s))
    }

    fn report(&self, value: &Value, rule: &super::Rule, cx: &mut Checker<'_>) {
        // The one allowed value it is in another letter case (`Business` for
        // `business`): read as that, and said.
        if let Value::String(s) = value
            && !self.values.contains(&s.as_str())
            && let Some(allowed) = case_repair(self.values, s, cx)
        {
            cx.repaired(Value::from(allowed));
            return;
        }
        if let Some(failure) = self.check(value, cx) {
            failure.report(cx, value, rule.message, rule.hint);
        }
    }
}

/// The allowed value `got` is in another letter case, when exactly one is and the
/// checker repairs client mistakes (some strict modes do not keep the capitalization of
/// `enum` values).
pub(crate) fn case_repair(
    values: &[&'static str],
    got: &str,
    cx: &Checker<'_>,
) -> Option<&'static str> {
    if !cx.repairs_on() {
        return None;
    }
    let mut found = values.iter().filter(|v| same_lowercase(v, got));
    let first = found.next()?;
    found.next().is_none().then_some(*first)
}

/// Whether `a` and `b` are one text once lowercased. Two ASCII texts (nearly every
/// value) are compared in place, with nothing allocated for a value that is not one;
/// any other is lowercased whole, as `str::to_lowercase` does it (a final sigma, a
/// Kelvin sign that lowercases to ASCII).
fn same_lowercase(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(b)
    } else {
        a.to_lowercase() == b.to_lowercase()
    }
}

/// The failure of a whitelist, with the nearest allowed value when there is one and
/// `nearest` (not for a value that is not shown: the suggestion would be made from it;
/// a name, such as a form's key, is no value). Also what a value outside a Rust enum's
/// names gets.
pub(crate) fn one_of_failure(values: &[&str], got: &str, nearest: bool) -> Failure {
    let mut expectation = String::with_capacity(
        16 + values.iter().map(|v| v.len() + 4).sum::<usize>() + MESSAGE_ROOM,
    );
    expectation.push_str("must be one of ");
    push_quoted_list(&mut expectation, values.iter().copied());
    let mut failure = Failure::new(
        "enum",
        expectation,
        values.iter().map(|v| Value::from(*v)).collect(),
    );
    let near = nearest.then(|| suggest::nearest(got, values.iter().copied()));
    failure.detail = near.flatten().map(|near| {
        let mut detail = String::with_capacity(near.len() + 16);
        suggest::push_did_you_mean(&mut detail, near);
        Cow::Owned(detail)
    });
    failure
}

#[cfg(test)]
mod tests {
    use super::same_lowercase;

    /// The comparison in place says what lowercasing both whole says, ASCII or not.
    #[test]
    fn lowercase_comparison_agrees_with_to_lowercase() {
        let texts = [
            "business",
            "Business",
            "BUSINESS",
            "busines",
            "business ",
            "premium_economy",
            "Premium_Economy",
            "premium-economy",
            "",
            "km",
            "KM",
            "\u{212A}m", // KELVIN SIGN, lowercased to an ASCII `k`
            "ΟΔΟΣ",
            "οδος",
            "οδοσ",
            "Straße",
            "STRASSE",
            "İstanbul",
            "istanbul",
            "@[`{",
            "`@{[",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(
                    same_lowercase(a, b),
                    a.to_lowercase() == b.to_lowercase(),
                    "{a:?} and {b:?}"
                );
            }
        }
    }
}
