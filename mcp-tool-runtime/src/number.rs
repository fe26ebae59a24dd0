//! Exact comparison of JSON numbers with rule bounds.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Number, Value};

/// The largest integer every JSON reader holds exactly (2^53 - 1, JavaScript's
/// `Number.MAX_SAFE_INTEGER`), and the line between a type's own bound that is told to
/// the model and one that is only enforced (the number policy of
/// `describe/types/numbers.rs` says why).
pub(crate) const EXACT: i128 = (1 << 53) - 1;

/// A bound written in a `range` rule, or the limit of an integer type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// An integer literal.
    Int(i128),
    /// A literal with a fraction or exponent.
    Float(f64),
}

impl Num {
    /// Compares this bound with a JSON number, exactly: `9007199254740992.0` is less
    /// than `9007199254740993`, which an `as f64` cast would call equal.
    pub fn cmp_to(self, n: &Number) -> Ordering {
        let value = if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else {
            // serde_json numbers are finite unless arbitrary precision is on.
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        };
        self.cmp_num(value)
    }

    /// Compares two numbers exactly; NaN compares below everything.
    pub fn cmp_num(self, other: Num) -> Ordering {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
            (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).reverse(),
            (Num::Float(a), Num::Float(b)) => a.total_cmp(&b),
        }
    }

    /// This bound as a JSON number.
    pub fn to_json(self) -> Value {
        match self {
            Num::Int(i) => {
                if let Ok(i) = i64::try_from(i) {
                    Value::from(i)
                } else if let Ok(u) = u64::try_from(i) {
                    Value::from(u)
                } else {
                    Value::from(i as f64)
                }
            }
            Num::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        }
    }
}

impl Num {
    /// Writes this bound in decimal, as its `Display` does.
    pub(crate) fn push_to(self, out: &mut String) {
        match self {
            Num::Int(i) => push_int(out, i),
            Num::Float(x) => {
                use std::fmt::Write;
                let _ = write!(out, "{x}");
            }
        }
    }
}

/// `i` in decimal. Without the formatting machinery: a failure's message writes its
/// bounds and what came, and `fmt` costs more than the digits.
pub(crate) fn push_int(out: &mut String, i: i128) {
    // In 64 bits where it fits: 128-bit division is a call per digit.
    match i64::try_from(i) {
        Ok(i) => out.push_str(itoa::Buffer::new().format(i)),
        Err(_) => out.push_str(itoa::Buffer::new().format(i)),
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) => write!(f, "{x}"),
        }
    }
}

// Out of line: inlined, its float work was hoisted into every rule check.
#[inline(never)]
fn cmp_int_float(i: i128, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Greater;
    }
    // i128 spans about ±1.7e38; beyond, the float wins outright.
    if f >= 1.7e38 {
        return Ordering::Less;
    }
    if f <= -1.7e38 {
        return Ordering::Greater;
    }
    let floor = f.floor();
    match i.cmp(&(floor as i128)) {
        Ordering::Equal if f > floor => Ordering::Less,
        other => other,
    }
}

/// A JSON number that is a mathematical integer within `[min, max]`, as JSON Schema's
/// `"type": "integer"` means it (`3.0` counts). Returns whether it is an integer and
/// whether it is written as a float (and so needs rewriting for serde).
pub(crate) fn integer_in(n: &Number, min: i128, max: i128) -> Option<bool> {
    if let Some(i) = n.as_i64() {
        let i = i128::from(i);
        return (min..=max).contains(&i).then_some(false);
    }
    if let Some(u) = n.as_u64() {
        let u = i128::from(u);
        return (min..=max).contains(&u).then_some(false);
    }
    let f = n.as_f64()?;
    if f.fract() != 0.0 || !f.is_finite() {
        return None;
    }
    let lo = Num::Int(min).cmp_num(Num::Float(f)) != Ordering::Greater;
    let hi = Num::Int(max).cmp_num(Num::Float(f)) != Ordering::Less;
    (lo && hi).then_some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_written_as_display_writes_them() {
        for i in [
            0,
            7,
            -7,
            10,
            1_000_000,
            i128::from(i64::MIN),
            i128::from(u64::MAX),
            i128::MAX,
            i128::MIN,
            -1,
        ] {
            let mut out = String::new();
            push_int(&mut out, i);
            assert_eq!(out, i.to_string());
            let mut out = String::new();
            Num::Int(i).push_to(&mut out);
            assert_eq!(out, Num::Int(i).to_string());
        }
        let mut out = String::new();
        Num::Float(2.5).push_to(&mut out);
        assert_eq!(out, "2.5");
    }

    fn n(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            _ => unreachable!(),
        }
    }

    #[test]
    fn compares_across_representations_exactly() {
        let cmp = |bound: Num, value: Value| bound.cmp_to(&n(value));
        assert_eq!(
            cmp(
                Num::Float(9007199254740992.0),
                Value::from(9007199254740993_u64)
            ),
            Ordering::Less
        );
        assert_eq!(cmp(Num::Int(1), Value::from(1.0)), Ordering::Equal);
        assert_eq!(cmp(Num::Int(1), Value::from(0.999)), Ordering::Greater);
        assert_eq!(cmp(Num::Float(0.5), Value::from(0)), Ordering::Greater);
        assert_eq!(cmp(Num::Int(-1), Value::from(-1.5)), Ordering::Greater);
        assert_eq!(
            cmp(Num::Int(i128::from(u64::MAX)), Value::from(u64::MAX)),
            Ordering::Equal
        );
    }

    #[test]
    fn integers_as_json_schema_counts_them() {
        assert_eq!(integer_in(&n(Value::from(3)), 0, 255), Some(false));
        assert_eq!(integer_in(&n(Value::from(3.0)), 0, 255), Some(true));
        assert_eq!(integer_in(&n(Value::from(-0.0)), 0, 255), Some(true));
        assert_eq!(integer_in(&n(Value::from(3.5)), 0, 255), None);
        assert_eq!(integer_in(&n(Value::from(256)), 0, 255), None);
        assert_eq!(integer_in(&n(Value::from(-1)), 0, 255), None);
        // 2^64 as a float is one past u64::MAX.
        assert_eq!(
            integer_in(&n(Value::from(18446744073709551616.0)), 0, u64::MAX.into()),
            None
        );
    }
}
