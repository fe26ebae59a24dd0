//! The read after the check: one pass over the findings, in the order found. Arguments
//! with a violation are left as they came and the violations listed; arguments without
//! one are made what serde reads (each repair put in place, integral floats written as
//! integers, `null`s meaning "left out" taken out, keys in another case style renamed)
//! and the newtypes' conversions tried on them.

use std::borrow::Cow;

use serde_json::Value;

use super::findings::{Conversion, Finding, Findings};
use crate::result::echo;
use crate::result::{Location, Repair, Violation};

/// What a finished check found (see [`Checker::finish`](super::Checker::finish)).
#[derive(Debug, Default)]
pub(crate) struct Checked {
    pub(super) findings: Findings,
    /// Where sensitive values are, in the arguments as they came.
    pub(super) hidden: Vec<Location>,
}

/// What the error of arguments that fail lists.
#[derive(Debug, Default)]
pub(crate) struct Listed {
    /// The violations listed, in the order found.
    pub violations: Vec<Violation>,
    /// The field of the arguments each is about, where the checker kept them (see
    /// `Checker::keep_fields`); else empty.
    pub fields: Vec<Option<&'static str>>,
    /// How many more were found and only counted.
    pub omitted: usize,
    /// Where sensitive values are.
    pub hidden: Vec<Location>,
}

/// Arguments made what serde reads (see [`Checked::apply`]).
#[derive(Debug)]
pub(crate) struct Applied {
    /// The repairs made, the outermost first, then the names read as others.
    pub repairs: Vec<Repair>,
    /// The conversions' refusals, each at its value's path, in its own words.
    pub refused: Vec<Violation>,
    /// Where sensitive values are.
    pub hidden: Vec<Location>,
}

impl Checked {
    /// Whether a violation was found.
    pub(crate) fn is_invalid(&self) -> bool {
        self.findings.count() > 0
    }

    /// Where sensitive values are.
    pub(crate) fn hidden(&self) -> &[Location] {
        &self.hidden
    }

    /// The violations, for the error, and the repairs that would have been made, for
    /// its `_meta`: the arguments are kept as they came. The violations' list becomes
    /// the error's as it lies.
    pub(crate) fn listed(self) -> (Listed, Vec<Repair>) {
        let found = self.findings.into_parts();
        let mut repairs = Repairs::default();
        for finding in found.others {
            match finding {
                Finding::Repaired { at, repair, .. } => repairs.made(&at, repair),
                Finding::Renamed(repair) => repairs.renamed.push(repair),
                Finding::Restyled { .. }
                | Finding::IntegralFloat(_)
                | Finding::AbsentNull(_)
                | Finding::Conversion(_) => {}
            }
        }
        let listed = Listed {
            violations: found.violations,
            fields: found.fields,
            omitted: found.omitted,
            hidden: self.hidden,
        };
        (listed, repairs.in_order())
    }

    /// Makes `arguments`, found valid, what serde reads, and tries the conversions on
    /// them; where one refuses, the keys keep the names they were sent under.
    pub(crate) fn apply(self, arguments: &mut Value) -> Applied {
        debug_assert!(!self.is_invalid());
        let mut repairs = Repairs::default();
        let mut refused = Vec::new();
        let mut restyled = Vec::new();
        for finding in self.findings.into_parts().others {
            match finding {
                // A repair is recorded before the findings inside the value it puts in
                // place: those are then found in it.
                Finding::Repaired { at, repair, value } => {
                    if let Some(slot) = at.get_mut(arguments) {
                        *slot = value;
                    }
                    repairs.made(&at, repair);
                }
                Finding::Renamed(repair) => repairs.renamed.push(repair),
                Finding::IntegralFloat(at) => integer_in_place(arguments, &at),
                Finding::AbsentNull(at) => at.remove(arguments),
                // Recorded once the value's own checks passed, after every finding in it:
                // tried on the value as serde reads it.
                Finding::Conversion(conversion) => {
                    refused.extend(refusal(&conversion, arguments));
                }
                // Renamed last, while every path above is as sent.
                Finding::Restyled { parent, key, name } => restyled.push((parent, key, name)),
            }
        }
        // The innermost first (each was recorded after its parent's), while the paths
        // above them are still as sent. Not where a conversion refused: the error keeps
        // the names as sent.
        let restyled = if refused.is_empty() {
            restyled
        } else {
            Vec::new()
        };
        for (parent, key, name) in restyled.into_iter().rev() {
            if let Some(Value::Object(object)) = parent.get_mut(arguments)
                && let Some(value) = object.remove(&key)
            {
                object.insert(name.to_owned(), value);
            }
        }
        Applied {
            repairs: repairs.in_order(),
            refused,
            hidden: self.hidden,
        }
    }
}

/// The repairs, as the result's `_meta` says them.
#[derive(Default)]
struct Repairs {
    /// Each with its depth.
    made: Vec<(usize, Repair)>,
    renamed: Vec<Repair>,
}

impl Repairs {
    fn made(&mut self, at: &Location, repair: Repair) {
        self.made.push((at.depth(), repair));
    }

    /// The repairs made, the outermost first, then the names read as others.
    fn in_order(mut self) -> Vec<Repair> {
        // Most calls repair nothing: no sort to run, nor list to move.
        if self.made.is_empty() {
            return self.renamed;
        }
        self.made.sort_by_key(|(depth, _)| *depth);
        let mut repairs: Vec<Repair> = self.made.into_iter().map(|(_, r)| r).collect();
        repairs.append(&mut self.renamed);
        repairs
    }
}

/// The refusal of a newtype's conversion (`#[serde(try_from)]`), tried on the
/// arguments as serde will read them: at its value's path, in its own words.
fn refusal(conversion: &Conversion, arguments: &mut Value) -> Option<Violation> {
    let value = conversion.at.get_mut(arguments)?;
    let refusal = (conversion.convert)(value).err()?;
    let received = conversion
        .value_shown
        .then(|| echo::truncate(value, echo::RECEIVED));
    // The conversion's own words, made at run time, may hold the value (`"12ab" is not
    // a code`): not said of a value not shown.
    let mut message = if conversion.value_shown {
        format!("was refused: {}", refusal.trim_end_matches('.'))
    } else {
        String::from("was refused by its type's conversion (its reason is not shown)")
    };
    if let Some(short) = &received {
        message.push_str("; got ");
        echo::describe_into(&mut message, value, short);
    }
    message.push('.');
    Some(Violation {
        path: conversion.path.clone(),
        rule: Cow::Borrowed(conversion.rule),
        message,
        expected: Value::Null,
        received,
    })
}

/// The integral float at `at` (`3.0`) written as an integer (`3`), which is what serde
/// reads into an integer type; the checks found it integral and in range.
fn integer_in_place(arguments: &mut Value, at: &Location) {
    if let Some(slot) = at.get_mut(arguments)
        && let Some(f) = slot.as_f64()
    {
        *slot = if f < 0.0 {
            Value::from(f as i64)
        } else {
            Value::from(f as u64)
        };
    }
}
