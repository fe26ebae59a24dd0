//! `multiple_of`: the number is a whole multiple of a factor; JSON Schema's
//! `multipleOf`.
//!
//! An integer factor is exact: the value must be an integer (a float written `10.0`
//! counts) that the factor divides, and the schema says `multipleOf`. A fractional
//! factor (`0.01`) meets binary floating point, where `0.3` is not three times `0.1`:
//! the runtime accepts a value whose quotient by the factor is within a relative
//! `1e-9` of a whole number (so `19.99` is a multiple of `0.01`), and since validators
//! differ on exactly this, the schema states the rule in the description instead of a
//! `multipleOf` that some clients would read more strictly.

use serde_json::{Map, Number, Value};

use super::{Failure, JsonType, RuleKind};
use crate::check::Checker;
use crate::number::Num;
use crate::text::expectation;

/// How far from a whole number the quotient of a value by a fractional factor may be,
/// relative to the quotient (and at least this much absolutely).
pub const FLOAT_TOLERANCE: f64 = 1e-9;

/// `multiple_of = 5` or `multiple_of = 0.25`.
#[derive(Debug, Clone, Copy)]
pub struct MultipleOf {
    /// The factor, greater than zero (the derive checks it).
    pub factor: Num,
}

impl RuleKind for MultipleOf {
    fn schema(
        &self,
        _: JsonType,
        schema: &mut Map<String, Value>,
        notes: &mut Vec<String>,
        _: Option<&'static str>,
    ) {
        match self.factor {
            Num::Int(_) => {
                schema.insert("multipleOf".into(), self.factor.to_json());
            }
            Num::Float(_) => notes.push(format!("Must be a multiple of {}.", self.factor)),
        }
    }

    fn holds(&self, value: &Value, _: &crate::context::Context) -> bool {
        !matches!(value, Value::Number(n) if !self.divides(n))
    }

    fn check(&self, value: &Value, _: &Checker<'_>) -> Option<Failure> {
        let Value::Number(n) = value else {
            return None;
        };
        (!self.divides(n)).then(|| {
            let factor = self.factor.to_string();
            Failure::new(
                "multiple_of",
                expectation(&["must be a multiple of ", &factor]),
                self.factor.to_json(),
            )
        })
    }
}

impl MultipleOf {
    /// Whether `n` is a whole multiple of the factor (see the module's documentation).
    pub fn divides(&self, n: &Number) -> bool {
        match self.factor {
            Num::Int(0) | Num::Float(0.0) => false,
            Num::Int(k) => match whole(n) {
                Some(v) => v % k == 0,
                None => false,
            },
            Num::Float(f) => {
                let Some(v) = n.as_f64() else {
                    return false;
                };
                let quotient = v / f;
                quotient.is_finite()
                    && (quotient - quotient.round()).abs()
                        <= FLOAT_TOLERANCE * quotient.abs().max(1.0)
            }
        }
    }
}

/// `n` as an integer, if it is one (`10.0` is).
fn whole(n: &Number) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = n.as_u64() {
        return Some(u.into());
    }
    let f = n.as_f64()?;
    // Every float of this magnitude that has no fraction is an exact integer.
    (f.fract() == 0.0 && f.abs() < 1e38).then_some(f as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn divides(factor: Num, value: Value) -> bool {
        let Value::Number(n) = value else {
            unreachable!()
        };
        MultipleOf { factor }.divides(&n)
    }

    #[test]
    fn integer_factors_are_exact() {
        use serde_json::json;
        let five = Num::Int(5);
        for (value, expected) in [
            (json!(10), true),
            (json!(-15), true),
            (json!(0), true),
            (json!(12), false),
            (json!(10.0), true),
            (json!(10.5), false),
            (json!(u64::MAX), true),
            (json!(u64::MAX - 1), false),
            (json!(9_223_372_036_854_775_805i64), true),
            (json!(1e20), true),
        ] {
            assert_eq!(divides(five, value.clone()), expected, "{value}");
        }
    }

    #[test]
    fn fractional_factors_allow_the_stated_tolerance() {
        use serde_json::json;
        let cent = Num::Float(0.01);
        for (value, expected) in [
            (json!(19.99), true),
            (json!(0.3), true),
            (json!(100), true),
            (json!(19.995), false),
            (json!(0.001), false),
        ] {
            assert_eq!(divides(cent, value.clone()), expected, "{value}");
        }
        assert!(
            divides(Num::Float(0.1), json!(0.3)),
            "binary floats are not held against it"
        );
        assert!(!divides(Num::Float(0.25), json!(0.3)));
        assert!(divides(Num::Float(0.25), json!(0.75)));
    }
}
