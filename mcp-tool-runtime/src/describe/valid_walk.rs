//! The fast path of valid arguments: one walk over them that records nothing and stops
//! at the first doubt. Most calls carry valid arguments, and for those the full check
//! (`object.rs`) keeps a path, a field's hint and lists it never uses. Where this walk
//! says the arguments pass, the full check would find nothing and record nothing (no
//! repair, no key read under another name, no `null` read as left out, nothing hidden,
//! nothing read later); anything else, it leaves to the full check, which then runs
//! again, skipping only the arguments' fields the walk found to pass before it stopped.
//! `tests/fast_paths.rs` holds the two to the same answers.

use serde_json::Value;

use super::{Field, ToolSpec, maps_are_sorted};
use crate::check::Checker;
use crate::context::Context;
use crate::fast::{self, FastPath};
use crate::rules::{self, Rules};

/// What the walk of valid arguments judges by. Only this crate's code makes one.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct Judge<'a> {
    /// The clock of the date rules.
    pub(crate) context: &'a Context,
    /// `null` for an optional property means "left out" (OpenAI's profile): a value
    /// to take out before serde reads the arguments, which the full check records.
    pub(crate) nulls_are_absent: bool,
}

impl ToolSpec {
    /// Whether the struct's fields admit the fast path: none flattened, sensitive,
    /// reshaped or read by a function of their own, and the struct not a union's root
    /// nor holding itself; and whether maps iterate in name order, as the walk needs
    /// (serde_json's `preserve_order` keeps the order names came in: the full check
    /// then does it all). Decided once, for the plan.
    pub(super) fn admits_valid_walk(&'static self, recursive: bool) -> bool {
        maps_are_sorted()
            && self.union.is_none()
            && !recursive
            && self
                .fields
                .iter()
                .all(|f| !f.flatten && !f.sensitive && f.reshape.is_none() && f.reads.is_none())
    }

    /// Whether `value` is an object of this struct that passes every check with
    /// nothing to record: then [`ToolSpec::check`] is not needed. `false` means only
    /// "not sure".
    ///
    /// The map's keys and the fields' names are walked together, both in name order,
    /// each field judged as its name is met: the walk stops at the first doubt, so
    /// that invalid arguments, which the full check reads again, lose little here.
    pub(crate) fn passes(&'static self, value: &Value, judge: &Judge<'_>) -> bool {
        self.walk(value, judge, &mut 0)
    }

    /// [`ToolSpec::passes`], counting in `passed` the keys it found to pass: when it
    /// stops, the map's first `passed` keys.
    fn walk(&'static self, value: &Value, judge: &Judge<'_>, passed: &mut usize) -> bool {
        let Value::Object(map) = value else {
            return false;
        };
        let plan = self.plan();
        // Fewer keys than required fields: one is missing. Said at once, the full check
        // is left to say which, with nothing judged twice.
        if !plan.valid_walk || map.len() < plan.required || !fast::on(FastPath::ValidWalk) {
            return false;
        }
        let mut fields = plan.by_name.iter().map(|&i| &self.fields[i]);
        for (key, value) in map {
            loop {
                // A key past every name is no field's.
                let Some(field) = fields.next() else {
                    return false;
                };
                // Equality first: in valid arguments each key is the next name.
                if field.name == key {
                    if !field_passes(field, value, judge) {
                        return false;
                    }
                    *passed += 1;
                    break;
                }
                // A required name before the key: a field not sent. A name after it: the
                // key is no field's own (unknown, a former name, another case style).
                if field.required || field.name > key.as_str() {
                    return false;
                }
            }
        }
        fields.all(|field| !field.required)
    }

    /// The walk of the arguments object: `Ok` where they pass; else the fields the
    /// walk found to pass before it stopped (bit `i` for the field at `i`, of the first
    /// 64), which the full check, finding nothing there, skips
    /// (`Checker::skip_passed`).
    pub(crate) fn walk_arguments(
        &'static self,
        value: &Value,
        judge: &Judge<'_>,
    ) -> Result<(), u64> {
        let mut count = 0;
        if self.walk(value, judge, &mut count) {
            return Ok(());
        }
        let Value::Object(map) = value else {
            return Err(0);
        };
        let mut passed = 0;
        for key in map.keys().take(count) {
            if let Some(i) = self.fields.iter().position(|f| f.name == key) {
                passed |= Checker::field_bit(i);
            }
        }
        Err(passed)
    }

    /// [`Argument::passes`](crate::Argument::passes) of a derived struct: its fields,
    /// then the field's own rules on the whole.
    pub fn passes_field(&'static self, value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        self.passes(value, judge) && rules::pass(rules.own, value, judge.context)
    }
}

/// Whether the value sent for `field` passes with nothing to record. Inlined: a call
/// for each field cost a valid call about 100 instructions when the compiler chose not to.
#[inline(always)]
fn field_passes(field: &Field, value: &Value, judge: &Judge<'_>) -> bool {
    match value {
        // Read as left out: recorded, and taken out before serde reads the arguments.
        Value::Null if !field.required && judge.nulls_are_absent => false,
        value => (field.ty.passes)(value, field.rules(), judge),
    }
}
