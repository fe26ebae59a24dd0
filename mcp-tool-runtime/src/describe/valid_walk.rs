//! The fast path of valid arguments: one walk over them that records nothing. Most
//! calls carry valid arguments, and for those the full check (`object.rs`) keeps a
//! path, a field's hint and lists it never uses. Where this walk says the arguments
//! pass, the full check would find nothing and record nothing (no repair, no key read
//! under another name, no `null` read as left out, nothing hidden, nothing read later);
//! anything else, it leaves to the full check, which then runs again, skipping the
//! arguments' fields the walk found to pass.
//! `tests/fast_paths.rs` holds the two to the same answers.
//!
//! Each key is judged by its struct's step, which the derive writes (the `walk` of its
//! `ToolSpec`): a `match` of the key on the fields' names whose arms call the field
//! type's check directly, in whatever order the map's keys come. Against a merge of the
//! sorted keys with the sorted names that called each type's check through a pointer,
//! it took valid calls 2% to 6% less time against garde, and 15 KB off a server
//! (`BENCHMARKS.md`).

use serde_json::Value;

use super::spec::{Field, Judge, ToolSpec};
use crate::check::Checker;
use crate::context::Context;
use crate::fast::{self, FastPath};
use crate::rules::{self, Rules};

impl Judge<'_> {
    /// Whether the value sent for `field` passes `passes`, its type's
    /// [`Argument::passes`](crate::Argument::passes), with nothing to record. Inlined
    /// into each derive-written step, where `passes` is a constant: the type's check is
    /// then called directly, or inlined.
    #[doc(hidden)]
    #[inline(always)]
    pub fn field(
        &self,
        field: &Field,
        value: &Value,
        passes: fn(&Value, Rules, &Judge<'_>) -> bool,
    ) -> bool {
        match value {
            // Read as left out: recorded, and taken out before serde reads the arguments.
            Value::Null if !field.required && self.nulls_are_absent => false,
            value => passes(value, field.rules(), self),
        }
    }
}

impl ToolSpec {
    /// Whether the struct's fields admit the fast path: none flattened, sensitive,
    /// reshaped or read by a function of their own, the struct not extended, at most `Checker::FIELD_BITS` of
    /// them (a bit each), and the struct not a union's root nor holding itself. Decided
    /// once, for the plan.
    pub(super) fn admits_valid_walk(&'static self, recursive: bool) -> bool {
        self.union.is_none()
            && self.extend.is_none()
            && !recursive
            && self.fields.len() <= Checker::FIELD_BITS
            && self
                .fields
                .iter()
                .all(|f| !f.flatten && !f.sensitive && f.reshape.is_none() && f.reads.is_none())
    }

    /// Whether `value` is an object of this struct that passes every check with
    /// nothing to record: then [`ToolSpec::check`] is not needed. `false` means only
    /// "not sure".
    ///
    /// Each key is judged as it is met, by the struct's step: the walk of a nested
    /// object stops at the first doubt, so that invalid arguments, which the full check
    /// reads again, lose little here.
    pub(crate) fn passes(&'static self, value: &Value, judge: &Judge<'_>) -> bool {
        self.walk(value, judge, &mut 0, true)
    }

    /// [`ToolSpec::passes`], setting in `passed` the bit of each field it found to pass
    /// (`Checker::field_bit`).
    fn walk(
        &'static self,
        value: &Value,
        judge: &Judge<'_>,
        passed: &mut u64,
        nested: bool,
    ) -> bool {
        let Value::Object(map) = value else {
            return false;
        };
        let plan = self.plan();
        // A nested object of fewer keys than required fields misses one: said at once,
        // since what its walk found to pass is not kept, and the full check reads it all.
        if !plan.valid_walk
            || (nested && map.len() < plan.required)
            || !fast::on(FastPath::ValidWalk)
        {
            return false;
        }
        // Each key a field's, once (the wire names differ, and a map's keys): the
        // required fields are all sent when their bits are all set.
        let mut keys = map.iter();
        let mut doubt = false;
        for (key, value) in keys.by_ref() {
            match (self.walk)(key, value, judge) {
                // `i < FIELD_BITS`: the plan admits no struct of more fields (the `%`
                // says so without a check of its own, where `field_bit` checks).
                Some(i) => *passed |= 1 << (i % Checker::FIELD_BITS),
                // What a nested object's walk found to pass is not kept.
                None if nested => return false,
                None => {
                    doubt = true;
                    break;
                }
            }
        }
        if doubt {
            // The full check reads the call anyway: the other keys are judged for it to
            // skip those that pass, but a date is left to it, to be judged once rather
            // than twice when it fails (`Context::UNDATED`).
            let undated = Judge {
                context: Context::UNDATED,
                ..*judge
            };
            for (key, value) in keys {
                if let Some(i) = (self.walk)(key, value, &undated) {
                    *passed |= 1 << (i % Checker::FIELD_BITS);
                }
            }
            return false;
        }
        // A rule across fields that refuses the call leaves it to the full check.
        *passed & plan.required_bits == plan.required_bits
            && (self.across.is_empty() || self.across_holds(map))
    }

    /// The walk of the arguments object: `Ok` where they pass; else the fields the
    /// walk found to pass (bit `i` for the field at `i`, of the first 64), which the
    /// full check, finding nothing there, skips (`Checker::skip_passed`).
    ///
    /// Neither a required field not sent nor a key that fails stops it (as they stop
    /// the walk of a nested object): every key sent is judged, and the full check
    /// reads only those that did not pass. A key that fails is judged twice, here and
    /// there; one that passes, once, here, where judging keeps no path, hint or list:
    /// cheaper than the full check's judging, so that invalid arguments with valid
    /// fields beside the bad ones cost less (`BENCHMARKS.md`, the invalid path). Past
    /// the first key that fails, a date is left to the full check: reading it and the
    /// clock is the costly part of judging it, wherever it is judged.
    pub(crate) fn walk_arguments(
        &'static self,
        value: &Value,
        judge: &Judge<'_>,
    ) -> Result<(), u64> {
        let mut passed = 0;
        if self.walk(value, judge, &mut passed, false) {
            return Ok(());
        }
        Err(passed)
    }

    /// [`Argument::passes`](crate::Argument::passes) of a derived struct: its fields,
    /// then the field's own rules on the whole.
    #[inline]
    pub fn passes_field(&'static self, value: &Value, rules: Rules, judge: &Judge<'_>) -> bool {
        self.passes(value, judge) && rules::pass(rules.own, value, judge.context)
    }
}
